"""The display fields of search hits: what a search returns for the records it ranked, read
for those ids only (the ranking itself is store/search.py and core/ranking.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from memory_pipelines.store.db import Conn


def fetch_texts(
    conn: Conn, store_id: str, ids_by_kind: dict[str, list[int]], qvec: np.ndarray
) -> dict[tuple[str, int], dict[str, Any]]:
    """Short display fields of hits and their cosine to the query, one query per kind."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    if ids_by_kind.get("item"):
        for r in conn.execute(
            "SELECT item_id AS id, context AS text, category, confidence, status, valid_from AS at,"
            " chat_id, from_seq, to_seq, person_id, trusted, updated_at,"
            " 1 - (embedding <=> %s) AS cos"
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
