"""The chunks table: nodes of the history pyramid, their children, and the contiguity check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from psycopg import sql

from memory_pipelines.core.pyramid import BRANCH, MAX_LEVEL, StoredChunk, contiguity_problems
from memory_pipelines.core.types import Chunk, Turn
from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import columns, fetch_all, with_vector
from memory_pipelines.store.turns import turns_by_ids


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


def rollup_owed(conn: Conn, store_ids: Sequence[str]) -> dict[str, int]:
    """Chunks each of the given stores still owes its pyramid (complete batches not built), for
    the stores owing any: one query over their chats, an index probe per chat and level that
    its turn count reaches, so a store with nothing to build costs a few probes per chat."""
    rows = conn.execute(
        "SELECT c.store_id, sum(greatest(0, t.turns / (%s ^ l)::bigint - coalesce(("
        "   SELECT max(k.seq) FROM chunks k WHERE k.chat_id = c.chat_id AND k.level = l), 0)))"
        "   AS owed"
        " FROM chats c"
        " CROSS JOIN LATERAL (SELECT coalesce(max(seq), 0) AS turns FROM turns"
        "   WHERE chat_id = c.chat_id) t"
        " CROSS JOIN generate_series(1, %s) AS l"
        " WHERE c.store_id = ANY(%s) AND t.turns >= (%s ^ l)::bigint"
        " GROUP BY c.store_id",
        (BRANCH, MAX_LEVEL, list(store_ids), BRANCH),
    ).fetchall()
    return {r["store_id"]: int(r["owed"]) for r in rows if int(r["owed"]) > 0}


CHUNK_COLUMNS = columns(Chunk)
_BETWEEN = sql.SQL(
    "SELECT {}{} FROM chunks WHERE chat_id = %s AND level = %s AND seq BETWEEN %s AND %s"
    " ORDER BY seq"
)


def chunks_between(conn: Conn, chat_id: int, level: int, first: int, last: int) -> list[Chunk]:
    """Chunks first..last of one level of a chat in seq order."""
    return fetch_all(
        conn, Chunk, _BETWEEN.format(CHUNK_COLUMNS, sql.SQL("")), (chat_id, level, first, last)
    )


def chunks_with_vectors(
    conn: Conn, chat_id: int, level: int, first: int, last: int
) -> list[tuple[Chunk, np.ndarray | None]]:
    """Chunks first..last of one level of a chat in seq order, each with its embedding."""
    rows = conn.execute(
        _BETWEEN.format(CHUNK_COLUMNS, sql.SQL(", embedding AS vector")),
        (chat_id, level, first, last),
    ).fetchall()
    return [with_vector(Chunk, r) for r in rows]


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


def children_of(conn: Conn, chunk_id: int, store_id: str | None = None) -> list[Turn | Chunk]:
    """What a chunk stands for, in order: its child chunks, or its raw turns for level 1, so
    drill-down can go on until it reaches turns."""
    row = conn.execute(
        "SELECT level, children FROM chunks WHERE chunk_id = %s"
        " AND (%s::text IS NULL OR store_id = %s)",
        (chunk_id, store_id, store_id),
    ).fetchone()
    if row is None:
        where = f" in store {store_id!r}" if store_id else ""
        raise NotFound(f"chunk {chunk_id} does not exist{where}")
    if row["level"] == 1:
        return list(turns_by_ids(conn, row["children"]))
    return list(
        fetch_all(
            conn,
            Chunk,
            sql.SQL("SELECT {} FROM chunks WHERE chunk_id = ANY(%s) ORDER BY seq").format(
                CHUNK_COLUMNS
            ),
            (list(row["children"]),),
        )
    )
