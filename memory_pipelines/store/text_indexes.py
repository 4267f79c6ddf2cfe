"""The BM25 indexes (pg_textsearch, migration 012): whether each one's document count still
holds and it holds every row of its table, and rebuilding one that does not.

pg_textsearch 1.0 (the embedded server's) lowers an index's `total_docs` at each VACUUM that
removes rows from it, while the documents stay in its segments (fixed upstream in 1.1.0). After
a restart the lowered count is read back: a word in more documents than `total_docs` gets a
negative IDF and the index's top-k comes back nearly empty (0 to 17 rows where 50 were asked,
on a store of 99k items whose count had fallen to 80). Search then falls back to scoring every
row that shares a word (p95 1.4 s at a million turns). REINDEX rebuilds the count from the
table; CONCURRENTLY, so search and writes go on meanwhile.

pg_textsearch 1.0 also keeps the documents added since its last spill in shared memory only,
with their row ids on "recovery pages"; the index's first use after a restart reads those rows
again (with their text, whatever their state). A row deleted since, whose TOASTed text VACUUM
has already removed, stops that recovery with "missing chunk number 0 for toast value ...",
and the index goes on without the documents it had not yet read: a word's live rows no longer
come back from it (fixed upstream in 1.3.0, which logs its memtable). So an index is rebuilt
too when its first read fails so (`unreadable`) or when it holds fewer documents than its
table has rows (`lost`), by the service at its start, each maintenance pass, and a process that
has just started the embedded server (store/server.py: before any caller's statement, which
would otherwise meet the failing read). A VACUUM of the table empties the recovery pages;
bm25_spill_index does not (1.0)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg.errors
from psycopg import sql

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one

# Every BM25 index of the schema. An index built concurrently has a temporary twin
# `<name>_ccnew` (`_ccnew1`, ...) that a killed rebuild leaves behind, invalid.
NAMES = ("turns_words_bm25", "items_words_bm25", "chunks_summary_bm25", "documents_words_bm25")
# Each index's table: the rows it should hold a document for.
INDEXED = {
    "turns_words_bm25": "turns",
    "items_words_bm25": "agent_memory_items",
    "chunks_summary_bm25": "chunks",
    "documents_words_bm25": "documents",
}
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
    rows: int | None = None  # rows of its table with text to index (None: not counted)
    unreadable: bool = False  # its first read after a restart failed on a vacuumed row

    @property
    def drifted(self) -> bool:
        return self.total_docs < (1 - DRIFT) * self.documents

    @property
    def lost(self) -> bool:
        """Fewer documents than rows: a recovery cut short left some rows out of the index."""
        return self.rows is not None and self.documents < (1 - DRIFT) * self.rows

    @property
    def broken(self) -> bool:
        """To be rebuilt: its count drifted, it lost documents, or it could not be read."""
        return self.unreadable or self.drifted or self.lost

    @property
    def why(self) -> str:
        if self.unreadable:
            return (
                "its recovery after a restart met a deleted row whose text VACUUM had removed"
                " (pg_textsearch 1.0)"
            )
        if self.lost:
            return (
                f"it holds {self.documents} documents for {self.rows} rows (a recovery after a"
                " restart cut short, pg_textsearch 1.0)"
            )
        return (
            f"it counts {self.total_docs} documents but holds {self.documents}"
            " (pg_textsearch 1.0 loses count at VACUUM)"
        )


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


def counts(conn: Conn, rows: bool = False) -> list[IndexCount]:
    """Each present BM25 index's counts (a Database connection, autocommit: rows as dicts);
    with `rows`, its table's rows too (a count of each table, by an index only: 5 ms for 100k
    turns, 51 ms cold). An index whose first read fails on a vacuumed row is `unreadable`."""
    out = []
    for name in present(conn):
        try:
            row = conn.execute("SELECT bm25_summarize_index(%s) AS s", (name,)).fetchone()
        except psycopg.errors.DataCorrupted:
            out.append(IndexCount(name, 0, 0, unreadable=True))
            continue
        count = parse_summary(name, one(row, "bm25_summarize_index")["s"])
        if rows:
            # Every row has text to index (each column is computed from a required one), so
            # the table's count, which its primary key answers without reading the rows.
            n = conn.execute(
                sql.SQL("SELECT count(*) AS n FROM {}").format(sql.Identifier(INDEXED[name]))
            ).fetchone()
            count = IndexCount(name, count.total_docs, count.documents, one(n, "count")["n"])
        out.append(count)
    return out


def repair(conn: Conn, log: Callable[[str], None] = lambda _: None) -> list[str]:
    """Rebuild each present BM25 index that is `broken` (an autocommit connection, rows as
    dicts), one process at a time; returns the names rebuilt (none when another process holds
    the lock: it is checking them)."""
    rebuilt: list[str] = []
    if not try_lock(conn):
        log("BM25 indexes: another process is checking them; not waited for")
        return rebuilt
    try:
        for count in counts(conn, rows=True):
            if not count.broken:
                continue
            log(
                f"BM25 index {count.name}: {count.why}; rebuilding it concurrently (search and"
                " writes go on)"
            )
            seconds = rebuild(conn, count.name)
            log(f"BM25 index {count.name}: rebuilt in {seconds:.1f} s")
            rebuilt.append(count.name)
    finally:
        unlock(conn)
    return rebuilt


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
