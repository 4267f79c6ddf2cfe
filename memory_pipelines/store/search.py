"""Candidate generation in Postgres, from indexes: per kind of record a bounded number of
candidates by meaning (HNSW), by words (BM25) and by the graph (records naming an entity of the
question), then the fields ranking needs, for their union only. Nothing reads every row of a
store. Ranking lives in core/ranking.py.

What the server has decides how (`capabilities`): pgvector 0.8+ scans its HNSW index on until
enough rows of the store pass the filter (hnsw.iterative_scan); with pg_textsearch (migration
012) words are ranked by its BM25 index (Block-Max WAND top-k). Without it, BM25 is computed in
SQL over every row matching a word of the question (the GIN tsvector indexes): the same
candidates and scores as before indexes, slower on large stores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from memory_pipelines.core.question_times import SAYS_WHEN_SQL, SAYS_WHEN_WORDS
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one
from memory_pipelines.store.search_sql import KINDS, MAX_SCAN_TUPLES, statement, words_statement

# Database.spare: a second connection when one is free at once, else None.
Spare = Callable[[], AbstractContextManager[Conn | None]]
T = TypeVar("T")


@dataclass(frozen=True)
class Capabilities:
    iterative_scan: bool  # pgvector 0.8+: an HNSW scan goes on until enough rows pass filters
    bm25: bool  # pg_textsearch and migration 012's BM25 indexes


_capabilities: dict[str, Capabilities] = {}


def capabilities(conn: Conn) -> Capabilities:
    """What this server offers search, read once per database."""
    # libpq's own fields: conn.info.dsn parses every parameter again on each call
    key = f"{conn.pgconn.host!r} {conn.pgconn.port!r} {conn.pgconn.db!r}"
    if key not in _capabilities:
        row = conn.execute(
            "SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector,"
            " EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'turns_words_bm25') AS bm25"
        ).fetchone()
        row = one(row, "reading the server's capabilities")
        version = tuple(int(p) for p in str(row["vector"] or "0").split(".")[:2] if p.isdigit())
        _capabilities[key] = Capabilities(version >= (0, 8), bool(row["bm25"]))
    return _capabilities[key]


# The HNSW scan's candidate list: at least this many, and at least the depth asked for.
EF_SEARCH = 100
# Up to this many rows of a kind in a store, words are ranked as before the indexes: BM25 in
# SQL over every row the caller may read that matches a word, with the statistics of those
# rows (the store's own vocabulary: a name in every other turn counts for little). Cheap at
# this size. Past it, pg_textsearch's index finds the rows (when the server has it), and the
# candidates' words are ranked in SQL with the candidates' own statistics (search_sql._bm25):
# on the LoCoMo dev conversations forced onto the index, recall@10 0.8051 against 0.8072 here.
EXACT_ROWS = 2000


@dataclass(frozen=True)
class Words:
    """A question's candidates by words, found before its vector (`words`): how many rows of
    each kind the caller may read (counted up to exact_rows + 1) and, per kind ranked by its
    BM25 index, the ids of the index's top rows. Kinds not in `indexed` rank words in SQL, in
    the candidates' own statement."""

    rows: dict[str, int]
    indexed: dict[str, list[int]]


def words(
    conn: Conn,
    kinds: Sequence[str],
    store_id: str,
    query: str,
    person: str | None,
    depth: int,
    consume: Sequence[str] | None = None,
    caps: Capabilities | None = None,
    exact_rows: int | None = None,
) -> Words:
    """What `candidates` needs before the query's vector: the rows of each kind the caller
    may read and the BM25 index's candidates of each kind it ranks (more than `exact_rows` of
    them, default EXACT_ROWS, and the server has pg_textsearch). Recall.search runs it on a
    spare connection while the query is embedded: at a million turns the index's top rows take
    5-15 ms, about the embedding's time. One transaction, sent as two round trips (the count,
    then the statements).

    The count is of the rows the caller may read, never the store's: how a search ranks words
    (and so its scores) changes at exact_rows, and a count of every person's rows would let a
    key limited to one person, writing rows one by one, learn exactly how many another person
    holds."""
    caps = caps or capabilities(conn)
    exact_rows = EXACT_ROWS if exact_rows is None else exact_rows
    params = _params(store_id, query, None, person, depth, (), consume)
    counts = ", ".join(
        f"(SELECT count(*) FROM (SELECT 1 FROM {KINDS[kind].table} WHERE store_id = %(store)s"
        f" AND {KINDS[kind].visible} LIMIT %(over)s) AS s) AS {kind}"
        for kind in sorted(set(kinds))
    )
    with conn.pipeline(), conn.transaction():
        row = conn.execute(
            f"SELECT {scan_settings(caps)}, {counts}", {**params, "over": exact_rows + 1}
        ).fetchone()
        row = one(row, "counting a store's records")
        rows = {kind: int(row[kind]) for kind in set(kinds)}
        sent = {
            kind: conn.execute(words_statement(kind), params, prepare=True)
            for kind in kinds
            if caps.bm25 and rows[kind] > exact_rows
        }
    indexed = {}
    for kind, cur in sent.items():
        found = cur.fetchall()
        indexed[kind] = [int(r["id"]) for r in found]
    return Words(rows, indexed)


def candidates(
    conn: Conn,
    kinds: Sequence[str],
    store_id: str,
    query: str,
    embedding: np.ndarray,
    person: str | None,
    depth: int,
    names: Sequence[str] = (),
    consume: Sequence[str] | None = None,
    caps: Capabilities | None = None,
    exact_rows: int | None = None,
    spare: Spare | None = None,
    found_words: Words | None = None,
    windows: Sequence[tuple[datetime, datetime]] = (),
    asks_when: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """Per kind, (id, lexical, cosine, ...) for its candidates: the `depth` nearest to the
    query by cosine, the `depth` best by BM25 (then divided by the best BM25 of this query, so
    0..1) and, for items and turns, the `depth` nearest among those naming an entity of the
    question (`names`: items with such an entity, turns by such a speaker) and, when the
    question names times (`windows`, question_times.question_windows), the `depth` nearest dated
    from the first's start to the last's end (items by valid_from, turns when said): a day's
    turns in a big store are seldom among its nearest. For a question that `asks_when`, items
    and turns say whether their text says when (`says_when`, core/question_times.SAYS_WHEN_SQL).

    Each row says how many of the question's entities it names (`named`). Items also bring
    their salience, confidence and valid_from for ranking; items and turns whether they ask
    (`asks`); turns the summed cosine of their neighbours in the same session (`context`).
    A turn's words include the turn before it, counting PREV_WEIGHT. `consume` names the gated
    jobs whose fields (decay salience, reflection insights) to use; None: those active for the
    store.

    Words are ranked by BM25 with the statistics of the rows this caller may read in this
    store, computed in SQL, while the store holds at most `exact_rows` rows of the kind (default
    EXACT_ROWS); in a larger store, on a server with pg_textsearch, its BM25 index finds rows
    (`words`: `found_words` when the caller found them already, beside the embedding, with the
    same arguments) and all candidates are ranked with the candidates' statistics. `caps`
    overrides what the server is found to offer (to measure one path).

    One statement per kind that has rows, in one transaction, pipelined (one round trip),
    after `words`' own transaction when `found_words` is not given. With
    `spare` (Database.spare), the turns' statement runs on `conn` while the other kinds' run
    beside it on a second connection when one is free at once (two cores serve one search);
    each kind's rows come from one snapshot.
    """
    caps = caps or capabilities(conn)
    exact_rows = EXACT_ROWS if exact_rows is None else exact_rows
    if found_words is None:
        found_words = words(conn, kinds, store_id, query, person, depth, consume, caps, exact_rows)
    graph = bool(names)
    params = _params(store_id, query, embedding, person, depth, names, consume, windows, asks_when)
    todo = [
        (
            kind,
            statement(
                kind,
                kind in found_words.indexed,
                graph,
                bool(windows),
                small=found_words.rows[kind] <= exact_rows,
            ),
            _lex(found_words, kind),
        )
        for kind in sorted(kinds, key=lambda kind: kind != "turn")  # the costliest first
        if found_words.rows[kind]  # 0: the caller may read no record of this kind
    ]
    out: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
    side = None
    if spare is not None and len(todo) > 1:
        side = beside(spare, lambda c: _statements(c, todo[1:], caps, params))
    try:
        mine = _statements(conn, todo[: 1 if side else None], caps, params)
    finally:
        found = side.result() if side else {}
    if side and found is None:  # no connection was free: this one does the rest
        found = _statements(conn, todo[1:], caps, params)
    out.update(mine)
    out.update(found or {})
    return out


def _params(
    store_id: str,
    query: str,
    embedding: np.ndarray | None,
    person: str | None,
    depth: int,
    names: Sequence[str],
    consume: Sequence[str] | None,
    windows: Sequence[tuple[datetime, datetime]] = (),
    asks_when: bool = False,
) -> dict[str, Any]:
    """A search's statements' parameters (see candidates)."""
    return {
        "q": query,
        "e": embedding,
        "store": store_id,
        "person": person,
        "depth": depth,
        "ef": str(max(EF_SEARCH, depth)),
        "names": list(names),
        "lower_names": [n.lower() for n in names],
        "consume": None if consume is None else list(consume),
        "t0": min((start for start, _ in windows), default=None),
        "t1": max((end for _, end in windows), default=None),
        "when": asks_when,
        "when_rx": SAYS_WHEN_SQL,
        "when_words": [f"%{w}%" for w in SAYS_WHEN_WORDS],
    }


def _lex(found_words: Words, kind: str) -> dict[str, Any]:
    """A kind's candidates by words from the index, as its statement's parameters."""
    return {"lex_id": found_words.indexed.get(kind, [])}


def scan_settings(caps: Capabilities) -> str:
    """The settings of a search's statements, as a select list of set_config calls (LOCAL:
    for the transaction's statements only); %(ef)s is the HNSW scan's candidate list.

    relaxed_order: the candidates are ranked afterwards (pgvector < 0.8 has no such setting and
    reserves the hnsw. prefix: not asked there). No parallel workers: every query here reads a
    bounded number of rows, and starting workers (for an exact fallback the planner costs as
    large, even when it never runs) took longer than the query. No JIT: a server built with
    LLVM (the embedded one is not) compiles a query whose estimated cost passes
    jit_above_cost, as a million-row store's can, which takes tens of milliseconds to save
    microseconds on bounded rows.

    Never a generic plan: whether an index or the store's rows serve best depends on the store
    (its share of the table); forced generic plans (no planning, ~2 ms a statement) scanned a
    million turns exactly. The statements are prepared all the same, each once a connection
    (parsed and analysed once: 0.55 ms less a statement at 100k turns), and planned on every
    run for its values (force_custom_plan), as an unprepared one is.

    No merge joins: in a small table (a new install's few stores, the LoCoMo evaluation's six)
    the planner joined a store's turns to its chats by walking every turn of the table in chat
    order, each store's search reading all the others' rows (LoCoMo dev, 3,435 turns in six
    stores: the turns' statement 28 -> 13 ms at p50, the same rows). Every join here takes a
    bounded number of rows, which nested loops over the indexes serve; at 100k turns in one
    store the rows and times were unchanged."""
    settings = (
        "set_config('hnsw.ef_search', %(ef)s, true),"
        " set_config('max_parallel_workers_per_gather', '0', true),"
        " set_config('jit', 'off', true),"
        " set_config('plan_cache_mode', 'force_custom_plan', true),"
        " set_config('enable_mergejoin', 'off', true)"
    )
    if caps.iterative_scan:
        settings += (
            ", set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            f" set_config('hnsw.max_scan_tuples', '{MAX_SCAN_TUPLES}', true)"
        )
    return settings


# Threads doing a search's work beside the caller's, each on a spare connection: the other
# kinds' statements, the question's entity names while its query is embedded (one search needs
# one at a time; a pool of them serves concurrent searches).
_SIDE = ThreadPoolExecutor(max_workers=8, thread_name_prefix="search-beside")


def beside(spare: Spare, work: Callable[[Conn], T]) -> Future[T | None]:
    """`work(conn)` in a thread on a spare connection (Database.spare); the result is None
    when no connection was free at once (nothing was run: the caller does the work itself)."""

    def run() -> T | None:
        with spare() as conn:
            return None if conn is None else work(conn)

    return _SIDE.submit(run)


def _statements(
    conn: Conn,
    todo: list[tuple[str, str, dict[str, Any]]],
    caps: Capabilities,
    params: dict[str, Any],
) -> dict[str, list[dict[str, Any]]]:
    """The statements of `todo` (kind, SQL, its own parameters) with the scans' settings, in a
    transaction of their own (sent together: one round trip)."""
    with conn.pipeline(), conn.transaction():
        conn.execute(f"SELECT {scan_settings(caps)}", params)
        sent = {kind: conn.execute(sql, {**params, **own}, prepare=True) for kind, sql, own in todo}
    return {kind: cur.fetchall() for kind, cur in sent.items()}
