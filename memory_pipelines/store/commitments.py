"""Commitments in Postgres: the analyst views read back, and overdue ones not yet announced."""

from __future__ import annotations

from typing import Any

from memory_pipelines.store.db import Conn
from memory_pipelines.store.visibility import EVERYONE, Reader, reader_params, reader_sees

_COLUMNS = (
    "item_id, store_id, person_id, context, status, due_at, owed_to, confidence, state,"
    " overdue, created_at, updated_at"
)


def list_commitments(
    conn: Conn,
    store_id: str,
    *,
    status: str | None = None,
    overdue: bool = False,
    person: str | None = None,
    limit: int = 100,
    reader: Reader = EVERYONE,
) -> list[dict[str, Any]]:
    """Commitments of the store (superseded wordings left out), the one due soonest first;
    a reader sees the shared ones and their own."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM commitments WHERE store_id = %(store)s"  # noqa: S608
        " AND state <> 'superseded' AND (%(status)s::text IS NULL OR status = %(status)s)"
        " AND (NOT %(overdue)s OR (overdue AND state = 'current'))"
        f" AND (%(person)s::text IS NULL OR person_id = %(person)s) AND {reader_sees()}"
        " ORDER BY due_at ASC NULLS LAST, item_id LIMIT %(limit)s",
        {
            "store": store_id,
            "status": status,
            "overdue": overdue,
            "person": person,
            "limit": limit,
            **reader_params(reader),
        },
    ).fetchall()
    return [dict(r) for r in rows]


def unannounced_overdue(conn: Conn, limit: int = 1000) -> list[dict[str, Any]]:
    """Overdue commitments of every store with no `overdue` event yet, oldest due first."""
    rows = conn.execute(
        "SELECT o.store_id, o.item_id, o.person_id, o.due_at, o.owed_to FROM overdue_commitments o"
        " WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.kind = 'overdue'"
        "   AND e.item_id = o.item_id)"
        " ORDER BY o.due_at, o.item_id LIMIT %s",
        (limit,),
    ).fetchall()
    return [dict(r) for r in rows]


def still_overdue(conn: Conn, store_id: str, item_ids: list[int]) -> list[dict[str, Any]]:
    """The given commitments that are still open and overdue, locked until the transaction
    ends, so a fulfil racing the announcement waits for it (or wins and is not announced)."""
    rows = conn.execute(
        "SELECT item_id, person_id, due_at, owed_to FROM agent_memory_items"
        " WHERE store_id = %s AND item_id = ANY(%s) AND category = 'commitment'"
        " AND status = 'open' AND state = 'current' AND due_at < now()"
        " ORDER BY item_id FOR UPDATE",
        (store_id, item_ids),
    ).fetchall()
    return [dict(r) for r in rows]
