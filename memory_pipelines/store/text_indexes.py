"""The BM25 indexes (pg_textsearch, migration 012): whether each one's document count still
holds, and rebuilding one whose count drifted.

pg_textsearch 1.0 (the embedded server's) lowers an index's `total_docs` at each VACUUM that
removes rows from it, while the documents stay in its segments (fixed upstream in 1.1.0). After
a restart the lowered count is read back: a word in more documents than `total_docs` gets a
negative IDF and the index's top-k comes back nearly empty (0 to 17 rows where 50 were asked,
on a store of 99k items whose count had fallen to 80). Search then falls back to scoring every
row that shares a word (p95 1.4 s at a million turns). REINDEX rebuilds the count from the
table; CONCURRENTLY, so search and writes go on meanwhile."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one

# Every BM25 index of the schema. An index built concurrently has a temporary twin
# `<name>_ccnew` (`_ccnew1`, ...) that a killed rebuild leaves behind, invalid.
NAMES = ("turns_words_bm25", "items_words_bm25", "chunks_summary_bm25", "documents_words_bm25")
# A count under the documents by this share is rebuilt. After a restart the count lags the
# documents added since the index's last spill (660 of a million turns here), which is harmless:
# only a word in 99% of the documents could have a negative IDF.
DRIFT = 0.01
_LOCK_KEY = 0x626D3235  # one rebuilder at a time across processes (a pass per store runs each)


@dataclass(frozen=True)
class IndexCount:
    name: str
    total_docs: int  # the count BM25's IDF divides by
    documents: int  # documents in its segments and memtable (a word's count is at most this)

    @property
    def drifted(self) -> bool:
        return self.total_docs < (1 - DRIFT) * self.documents


def parse_summary(name: str, text: str) -> IndexCount:
    """The counts in `bm25_summarize_index(name)`'s text; a section it leaves out (an index
    without segments has no Total line) counts 0."""

    def number(pattern: str) -> int:
        found = re.search(pattern, text)
        return int(found.group(1)) if found else 0

    if "total_docs:" not in text:
        raise ValueError(f"{name}: bm25_summarize_index gave no total_docs line: {text[:200]!r}")
    segments = number(r"\n\s*Total: [^\n]*?(\d+) docs")
    memtable = number(r"Memtable:\s*\n\s*terms: \d+\s*\n\s*documents: (\d+)")
    return IndexCount(name, number(r"total_docs: (\d+)"), segments + memtable)


def present(conn: Conn) -> list[str]:
    """The BM25 indexes this database has (none without pg_textsearch)."""
    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE indexname = ANY(%s)", (list(NAMES),)
    ).fetchall()
    have = {r["indexname"] for r in rows}
    return [n for n in NAMES if n in have]


def counts(conn: Conn) -> list[IndexCount]:
    """Each present BM25 index's counts (a Database connection: rows as dicts)."""
    out = []
    for name in present(conn):
        row = conn.execute("SELECT bm25_summarize_index(%s) AS s", (name,)).fetchone()
        out.append(parse_summary(name, one(row, "bm25_summarize_index")["s"]))
    return out


def _leftovers(conn: Conn) -> list[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
        " WHERE NOT i.indisvalid AND c.relname ~ %s",
        ("^(" + "|".join(NAMES) + r")_ccnew\d*$",),
    ).fetchall()
    return [r["relname"] for r in rows]


def rebuild(conn: Conn, name: str) -> float:
    """REINDEX CONCURRENTLY one BM25 index (an autocommit connection), after dropping what a
    killed rebuild left; returns the seconds it took."""
    if name not in NAMES:
        raise ValueError(f"not a BM25 index of the schema: {name!r}; one of {', '.join(NAMES)}")
    for left in _leftovers(conn):
        if left.startswith(name):
            conn.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{left}"')
    start = time.perf_counter()
    conn.execute(f"REINDEX INDEX CONCURRENTLY {name}")
    return time.perf_counter() - start


def try_lock(conn: Conn) -> bool:
    """The rebuilders' lock on this session (False: another process holds it)."""
    row = conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (_LOCK_KEY,)).fetchone()
    return bool(one(row, "pg_try_advisory_lock")["ok"])


def unlock(conn: Conn) -> None:
    conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
