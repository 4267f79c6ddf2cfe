"""Reads that leave a trace: every read through the HTTP API writes one read_audit row in the
same transaction as the read, with the ids of exactly the records returned. If that row cannot
be written the read fails and returns nothing: no row, no read.

A read endpoint passes a function that reads on the given connection and returns
(result, record ids); `audited` runs it and the audit insert in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg

from memory_pipelines.core.access import Principal
from memory_pipelines.core.types import Event
from memory_pipelines.errors import MemoryPipelinesError
from memory_pipelines.store import audit as audit_db
from memory_pipelines.store.db import Conn, Database

T = TypeVar("T")


class AuditFailed(MemoryPipelinesError, RuntimeError):
    """The read could not be recorded, so it was not served."""


def audited(
    db: Database,
    reader: Principal,
    endpoint: str,
    store_id: str | None,
    filters: dict[str, Any],
    read: Callable[[Conn], tuple[T, Sequence[int]]],
) -> T:
    """Run `read` and record it (who, endpoint, filters, the record ids it returned) in one
    transaction; raise AuditFailed, returning nothing, when the record cannot be written."""
    with db.transaction() as conn:
        result, ids = read(conn)
        record(conn, reader, endpoint, store_id, filters, ids)
    return result


def record(
    conn: Conn,
    reader: Principal,
    endpoint: str,
    store_id: str | None,
    filters: dict[str, Any],
    record_ids: Sequence[int],
    record_refs: Sequence[str] | None = None,
) -> int:
    """Write the audit row of a read made on `conn` (inside the read's transaction).
    `record_ids` are the memory items returned; `record_refs` every record returned as kind:id
    (by default the items')."""
    # No savepoint: a failed insert leaves the read's transaction failed, and AuditFailed
    # ends it, so the read rolls back with it (every caller abandons the read).
    try:
        return audit_db.record_read(
            conn,
            key_id=reader.key_id,
            account_id=reader.account_id,
            actor="",
            endpoint=endpoint,
            store_id=store_id,
            filters=filters,
            record_ids=record_ids,
            record_refs=[f"item:{i}" for i in record_ids] if record_refs is None else record_refs,
        )
    except psycopg.Error as exc:
        raise AuditFailed(
            f"the read could not be recorded in the audit, so it was not served "
            f"({type(exc).__name__})"
        ) from exc


def refs_of(refs: Sequence[str]) -> tuple[list[int], list[str]]:
    """(the memory items' ids, every ref) of records returned as kind:id refs."""
    ids = sorted({int(r.split(":", 1)[1]) for r in refs if r.startswith("item:")})
    return ids, list(refs)


def readers(db: Database, record_id: int, limit: int = 100) -> list[dict[str, Any]]:
    """Who read a record and when (key or account, endpoint, store), newest first."""
    with db.connection() as conn:
        return audit_db.readers(conn, record_id, limit)


def reads_by_key(db: Database, key_id: str, limit: int = 100) -> list[dict[str, Any]]:
    """A key's reads, newest first, with their filters and record ids."""
    with db.connection() as conn:
        return audit_db.reads_by_key(conn, key_id, limit)


def reads_by_account(db: Database, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
    """An administrator's reads in the console, newest first."""
    with db.connection() as conn:
        return audit_db.reads_by_account(conn, account_id, limit)


def feed_recorder(
    reader: Principal, endpoint: str, store_id: str, filters: dict[str, Any]
) -> Callable[[Conn, list[Event]], None]:
    """The `on_read` of api.feed.subscribe: each batch of events read is recorded with the ids
    of the records its events are about, in the transaction that read it."""

    def on_read(conn: Conn, rows: list[Event]) -> None:
        ids = sorted({r.item_id for r in rows if r.item_id is not None})
        batch = {**filters, "events": [rows[0].event_id, rows[-1].event_id]}
        record(conn, reader, endpoint, store_id, batch, ids)

    return on_read
