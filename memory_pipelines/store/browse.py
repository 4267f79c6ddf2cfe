"""Reads behind recall's other axes: hydrate, by period, neighbours, drill-down.

Every read applies the same visibility as search: memory items only when current and shared or
the caller's person's; turns and chunks only of shared chats or the person's own."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from psycopg import sql

from memory_pipelines.core.types import Chunk, Item, Neighbor, Passage, PeriodRecord, Turn
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import fetch_all
from memory_pipelines.store.visibility import ITEM_VISIBLE as DOC_VISIBLE
from memory_pipelines.store.visibility import VISIBLE_CHATS

# Recall reads current items only (a superseded or archived wording no longer reaches a turn).
ITEM_VISIBLE = f"state = 'current' AND {DOC_VISIBLE}"
_ITEM, _CHATS, _DOC = sql.SQL(ITEM_VISIBLE), sql.SQL(VISIBLE_CHATS), sql.SQL(DOC_VISIBLE)


# The record type of each kind a ref may name (a document's and an email's passages alike).
RECORD_TYPES: dict[str, type[Item | Turn | Chunk | Passage]] = {
    "item": Item,
    "turn": Turn,
    "chunk": Chunk,
    "document": Passage,
    "email": Passage,
}


def hydrate(
    conn: Conn, store_id: str, refs: Sequence[tuple[str, int]], person: str | None
) -> dict[tuple[str, int], Item | Turn | Chunk | Passage]:
    """Full records for (kind, id) refs, in one read (each row as JSON, read into its type)."""
    ids: dict[str, list[int]] = {}
    for kind, rid in refs:
        ids.setdefault(kind, []).append(rid)
    rows = conn.execute(
        sql.SQL(
            """
        SELECT 'item' AS kind, item_id AS id, to_jsonb(i) - 'embedding' - 'tsv' AS record
          FROM agent_memory_items i WHERE store_id = %(store)s AND item_id = ANY(%(item)s)
          AND {item}
        UNION ALL SELECT 'turn', turn_id, to_jsonb(t) - 'embedding' - 'tsv' FROM turns t
          WHERE store_id = %(store)s AND turn_id = ANY(%(turn)s) AND chat_id IN ({chats})
        UNION ALL SELECT 'chunk', chunk_id, to_jsonb(c) - 'embedding' - 'tsv' FROM chunks c
          WHERE store_id = %(store)s AND chunk_id = ANY(%(chunk)s)
          AND chat_id IN ({chats})
        UNION ALL SELECT CASE WHEN kind = 'email' THEN 'email' ELSE 'document' END, passage_id,
          to_jsonb(d) - 'embedding' - 'tsv' FROM documents d WHERE store_id = %(store)s
          AND passage_id = ANY(%(doc)s) AND {doc}
        """
        ).format(item=_ITEM, chats=_CHATS, doc=_DOC),
        {
            "store": store_id,
            "person": person,
            "item": ids.get("item", []),
            "turn": ids.get("turn", []),
            "chunk": ids.get("chunk", []),
            "doc": ids.get("document", []) + ids.get("email", []),
        },
    ).fetchall()
    return {(r["kind"], r["id"]): _record(r["kind"], r["record"]) for r in rows}


def _record(kind: str, row: dict) -> Item | Turn | Chunk | Passage:
    model: type[Item | Turn | Chunk | Passage] = RECORD_TYPES[kind]
    return model.model_validate(row)


def by_period(
    conn: Conn,
    store_id: str,
    start: datetime,
    end: datetime,
    person: str | None,
    limit: int,
    after: tuple[datetime, str, int] | None = None,
) -> list[PeriodRecord]:
    """Items (valid_from), turns (created_at) and chunks (period_start) in [start, end), in
    time order (at, kind, id), the first `limit` after the key `after` (keyset paging)."""
    return fetch_all(
        conn,
        PeriodRecord,
        sql.SQL(
            """
        SELECT * FROM (
          SELECT 'item' AS kind, item_id AS id, valid_from AS at, context AS text,
                 category AS label FROM agent_memory_items
           WHERE store_id = %(store)s AND {item}
             AND valid_from >= %(start)s AND valid_from < %(end)s
          UNION ALL SELECT 'turn', turn_id, created_at, text, speaker FROM turns
           WHERE store_id = %(store)s AND chat_id IN ({chats})
             AND created_at >= %(start)s AND created_at < %(end)s
          UNION ALL SELECT 'chunk', chunk_id, period_start, summary, 'L' || level FROM chunks
           WHERE store_id = %(store)s AND chat_id IN ({chats})
             AND period_start >= %(start)s AND period_start < %(end)s
        ) AS everything
        WHERE %(after_at)s::timestamptz IS NULL
           OR (at, kind, id) > (%(after_at)s, %(after_kind)s::text, %(after_id)s::bigint)
        ORDER BY at, kind, id LIMIT %(limit)s
        """
        ).format(item=_ITEM, chats=_CHATS, doc=_DOC),
        {
            "store": store_id,
            "person": person,
            "start": start,
            "end": end,
            "limit": limit,
            "after_at": after[0] if after else None,
            "after_kind": after[1] if after else None,
            "after_id": after[2] if after else None,
        },
    )


def neighbors(conn: Conn, store_id: str, kind: str, rid: int, person: str | None) -> list[Neighbor]:
    """Links out of the record and back into it, each with the other end's name resolved;
    ends the caller may not read are left out."""
    return fetch_all(
        conn,
        Neighbor,
        sql.SQL(
            """
        WITH edges AS (
          SELECT 'out' AS direction, link_type, dst_kind AS kind, dst_id AS id, confidence
            FROM links WHERE store_id = %(store)s AND src_kind = %(kind)s AND src_id = %(id)s
          UNION ALL
          SELECT 'back', link_type, src_kind, src_id, confidence
            FROM links WHERE store_id = %(store)s AND dst_kind = %(kind)s AND dst_id = %(id)s),
        named AS (
          SELECT e.*, coalesce(i.context,
                   left(coalesce(nullif(t.speaker, '') || ': ', '') || t.text, 200),
                   left(c.summary, 200), coalesce(nullif(ch.title, ''), ch.external_id)) AS name,
                 coalesce(i.valid_from, t.created_at, c.period_start, ch.created_at) AS at,
                 i.state
            FROM edges e
            -- an item of any state: a link to a replaced wording is part of the graph too
            LEFT JOIN agent_memory_items i ON e.kind = 'item' AND i.item_id = e.id
                 AND i.store_id = %(store)s AND {doc}
            LEFT JOIN turns t ON e.kind = 'turn' AND t.turn_id = e.id
                 AND t.chat_id IN ({chats})
            LEFT JOIN chunks c ON e.kind = 'chunk' AND c.chunk_id = e.id
                 AND c.chat_id IN ({chats})
            LEFT JOIN chats ch ON e.kind = 'chat' AND ch.chat_id = e.id
                 AND ch.chat_id IN ({chats}))
        SELECT * FROM named WHERE name IS NOT NULL
         ORDER BY direction DESC, link_type, kind, id
        """
        ).format(item=_ITEM, chats=_CHATS, doc=_DOC),
        {"store": store_id, "person": person, "kind": kind, "id": rid},
    )
