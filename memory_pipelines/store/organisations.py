"""Organisations: their tree, ceilings and policies, and which stores they own."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn

# The organisation and every one above it, nearest first (the tree has no cycle: parents are
# set at creation only). Used by key authentication too, so one query brings the whole chain.
CHAIN = """
WITH RECURSIVE chain AS (
    SELECT o.*, 0 AS depth FROM organisations o WHERE o.org_id = %(org)s
    UNION ALL
    SELECT p.*, c.depth + 1 FROM organisations p JOIN chain c ON p.org_id = c.parent_id
)
SELECT org_id, name, parent_id, ceiling, policy FROM chain ORDER BY depth
"""


def create(
    conn: Conn, org_id: str, name: str, parent_id: str | None, ceiling: list[str], policy: Any
) -> None:
    conn.execute(
        "INSERT INTO organisations (org_id, name, parent_id, ceiling, policy)"
        " VALUES (%s, %s, %s, %s, %s)",
        (org_id, name, parent_id, ceiling, Jsonb(policy)),
    )


def exists(conn: Conn, org_id: str) -> bool:
    row = conn.execute("SELECT 1 FROM organisations WHERE org_id = %s", (org_id,)).fetchone()
    return row is not None


def chain(conn: Conn, org_id: str) -> list[dict[str, Any]]:
    """The organisation's row and its ancestors' rows, nearest first; NotFound if unknown."""
    rows = conn.execute(CHAIN, {"org": org_id}).fetchall()
    if not rows:
        raise NotFound(f"organisation {org_id!r} does not exist")
    return rows


def children(conn: Conn, org_id: str) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT org_id, ceiling FROM organisations WHERE parent_id = %s ORDER BY org_id", (org_id,)
    ).fetchall()


def set_ceiling(conn: Conn, org_id: str, ceiling: list[str]) -> None:
    conn.execute("UPDATE organisations SET ceiling = %s WHERE org_id = %s", (ceiling, org_id))


def set_policy(conn: Conn, org_id: str, policy: Any) -> None:
    conn.execute("UPDATE organisations SET policy = %s WHERE org_id = %s", (Jsonb(policy), org_id))


def list_all(conn: Conn) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT o.org_id, o.name, o.parent_id, o.ceiling, o.policy, o.created_at,"
        " (SELECT count(*) FROM stores s WHERE s.org_id = o.org_id) AS stores,"
        " (SELECT count(*) FROM api_keys k WHERE k.org_id = o.org_id) AS keys"
        " FROM organisations o ORDER BY o.org_id"
    ).fetchall()


def store_owner(conn: Conn, store_id: str) -> str | None:
    """The organisation that owns a store, None when there is no such store."""
    row = conn.execute("SELECT org_id FROM stores WHERE store_id = %s", (store_id,)).fetchone()
    return row["org_id"] if row else None


def assign_store(conn: Conn, store_id: str, org_id: str) -> None:
    conn.execute("UPDATE stores SET org_id = %s WHERE store_id = %s", (org_id, store_id))


def stores_of(conn: Conn, org_id: str) -> list[str]:
    rows = conn.execute("SELECT store_id FROM stores WHERE org_id = %s ORDER BY 1", (org_id,))
    return [r["store_id"] for r in rows]
