"""Candidate generation in Postgres: lexical (full text, OR of the query's lexemes) and vector
(cosine over pgvector) lists per kind of record. Ranking lives in core/ranking.py."""

from __future__ import annotations

from typing import Any

import numpy as np

from memory_pipelines.store.db import Conn

# The question's lexemes ORed: plainto_tsquery would AND them and match almost nothing.
OR_QUERY = (
    "(SELECT coalesce(string_agg(quote_literal(l), ' | '), '')::tsquery"
    " FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS l)"
)

# A person's chats are read only in that person's recalls; shared chats (NULL) by everybody.
VISIBLE_CHATS = (
    "SELECT chat_id FROM chats WHERE store_id = %(store)s"
    " AND (person_id IS NULL OR person_id = %(person)s)"
)

# Per kind: table, id column, the store's visibility filter. Items are filtered by person:
# a person's records reach only that person's recalls; shared (NULL) ones reach everybody.
_KINDS: dict[str, tuple[str, str, str]] = {
    "item": (
        "agent_memory_items",
        "item_id",
        "state = 'current' AND (person_id IS NULL OR person_id = %(person)s)",
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


def lexical(
    conn: Conn, kind: str, store_id: str, query: str, person: str | None, k: int
) -> list[tuple[int, float]]:
    """(id, ts_rank) of the k best lexical matches of one kind."""
    table, id_col, visible = _KINDS[kind]
    sql = (
        f"WITH q AS (SELECT {OR_QUERY} AS tsq)"  # noqa: S608 - names from the closed table above
        f" SELECT {id_col} AS id, ts_rank(tsv, q.tsq) AS score FROM {table}, q"
        f" WHERE store_id = %(store)s AND {visible} AND tsv @@ q.tsq"
        f" ORDER BY score DESC, {id_col} LIMIT %(k)s"
    )
    rows = conn.execute(sql, {"q": query, "store": store_id, "person": person, "k": k})
    return [(int(r["id"]), float(r["score"])) for r in rows]


def vector(
    conn: Conn,
    kind: str,
    store_id: str,
    embedding: np.ndarray,
    person: str | None,
    k: int,
) -> list[tuple[int, float]]:
    """(id, cosine similarity) of the k nearest records of one kind."""
    table, id_col, visible = _KINDS[kind]
    # MATERIALIZED keeps the planner on the store's rows (exact search), see 001_base.sql.
    sql = (
        f"WITH pool AS MATERIALIZED (SELECT {id_col} AS id, embedding FROM {table}"  # noqa: S608
        f"   WHERE store_id = %(store)s AND {visible})"
        " SELECT id, 1 - (embedding <=> %(e)s) AS score FROM pool"
        " ORDER BY embedding <=> %(e)s LIMIT %(k)s"
    )
    rows = conn.execute(sql, {"e": embedding, "store": store_id, "person": person, "k": k})
    return [(int(r["id"]), float(r["score"])) for r in rows]


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
