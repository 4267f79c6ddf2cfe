"""The chunks table: nodes of the history pyramid, their children, and the contiguity check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from memory_pipelines.core.pyramid import MAX_LEVEL, StoredChunk, contiguity_problems
from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn


@dataclass(frozen=True)
class ChatPyramid:
    chat_id: int
    external_id: str
    turns: int  # the chat's last turn seq (seqs are dense from 1)
    built: dict[int, int]  # level -> chunks built (seqs are dense from 1)


@dataclass(frozen=True)
class NewChunk:
    chat_id: int
    level: int
    seq: int
    from_seq: int
    to_seq: int
    summary: str
    period_start: datetime
    period_end: datetime
    children: Sequence[int]
    model: str
    embedding: np.ndarray


def pyramid_states(conn: Conn, store_id: str, chat_id: int | None = None) -> list[ChatPyramid]:
    """Each chat's turn count and chunks per level, from index probes only (last seq of the
    turns, last seq per level), so the cost follows the number of chats, not their length."""
    rows = conn.execute(
        "SELECT c.chat_id, c.external_id,"
        " coalesce((SELECT max(t.seq) FROM turns t WHERE t.chat_id = c.chat_id), 0) AS turns,"
        " ARRAY(SELECT coalesce((SELECT max(k.seq) FROM chunks k"
        "   WHERE k.chat_id = c.chat_id AND k.level = l), 0)"
        "   FROM generate_series(1, %s) AS l ORDER BY l) AS built"
        " FROM chats c WHERE c.store_id = %s AND (%s::bigint IS NULL OR c.chat_id = %s)"
        " ORDER BY c.chat_id",
        (MAX_LEVEL, store_id, chat_id, chat_id),
    ).fetchall()
    return [
        ChatPyramid(
            int(r["chat_id"]),
            r["external_id"],
            int(r["turns"]),
            {lv: int(n) for lv, n in enumerate(r["built"], start=1) if n},
        )
        for r in rows
    ]


def _numpy(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # pgvector hands back Vector objects; callers stack numpy arrays (None: not embedded yet).
    for r in rows:
        if r.get("embedding") is not None:
            r["embedding"] = np.asarray(r["embedding"].to_numpy(), dtype=np.float32)
    return rows


def turns_between(
    conn: Conn, chat_id: int, first: int, last: int, *, embedding: bool = False
) -> list[dict[str, Any]]:
    """Turns first..last of a chat in seq order (with their stored embeddings if asked)."""
    emb = ", embedding" if embedding else ""
    rows = conn.execute(
        "SELECT turn_id, seq, role, speaker, text, created_at, trace_ref" + emb + " FROM turns"
        " WHERE chat_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
        (chat_id, first, last),
    ).fetchall()
    return _numpy(rows)


def chunks_between(
    conn: Conn, chat_id: int, level: int, first: int, last: int, *, embedding: bool = False
) -> list[dict[str, Any]]:
    """Chunks first..last of one level of a chat in seq order (embeddings if asked)."""
    emb = ", embedding" if embedding else ""
    rows = conn.execute(
        "SELECT chunk_id, level, seq, from_seq, to_seq, summary, period_start, period_end,"
        " units_covered, children" + emb + " FROM chunks"
        " WHERE chat_id = %s AND level = %s AND seq BETWEEN %s AND %s ORDER BY seq",
        (chat_id, level, first, last),
    ).fetchall()
    return _numpy(rows)


def insert_chunks(conn: Conn, store_id: str, chunks: Sequence[NewChunk]) -> int:
    """Write chunks (call inside the batch's transaction); one already there is left as it is,
    so a re-run or a concurrent run adds nothing twice. Returns how many were new."""
    new = 0
    for c in chunks:
        row = conn.execute(
            "INSERT INTO chunks (store_id, chat_id, level, seq, from_seq, to_seq, summary,"
            " period_start, period_end, units_covered, children, model, embedding)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (chat_id, level, seq) DO NOTHING RETURNING chunk_id",
            (
                store_id,
                c.chat_id,
                c.level,
                c.seq,
                c.from_seq,
                c.to_seq,
                c.summary,
                c.period_start,
                c.period_end,
                len(c.children),
                list(c.children),
                c.model,
                c.embedding,
            ),
        ).fetchone()
        new += row is not None
    return new


def level_totals(conn: Conn, store_id: str) -> dict[int, int]:
    """Chunks per level in the store."""
    rows = conn.execute(
        "SELECT level, count(*) AS n FROM chunks WHERE store_id = %s GROUP BY level",
        (store_id,),
    ).fetchall()
    return {int(r["level"]): int(r["n"]) for r in rows}


def stored_chunks(conn: Conn, store_id: str) -> list[StoredChunk]:
    """Every chunk of the store with what the store holds in its span one level down."""
    rows = conn.execute(
        "SELECT k.chat_id, k.level, k.seq, k.from_seq, k.to_seq, k.units_covered, k.children,"
        " CASE WHEN k.level = 1 THEN ARRAY(SELECT t.turn_id FROM turns t"
        "   WHERE t.chat_id = k.chat_id AND t.seq BETWEEN k.from_seq AND k.to_seq ORDER BY t.seq)"
        " ELSE ARRAY(SELECT c.chunk_id FROM chunks c WHERE c.chat_id = k.chat_id"
        "   AND c.level = k.level - 1 AND c.from_seq >= k.from_seq AND c.to_seq <= k.to_seq"
        "   ORDER BY c.seq) END AS covered"
        " FROM chunks k WHERE k.store_id = %s",
        (store_id,),
    ).fetchall()
    return [
        StoredChunk(
            chat_id=int(r["chat_id"]),
            level=int(r["level"]),
            seq=int(r["seq"]),
            from_seq=int(r["from_seq"]),
            to_seq=int(r["to_seq"]),
            units_covered=int(r["units_covered"]),
            children=[int(x) for x in r["children"]],
            covered=[int(x) for x in r["covered"]],
        )
        for r in rows
    ]


def check_contiguity(conn: Conn, store_id: str) -> list[str]:
    """The `pyramid_contiguous` check: every broken invariant of the store's pyramid."""
    return contiguity_problems(stored_chunks(conn, store_id))


def children_of(conn: Conn, chunk_id: int, store_id: str | None = None) -> list[dict[str, Any]]:
    """What a chunk stands for, in order: its child chunks, or its raw turns for level 1. Each
    row has `kind` ("chunk" or "turn"), so drill-down can go on until it reaches turns."""
    row = conn.execute(
        "SELECT chunk_id, chat_id, level, children FROM chunks WHERE chunk_id = %s"
        " AND (%s::text IS NULL OR store_id = %s)",
        (chunk_id, store_id, store_id),
    ).fetchone()
    if row is None:
        where = f" in store {store_id!r}" if store_id else ""
        raise NotFound(f"chunk {chunk_id} does not exist{where}")
    if row["level"] == 1:
        sql = (
            "SELECT 'turn' AS kind, turn_id AS id, 0 AS level, seq AS from_seq, seq AS to_seq,"
            " speaker, role, text, created_at AS period_start, created_at AS period_end"
            " FROM turns WHERE turn_id = ANY(%s) ORDER BY seq"
        )
    else:
        sql = (
            "SELECT 'chunk' AS kind, chunk_id AS id, level, from_seq, to_seq, '' AS speaker,"
            " '' AS role, summary AS text, period_start, period_end"
            " FROM chunks WHERE chunk_id = ANY(%s) ORDER BY seq"
        )
    return conn.execute(sql, (list(row["children"]),)).fetchall()
