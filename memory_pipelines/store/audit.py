"""The read audit: append-only rows of who read which records (a trigger refuses changes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one


def record_read(
    conn: Conn,
    *,
    key_id: str | None,
    account_id: int | None,
    actor: str,
    endpoint: str,
    store_id: str | None,
    filters: dict[str, Any],
    record_ids: Sequence[int],
    record_refs: Sequence[str] = (),
) -> int:
    row = conn.execute(
        "INSERT INTO read_audit (key_id, account_id, actor, endpoint, store_id, filters,"
        " record_ids, record_refs) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING audit_id",
        (
            key_id,
            account_id,
            actor,
            endpoint,
            store_id,
            Jsonb(filters),
            list(record_ids),
            list(record_refs),
        ),
    ).fetchone()
    return int(one(row, "recording a read")["audit_id"])


def readers(
    conn: Conn,
    record_id: int,
    limit: int,
    only: tuple[str | None, int | None] | None = None,
    orgs: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Who read a record and when, newest first; `only`: the reads of this (key_id, account_id)
    alone. `orgs`: the organisations whose keys and administrators are named; a read by
    another's (before its store was assigned to this one) keeps its time and endpoint, and its
    reader is "another organisation", without their key, account or name. None: all named (the
    operator's view)."""
    return conn.execute(
        "SELECT a.audit_id, a.at, a.endpoint, a.store_id,"
        " CASE WHEN named THEN a.key_id END AS key_id,"
        " CASE WHEN named THEN a.account_id END AS account_id,"
        " CASE WHEN named THEN a.actor ELSE 'another organisation' END AS actor"
        " FROM read_audit a"
        " LEFT JOIN api_keys k ON k.key_id = a.key_id"
        " LEFT JOIN admin_accounts c ON c.account_id = a.account_id,"
        " LATERAL (SELECT %(orgs)s::text[] IS NULL"
        "   OR (a.key_id IS NULL AND a.account_id IS NULL)"
        "   OR coalesce(k.org_id, c.org_id) = ANY(%(orgs)s::text[]) AS named) n"
        " WHERE a.record_ids @> ARRAY[%(id)s]::bigint[]"
        " AND (NOT %(only)s OR (a.key_id IS NOT DISTINCT FROM %(key_id)s"
        " AND a.account_id IS NOT DISTINCT FROM %(account_id)s))"
        " ORDER BY a.at DESC, a.audit_id DESC LIMIT %(limit)s",
        {
            "id": record_id,
            "limit": limit,
            "orgs": list(orgs) if orgs is not None else None,
            **_by(only),
        },
    ).fetchall()


def count_readers(
    conn: Conn, record_id: int, only: tuple[str | None, int | None] | None = None
) -> int:
    """How many reads returned the record (`only`: as in readers)."""
    row = conn.execute(
        "SELECT count(*) AS n FROM read_audit WHERE record_ids @> ARRAY[%(id)s]::bigint[]"
        " AND (NOT %(only)s OR (key_id IS NOT DISTINCT FROM %(key_id)s"
        " AND account_id IS NOT DISTINCT FROM %(account_id)s))",
        {"id": record_id, **_by(only)},
    ).fetchone()
    return int(one(row, "counting a record's reads")["n"])


def _by(only: tuple[str | None, int | None] | None) -> dict[str, Any]:
    """Every read, or (`only`) one principal's: its key, or its account (the console)."""
    key_id, account_id = only or (None, None)
    return {"only": only is not None, "key_id": key_id, "account_id": account_id}


def reads_by_key(conn: Conn, key_id: str, limit: int) -> list[dict[str, Any]]:
    """A key's reads, newest first."""
    return conn.execute(
        "SELECT audit_id, at, key_id, account_id, actor, endpoint, store_id, filters, record_ids,"
        " record_refs FROM read_audit WHERE key_id = %s ORDER BY audit_id DESC LIMIT %s",
        (key_id, limit),
    ).fetchall()


def reads_by_account(conn: Conn, account_id: int, limit: int) -> list[dict[str, Any]]:
    """An administrator's reads (the console), newest first."""
    return conn.execute(
        "SELECT audit_id, at, key_id, account_id, actor, endpoint, store_id, filters, record_ids,"
        " record_refs FROM read_audit WHERE account_id = %s ORDER BY audit_id DESC LIMIT %s",
        (account_id, limit),
    ).fetchall()
