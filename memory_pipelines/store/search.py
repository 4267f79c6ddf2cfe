"""Candidate generation in Postgres, from indexes: per kind of record a bounded number of
candidates by meaning (HNSW), by words (BM25) and by the graph (records naming an entity of the
question), then the fields ranking needs, for their union only. Nothing reads every row of a
store. Ranking lives in core/ranking.py.

What the server has decides how (`capabilities`): pgvector 0.8+ scans its HNSW index on until
enough rows of the store pass the filter (hnsw.iterative_scan); with pg_textsearch (migration
010) words are ranked by its BM25 index (Block-Max WAND top-k). Without it, BM25 is computed in
SQL over every row matching a word of the question (the GIN tsvector indexes): the same
candidates and scores as before indexes, slower on large stores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one
from memory_pipelines.store.turns import PREV_WEIGHT
from memory_pipelines.store.visibility import VISIBLE_CHATS

# Database.spare: a second connection when one is free at once, else None.
Spare = Callable[[], AbstractContextManager[Conn | None]]


def _consumes(job: str) -> str:
    """SQL: whether ranking consumes a gated job's fields. By default (%(consume)s NULL) only
    while job_activations says the job is active for the store; an evaluation passes the list
    of jobs to measure with and without them. `job` is a fixed name from this module."""
    return (
        f"(CASE WHEN %(consume)s::text[] IS NULL THEN EXISTS (SELECT 1 FROM job_activations ja"
        f" WHERE ja.store_id = %(store)s AND ja.job = '{job}' AND ja.active)"
        f" ELSE '{job}' = ANY(%(consume)s::text[]) END)"
    )


def _asks(column: str) -> str:
    """SQL: whether a text asks rather than tells: it ends with a question mark, but for a
    trailing attachment in brackets (an image caption, "[image: ...]")."""
    return rf"({column} ~ '\?\s*(\[[^]]*\]\s*)?$')"


@dataclass(frozen=True)
class _Kind:
    table: str
    id: str
    # The store's rows this caller may read. Items: current ones, the person's or shared (a
    # person's records reach only that person's recalls); reflection's insights only once it
    # is active. Turns and chunks: those of the shared chats and the person's own.
    visible: str
    bm25: str  # the BM25 index (migration 012) over `words`
    words: str  # the column it holds
    tsv_length: str  # a row's length for the SQL BM25 (without pg_textsearch)
    named: str = "0"  # how many entities of the question a row names (the graph's signal)
    graph: str = ""  # rows naming one, as a filter; "" for kinds without a graph
    graph_exact: str = ""  # the same, narrowed by an index for the exact scan
    extra: str = ""  # fields for ranking beyond lexical, cosine and named


_KINDS: dict[str, _Kind] = {
    "item": _Kind(
        "agent_memory_items",
        "item_id",
        "state = 'current' AND (person_id IS NULL OR person_id = %(person)s)"
        f" AND (category <> 'insight' OR {_consumes('reflection')})",
        "items_words_bm25",
        "words",
        "length(tsv)",
        named="cardinality(ARRAY(SELECT unnest(r.entities)"
        " INTERSECT SELECT unnest(%(names)s::text[])))",
        graph="entities && %(names)s::text[]",
        graph_exact="entities && %(names)s::text[]",
        # confidence, valid_from and decay salience (recorded whenever decay runs, consumed
        # only while decay is active for the store)
        extra=", r.confidence, r.valid_from AS at,"
        f" CASE WHEN {_consumes('decay')} THEN (SELECT salience FROM item_scores sc"
        " WHERE sc.item_id = r.item_id) END AS salience,"
        f" {_asks('r.context')} AS asks",
    ),
    "turn": _Kind(
        "turns",
        "turn_id",
        f"embedding IS NOT NULL AND chat_id IN ({VISIBLE_CHATS})",
        "turns_words_bm25",
        "words",
        "doc_len",
        # A turn names a person of the question when that person speaks it.
        named="(r.speaker = ANY(%(names)s::text[]))::int",
        graph="speaker = ANY(%(names)s::text[])",
        graph_exact="lower(speaker) = ANY(%(lower_names)s::text[])"
        " AND speaker = ANY(%(names)s::text[])",
        extra=f", {_asks('r.text')} AS asks, r.chat_id, r.seq AS from_seq, r.seq AS to_seq",
    ),
    "chunk": _Kind(
        "chunks",
        "chunk_id",
        f"chat_id IN ({VISIBLE_CHATS})",
        "chunks_summary_bm25",
        "summary",
        "length(tsv)",
        extra=", r.chat_id, r.from_seq, r.to_seq, r.level",
    ),
    "document": _Kind(
        "documents",
        "passage_id",
        "kind = 'basic' AND (person_id IS NULL OR person_id = %(person)s)",
        "documents_words_bm25",
        "words",
        "length(tsv)",
    ),
    "email": _Kind(
        "documents",
        "passage_id",
        "kind = 'email' AND (person_id IS NULL OR person_id = %(person)s)",
        "documents_words_bm25",
        "words",
        "length(tsv)",
    ),
}


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


# BM25 parameters: Anserini's defaults for short documents (the BM25 indexes use the same).
K1 = 0.9
B = 0.4
# Turns further apart than this are not one exchange: a turn's context is its neighbours
# (seq - 1, seq + 1) in the same chat written within this time of it.
SESSION_GAP = "6 hours"
# The HNSW scan's candidate list: at least this many, and at least the depth asked for.
EF_SEARCH = 100
# An HNSW scan with a filter (pgvector 0.8's iterative scan) visits at most this many rows of
# the index (every store's) before it gives up; pgvector's default is 20,000. Each visited row
# is read from the table to test the filter: at a million turns, the nearest turns of a speaker
# with a tenth of them took up to 131 ms to find at the default. A scan that gives up is
# followed by the exact scan (see _nearest). Search p95 at a million turns, the same questions
# in one process: 98 ms at 20,000, 80 at 5,000, 62 at 2,000, 56 at 1,000; the top 10 changed
# for 9 questions in 200 between 2,000 and 1,000. Lower also sends a filter that a few
# percent of the store pass (a person's chats) to the exact scan sooner.
MAX_SCAN_TUPLES = 2000
# Up to this many rows of a kind in a store, words are ranked as before the indexes: BM25 in
# SQL over every row the caller may read that matches a word, with the statistics of those
# rows (the store's own vocabulary: a name in every other turn counts for little). Cheap at
# this size. Past it, pg_textsearch's index ranks them (when the server has it), whose
# statistics are the table's, every store's rows together: on the LoCoMo dev conversations,
# six stores in one table, that cost 0.024 of recall@10 (names common in one store look rare
# in the table), so small stores, where that matters most, keep their own.
EXACT_ROWS = 2000


def _nearest(k: _Kind, name: str, where: str = "", exact_where: str = "") -> str:
    """CTEs: the `depth` visible rows nearest the query among those passing `where`, from the
    HNSW index; when it gives fewer (few such rows among many others, or pgvector < 0.8, which
    stops early), the exact scan over those rows (`exact_where`: the same rows, narrowed by an
    index), which are then few, or the server is old.

    With a `where` (the graph's rows naming an entity of the question), the exact scan runs
    only while those rows of the store number at most MAX_SCAN_TUPLES: more of them, and the
    scan that gave up had visited that many nearer rows without finding enough, so the rest
    are far from the question, and reading them all (100k turns of one speaker at a million)
    would cost seconds."""
    base = f"FROM {k.table} WHERE store_id = %(store)s AND {k.visible}"
    few = ""
    if where:
        few = (
            f" AND (SELECT count(*) FROM (SELECT 1 FROM {k.table} WHERE store_id = %(store)s"
            f" {exact_where or where} LIMIT {MAX_SCAN_TUPLES + 1}) AS f) <= {MAX_SCAN_TUPLES}"
        )
    return f"""
    {name}_idx AS MATERIALIZED (
        SELECT {k.id} AS id {base}{where} ORDER BY embedding <=> %(e)s LIMIT %(depth)s),
    {name} AS MATERIALIZED (
        SELECT id FROM {name}_idx
        UNION (SELECT {k.id} {base}{exact_where or where}
                  AND (SELECT count(*) FROM {name}_idx) < %(depth)s{few}
               ORDER BY (embedding <=> %(e)s) + 0 LIMIT %(depth)s)),"""


def _sql(kind: str, index_words: bool, graph: bool) -> str:
    k = _KINDS[kind]
    base = f"FROM {k.table} WHERE store_id = %(store)s AND {k.visible}"
    ctes = _nearest(k, "near")
    if graph and k.graph:
        ctes += _nearest(k, "graph", f" AND {k.graph}", f" AND {k.graph_exact}")
    if index_words:
        score = f"{k.words} <@> to_bm25query(%(q)s, '{k.bm25}')"
        # The index's top `depth` by BM25, with their scores: selecting the expression the
        # scan is ordered by reads the score the index computed (pg_textsearch's planner
        # hook), where scoring the row again costs tens of microseconds. A filtered BM25 scan
        # re-scores deeper until enough rows pass, up to 100k: a store that small a part of the
        # table falls back to scoring the rows of the store that match a word (the GIN index).
        ctes += f"""
    q AS MATERIALIZED (SELECT ({_OR_QUERY}) AS tsq),
    lex_idx AS MATERIALIZED (
        SELECT {k.id} AS id, {score} AS s {base} ORDER BY {score} LIMIT %(depth)s),
    lex AS MATERIALIZED (
        SELECT id, s FROM lex_idx
        UNION (SELECT {k.id}, ({score}) + 0 {base} AND (SELECT count(*) FROM lex_idx) < %(depth)s
               AND tsv @@ ({_OR_QUERY}) ORDER BY 2 LIMIT %(depth)s)),"""
    else:
        # BM25 in SQL over every visible row matching a word of the query. A turn's words
        # include the turn before it at weight B, counting PREV_WEIGHT (see store/turns.py).
        # A row's counts of the question's words: its tsvector cut down to those words in C
        # (setweight marks them with a weight no column uses, ts_filter keeps them), so only
        # they are unnested; the turn before's share is the same cut of its B positions. 7.1
        # -> 5.1 ms for 409 matching turns against unnesting every word of each row.
        ours = "ts_filter(setweight({}, 'c', q.lexemes), '{{c}}')"
        tf = f"SELECT lexeme, cardinality(positions) AS tf FROM unnest({ours.format('m.tsv')})"
        if kind == "turn":
            before = ours.format("ts_filter(m.tsv, '{b}')")
            tf = (
                f"SELECT lexeme, sum(tf) AS tf FROM ({tf} UNION ALL SELECT lexeme,"
                f" {PREV_WEIGHT - 1} * cardinality(positions) FROM unnest({before})) AS u"
                " GROUP BY lexeme"
            )
        ctes += f"""
    q AS MATERIALIZED (
        SELECT ({_OR_QUERY}) AS tsq, coalesce(array_agg(DISTINCT lexeme), '{{}}') AS lexemes
          FROM unnest(to_tsvector('english', %(q)s))),
    stats AS MATERIALIZED (
        SELECT count(*)::float AS n, greatest(avg({k.tsv_length}), 1) AS avgdl {base}),
    matches AS MATERIALIZED (
        SELECT m.id, m.dl, t.lexeme, t.tf
          FROM (SELECT {k.id} AS id, tsv, {k.tsv_length} AS dl {base}
                   AND tsv @@ (SELECT tsq FROM q)) AS m CROSS JOIN q,
               LATERAL ({tf}) AS t),
    df AS MATERIALIZED (SELECT lexeme, count(*)::float AS df FROM matches GROUP BY lexeme),
    bm25 AS MATERIALIZED (
        SELECT m.id, sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5))
                         * m.tf * ({K1} + 1) / (m.tf + {K1} * (1 - {B} + {B} * m.dl / s.avgdl)))
               AS score
          FROM matches m JOIN df USING (lexeme) CROSS JOIN stats s GROUP BY m.id),
    lex AS MATERIALIZED (SELECT id FROM bm25 ORDER BY score DESC, id LIMIT %(depth)s),"""
    union = "SELECT id FROM near UNION SELECT id FROM lex"
    if graph and k.graph:
        union += " UNION SELECT id FROM graph"
    joins, fields = "", f"{k.named} AS named{k.extra}"
    if kind == "turn":
        # The turn before and after in the same chat: their cosine, when within SESSION_GAP,
        # is the turn's context (core/ranking.py); the words of the turn before count too.
        gap = f"interval '{SESSION_GAP}'"
        joins = (
            " LEFT JOIN turns p ON p.chat_id = r.chat_id AND p.seq = r.seq - 1"
            " LEFT JOIN turns x ON x.chat_id = r.chat_id AND x.seq = r.seq + 1"
        )
        fields += "".join(
            f"{op} coalesce(CASE WHEN {n}.created_at BETWEEN r.created_at - {gap}"
            f" AND r.created_at + {gap} THEN 1 - ({n}.embedding <=> %(e)s) END, 0)"
            for op, n in ((", ", "p"), (" + ", "x"))
        )
        fields += " AS context"
        if index_words:
            # A reply is found by the question it answers: the turn after each match too.
            union += (
                " UNION SELECT x.turn_id FROM lex JOIN turns t ON t.turn_id = lex.id"
                " JOIN turns x ON x.chat_id = t.chat_id AND x.seq = t.seq + 1"
                " WHERE x.embedding IS NOT NULL"
            )
    if index_words:
        # Scored by the index only when the row's tsvector has a word of the question (a
        # test of microseconds; the index's score costs tens): most candidates by meaning
        # share no word with it. A turn's tsvector holds the turn before it too: a superset.
        # Rows of `lex` bring the index's score; the others are scored here.
        q = f"to_bm25query(%(q)s, '{k.bm25}')"

        def bm25(row: str, scored: str) -> str:
            return (
                f"CASE WHEN {scored}.s IS NOT NULL THEN greatest(-{scored}.s, 0)"
                f" WHEN {row}.tsv @@ (SELECT tsq FROM q)"
                f" THEN greatest(-({row}.{k.words} <@> {q}), 0) ELSE 0 END"
            )

        joins += f" LEFT JOIN lex lr ON lr.id = r.{k.id}"
        lexical = bm25("r", "lr")
        if kind == "turn":
            joins += " LEFT JOIN lex lp ON lp.id = p.turn_id"
            lexical += f" + {PREV_WEIGHT} * {bm25('p', 'lp')}"
    else:
        joins += " LEFT JOIN bm25 USING (id)"
        lexical = "coalesce(bm25.score, 0)"
    return f"""
    WITH {ctes.strip().rstrip(",")},
    cands AS ({union}),
    scored AS MATERIALIZED (
        SELECT c.id, {fields}, {lexical} AS bm25, 1 - (r.embedding <=> %(e)s) AS cos
          FROM cands c JOIN {k.table} r ON r.{k.id} = c.id{joins})
    SELECT s.*, coalesce(s.bm25 / nullif(max(s.bm25) OVER (), 0), 0) AS lexical
      FROM scored s WHERE s.cos IS NOT NULL
    """  # noqa: S608 - table and column names come from the closed _KINDS table


# The question's lexemes ORed: plainto_tsquery would AND them and match almost nothing.
_OR_QUERY = (
    "SELECT coalesce(string_agg(quote_literal(l), ' | '), '')::tsquery"
    " FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS l"
)


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
) -> dict[str, list[dict[str, Any]]]:
    """Per kind, (id, lexical, cosine, ...) for its candidates: the `depth` nearest to the
    query by cosine, the `depth` best by BM25 (then divided by the best BM25 of this query, so
    0..1) and, for items and turns, the `depth` nearest among those naming an entity of the
    question (`names`: items with such an entity, turns by such a speaker).

    Each row says how many of the question's entities it names (`named`). Items also bring
    their salience, confidence and valid_from for ranking; items and turns whether they ask
    (`asks`); turns the summed cosine of their neighbours in the same session (`context`).
    A turn's words include the turn before it, counting PREV_WEIGHT. `consume` names the gated
    jobs whose fields (decay salience, reflection insights) to use; None: those active for the
    store.

    Words are ranked by BM25 with the statistics of the rows this caller may read in this
    store, computed in SQL, while the store holds at most `exact_rows` rows of the kind (default
    EXACT_ROWS); in a larger store, on a server with pg_textsearch, by its BM25 index.
    `caps` overrides what the server is found to offer (to measure one path).

    One transaction: one statement sets the scans' settings and counts the store's rows of
    every kind, then one statement per kind that has rows. With `spare` (Database.spare), the
    turns' statement runs on `conn` while the other kinds' run beside it on a second
    connection when one is free at once (two cores serve one search); each kind's rows come
    from one snapshot.
    """
    caps = caps or capabilities(conn)
    exact_rows = EXACT_ROWS if exact_rows is None else exact_rows
    graph = bool(names)
    params = {
        "q": query,
        "e": embedding,
        "store": store_id,
        "person": person,
        "depth": depth,
        "names": list(names),
        "lower_names": [n.lower() for n in names],
        "consume": None if consume is None else list(consume),
    }
    tables = sorted({_KINDS[kind].table for kind in kinds})
    # LOCAL: for these queries only. relaxed_order: the candidates are ranked afterwards
    # (pgvector < 0.8 has no such setting and reserves the hnsw. prefix: not asked there).
    # No parallel workers: every query here reads a bounded number of rows, and starting
    # workers (for an exact fallback the planner costs as large, even when it never runs)
    # took longer than the query. No JIT: a server built with LLVM (the embedded one is not)
    # compiles a query whose estimated cost passes jit_above_cost, as a million-row store's
    # can, which takes tens of milliseconds to save microseconds on bounded rows.
    settings = (
        "set_config('hnsw.ef_search', %(ef)s, true),"
        " set_config('max_parallel_workers_per_gather', '0', true),"
        " set_config('jit', 'off', true)"
    )
    if caps.iterative_scan:
        settings += (
            ", set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            f" set_config('hnsw.max_scan_tuples', '{MAX_SCAN_TUPLES}', true)"
        )
    counts = "".join(
        f", (SELECT count(*) FROM (SELECT 1 FROM {table} WHERE store_id = %(store)s"
        f" LIMIT %(over)s) AS s) AS {table}"
        for table in tables
    )
    ef = {"ef": str(max(EF_SEARCH, depth))}
    with conn.transaction():
        row = conn.execute(
            f"SELECT {settings}{counts}",
            {**ef, "store": store_id, "over": exact_rows + 1},
        ).fetchone()
        row = one(row, "counting a store's records")
        # Never a generic plan: whether an index or the store's rows serve best depends on the
        # store (its share of the table); forced generic plans (no planning, ~2 ms a
        # statement) scanned a million turns exactly.
        todo = [
            (kind, _sql(kind, caps.bm25 and n > exact_rows, graph))
            for kind in sorted(kinds, key=lambda kind: kind != "turn")  # the costliest first
            if (n := row[_KINDS[kind].table])  # 0: the store has no record of this kind
        ]
        out: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
        side = None
        if spare is not None and len(todo) > 1:
            side = _SIDE.submit(_beside, spare, todo[1:], settings, ef, params)
        try:
            for kind, sql in todo[: 1 if side else None]:
                out[kind] = conn.execute(sql, params, prepare=False).fetchall()
        finally:
            found = side.result() if side else {}
        if side and found is None:  # no connection was free: this one does the rest
            found = {
                kind: conn.execute(sql, params, prepare=False).fetchall() for kind, sql in todo[1:]
            }
        out.update(found or {})
    return out


# Threads running the statements of other kinds beside the caller's (one search at a time
# needs one; a pool of them serves concurrent searches, each on a connection of its own).
_SIDE = ThreadPoolExecutor(max_workers=8, thread_name_prefix="search-beside")


def _beside(
    spare: Spare,
    todo: list[tuple[str, str]],
    settings: str,
    ef: dict[str, str],
    params: dict[str, Any],
) -> dict[str, list[dict[str, Any]]] | None:
    """The statements of `todo` on a spare connection, with the same settings, in a
    transaction of their own; None when no connection is free (nothing was run)."""
    with spare() as conn:
        if conn is None:
            return None
        with conn.transaction():
            conn.execute(f"SELECT {settings}", ef)
            return {kind: conn.execute(sql, params, prepare=False).fetchall() for kind, sql in todo}
