"""Candidate generation in Postgres: per kind of record, the records matching a word of the
query (with their BM25) and the nearest by cosine. Ranking lives in core/ranking.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memory_pipelines.store.db import Conn
from memory_pipelines.store.visibility import VISIBLE_CHATS

# The question's lexemes ORed: plainto_tsquery would AND them and match almost nothing.
OR_QUERY = (
    "(SELECT coalesce(string_agg(quote_literal(l), ' | '), '')::tsquery"
    " FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS l)"
)


def _consumes(job: str) -> str:
    """SQL: whether ranking consumes a gated job's fields. By default (%(consume)s NULL) only
    while job_activations says the job is active for the store; an evaluation passes the list
    of jobs to measure with and without them. `job` is a fixed name from this module."""
    return (
        f"(CASE WHEN %(consume)s::text[] IS NULL THEN EXISTS (SELECT 1 FROM job_activations ja"
        f" WHERE ja.store_id = %(store)s AND ja.job = '{job}' AND ja.active)"
        f" ELSE '{job}' = ANY(%(consume)s::text[]) END)"
    )


# Per kind: table, id column, the store's visibility filter. Items are filtered by person:
# a person's records reach only that person's recalls; shared (NULL) ones reach everybody.
# Reflection's insights are recorded before they are consumed: found only once it is active.
_KINDS: dict[str, tuple[str, str, str]] = {
    "item": (
        "agent_memory_items",
        "item_id",
        "state = 'current' AND (person_id IS NULL OR person_id = %(person)s)"
        f" AND (category <> 'insight' OR {_consumes('reflection')})",
    ),
    "turn": ("turns", "turn_id", f"embedding IS NOT NULL AND chat_id IN ({VISIBLE_CHATS})"),
    "chunk": ("chunks", "chunk_id", f"chat_id IN ({VISIBLE_CHATS})"),
    "document": (
        "documents",
        "passage_id",
        "kind = 'basic' AND (person_id IS NULL OR person_id = %(person)s)",
    ),
    "email": (
        "documents",
        "passage_id",
        "kind = 'email' AND (person_id IS NULL OR person_id = %(person)s)",
    ),
}


# How many entities of the question a record names (the knowledge graph's signal).
_NAMED = {
    "item": "cardinality(ARRAY(SELECT unnest(entities)"
    " INTERSECT SELECT unnest(%(names)s::text[])))",
    "turn": "(speaker = ANY(%(names)s::text[]))::int",
}


def _asks(column: str) -> str:
    """SQL: whether a text asks rather than tells: it ends with a question mark, but for a
    trailing attachment in brackets (an image caption, "[image: ...]")."""
    return rf"({column} ~ '\?\s*(\[[^]]*\]\s*)?$')"


# Turns further apart than this are not one exchange: a turn's context is its neighbours
# (seq - 1, seq + 1) in the same chat written within this time of it.
SESSION_GAP = "6 hours"


def _neighbour_cos(fn: str, step: str) -> str:
    """SQL (over the turns' pool): the cosine of the turn before (lag) or after (lead) this
    one, 0 when there is none in the same session."""
    w = "OVER (PARTITION BY chat_id ORDER BY seq)"
    return (
        f"coalesce(CASE WHEN {fn}(seq) {w} = seq {step} 1"
        f" AND {fn}(created_at) {w} BETWEEN created_at - interval '{SESSION_GAP}'"
        f" AND created_at + interval '{SESSION_GAP}' THEN {fn}(cos) {w} END, 0)"
    )


# Ranking fields beyond lexical, cosine and named. Items: confidence, valid_from and decay
# salience (recorded whenever decay runs, and consumed only while decay is active for the
# store). Items and turns: whether they ask. Turns: the summed cosine of their neighbours in
# the same session, their context (see core/ranking.py).
_EXTRA = {
    "item": ", confidence, valid_from AS at,"
    f" CASE WHEN {_consumes('decay')} THEN (SELECT salience FROM item_scores sc"
    " WHERE sc.item_id = agent_memory_items.item_id) END AS salience,"
    f" {_asks('context')} AS asks",
    "turn": f", chat_id, seq, created_at, {_asks('text')} AS asks",
}
# Fields computed over the whole pool, once each record's cosine is known.
_OVER_POOL = {
    "turn": f", {_neighbour_cos('lag', '-')} + {_neighbour_cos('lead', '+')} AS context",
}


def entity_names(conn: Conn, store_id: str, words: Sequence[str]) -> list[str]:
    """Which of the words name a speaker of the store or an entity of its current items."""
    if not words:
        return []
    rows = conn.execute(
        "SELECT w FROM unnest(%(w)s::text[]) AS w WHERE EXISTS (SELECT 1 FROM turns"
        "   WHERE store_id = %(s)s AND lower(speaker) = lower(w))"
        " OR EXISTS (SELECT 1 FROM agent_memory_items WHERE store_id = %(s)s"
        "   AND state = 'current' AND entities @> ARRAY[w])",
        {"w": list(words), "s": store_id},
    )
    return [r["w"] for r in rows]


# BM25 parameters: Anserini's defaults for short documents.
K1 = 0.9
B = 0.4


def hybrid(
    conn: Conn,
    kind: str,
    store_id: str,
    query: str,
    embedding: np.ndarray,
    person: str | None,
    depth: int,
    names: Sequence[str] = (),
    consume: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """(id, lexical, cosine) for the candidates of one kind: every record matching a word of
    the query (scored by BM25, then divided by the best BM25 of this query, so 0..1) plus the
    `depth` nearest by cosine (exact within the store: see 001_base.sql).

    A turn's words include the turn before it at weight B, counting 0.3 (see store/turns.py).
    `names` are entities of the question: items naming them (and turns by such a speaker) are
    candidates too, and each row says how many it names (`named`). Items also bring their
    salience, confidence and valid_from for ranking; items and turns whether they ask (`asks`);
    turns the summed cosine of their neighbours in the same session (`context`). `consume`
    names the gated jobs whose fields (decay salience, reflection insights) to use; None: those
    active for the store.
    """
    table, id_col, visible = _KINDS[kind]
    length = "doc_len" if kind == "turn" else "length(tsv)"
    named, extra, over = _NAMED.get(kind, "0"), _EXTRA.get(kind, ""), _OVER_POOL.get(kind, "")
    # Only small columns travel back: parsing 384 floats per row costs more than the query.
    out = {
        "item": ", p.confidence, p.at, p.salience, p.asks",
        "turn": ", p.asks, p.context",
    }.get(kind, "")
    sql = f"""
    WITH words AS MATERIALIZED (
        SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', %(q)s))),
    q AS MATERIALIZED (
        SELECT coalesce(string_agg(quote_literal(lexeme), ' | '), '')::tsquery AS tsq,
               coalesce(array_agg(lexeme), '{{}}') AS lexemes FROM words),
    pool AS MATERIALIZED (
        SELECT *{over} FROM (
            SELECT {id_col} AS id, tsv, {length} AS dl, 1 - (embedding <=> %(e)s) AS cos,
                   {named} AS named{extra}
              FROM {table} WHERE store_id = %(store)s AND {visible}) AS records),
    stats AS MATERIALIZED (SELECT count(*)::float AS n, greatest(avg(dl), 1) AS avgdl FROM pool),
    matches AS MATERIALIZED (
        SELECT p.id, p.dl, t.lexeme, t.tf
          FROM pool p CROSS JOIN q,
               LATERAL (SELECT u.lexeme, (SELECT sum(CASE w WHEN 'B' THEN 0.3 ELSE 1 END)
                                            FROM unnest(u.weights) AS w) AS tf
                          FROM unnest(p.tsv) AS u
                         WHERE u.lexeme = ANY(q.lexemes)) AS t
         WHERE p.tsv @@ q.tsq),
    df AS MATERIALIZED (SELECT lexeme, count(*)::float AS df FROM matches GROUP BY lexeme),
    lex AS MATERIALIZED (
        SELECT m.id, sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5))
                         * m.tf * ({K1} + 1) / (m.tf + {K1} * (1 - {B} + {B} * m.dl / s.avgdl)))
               AS bm25
          FROM matches m JOIN df USING (lexeme) CROSS JOIN stats s
         GROUP BY m.id),
    near AS (SELECT id FROM pool ORDER BY cos DESC NULLS LAST LIMIT %(depth)s),
    graph AS (SELECT id FROM pool WHERE named > 0 ORDER BY cos DESC NULLS LAST LIMIT %(depth)s),
    scored AS MATERIALIZED (
        SELECT id, max(lexical) AS lexical FROM (
            SELECT id, bm25 / nullif(max(bm25) OVER (), 0) AS lexical FROM lex
            UNION ALL SELECT id, 0 FROM near UNION ALL SELECT id, 0 FROM graph) AS c
         GROUP BY id)
    SELECT p.id, p.named{out}, coalesce(c.lexical, 0) AS lexical, p.cos
      FROM scored c JOIN pool p USING (id)
     WHERE p.cos IS NOT NULL
    """  # noqa: S608 - table and column names come from the closed _KINDS table
    rows = conn.execute(
        sql,
        {
            "q": query,
            "e": embedding,
            "store": store_id,
            "person": person,
            "depth": depth,
            "names": list(names),
            "consume": None if consume is None else list(consume),
        },
    ).fetchall()
    return rows


def fetch_texts(
    conn: Conn, store_id: str, ids_by_kind: dict[str, list[int]], qvec: np.ndarray
) -> dict[tuple[str, int], dict[str, Any]]:
    """Short display fields of hits and their cosine to the query, one query per kind."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    if ids_by_kind.get("item"):
        for r in conn.execute(
            "SELECT item_id AS id, context AS text, category, confidence, valid_from AS at,"
            " chat_id, from_seq, to_seq, person_id, trusted, 1 - (embedding <=> %s) AS cos"
            " FROM agent_memory_items WHERE store_id = %s AND item_id = ANY(%s)",
            (qvec, store_id, ids_by_kind["item"]),
        ):
            out[("item", r["id"])] = dict(r)
    if ids_by_kind.get("turn"):
        for r in conn.execute(
            "SELECT t.turn_id AS id, t.text, t.speaker, t.role, t.created_at AS at, t.chat_id,"
            " t.seq AS from_seq, t.seq AS to_seq, t.external_id, t.trace_ref,"
            " c.external_id AS chat,"
            " 1 - (t.embedding <=> %s) AS cos"
            " FROM turns t JOIN chats c USING (chat_id)"
            " WHERE t.store_id = %s AND t.turn_id = ANY(%s)",
            (qvec, store_id, ids_by_kind["turn"]),
        ):
            out[("turn", r["id"])] = dict(r)
    if ids_by_kind.get("chunk"):
        for r in conn.execute(
            "SELECT chunk_id AS id, summary AS text, level, period_start AS at, chat_id,"
            " from_seq, to_seq, 1 - (embedding <=> %s) AS cos"
            " FROM chunks WHERE store_id = %s AND chunk_id = ANY(%s)",
            (qvec, store_id, ids_by_kind["chunk"]),
        ):
            out[("chunk", r["id"])] = dict(r)
    docs = (ids_by_kind.get("document") or []) + (ids_by_kind.get("email") or [])
    if docs:
        for r in conn.execute(
            "SELECT passage_id AS id, kind, title, text, sender, created_at AS at, external_id,"
            " part, 1 - (embedding <=> %s) AS cos"
            " FROM documents WHERE store_id = %s AND passage_id = ANY(%s)",
            (qvec, store_id, docs),
        ):
            out[("email" if r["kind"] == "email" else "document", r["id"])] = dict(r)
    return out
