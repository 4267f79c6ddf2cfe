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


def readers(conn: Conn, record_id: int, limit: int) -> list[dict[str, Any]]:
    """Who read a record and when, newest first."""
    return conn.execute(
        "SELECT audit_id, at, key_id, account_id, actor, endpoint, store_id FROM read_audit"
        " WHERE record_ids @> ARRAY[%s]::bigint[] ORDER BY at DESC, audit_id DESC LIMIT %s",
        (record_id, limit),
    ).fetchall()


def count_readers(conn: Conn, record_id: int) -> int:
    """How many reads returned the record."""
    row = conn.execute(
        "SELECT count(*) AS n FROM read_audit WHERE record_ids @> ARRAY[%s]::bigint[]",
        (record_id,),
    ).fetchone()
    return int(one(row, "counting a record's reads")["n"])


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
