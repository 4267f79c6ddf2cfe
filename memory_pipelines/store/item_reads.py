"""Memory items read many at a time: the filtered list, counts for checks and metadata, the
trust of items that feed a derived one, and the use counters a recall moves. store/items.py
writes them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import pq, sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.types import Item
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Conn
from memory_pipelines.store.items import ITEM_COLUMNS
from memory_pipelines.store.rows import fetch_all
from memory_pipelines.store.visibility import (
    EVERYONE,
    Everyone,
    Reader,
    reader_params,
    reader_sees,
    redact_items,
)

_LIST = sql.SQL(
    "SELECT {} FROM agent_memory_items WHERE store_id = %(store)s"
    " AND (%(state)s::text IS NULL OR state = %(state)s)"
    " AND (%(category)s::text IS NULL OR category = %(category)s)"
    " AND (%(person)s::text IS NULL OR person_id = %(person)s)"
    " AND (%(conf)s::int IS NULL OR confidence >= %(conf)s)"
    " AND metadata @> %(meta)s AND {}"
    " AND (%(ids)s::bigint[] IS NULL OR item_id = ANY(%(ids)s))"
    " ORDER BY updated_at DESC, item_id DESC LIMIT %(limit)s"
).format(ITEM_COLUMNS, sql.SQL(reader_sees()))


def list_items(
    conn: Conn,
    store_id: str,
    *,
    state: str | None = "current",
    category: str | None = None,
    person: str | None = None,
    min_confidence: int | None = None,
    metadata: dict[str, Any] | None = None,
    limit: int = 100,
    reader: Reader = EVERYONE,
    ids: list[int] | None = None,
) -> list[Item]:
    """Items filtered by state, category, person (records for that person), confidence and
    metadata, newest change first; a reader sees only what is visible to them."""
    out = fetch_all(
        conn,
        Item,
        _LIST,
        {
            "store": store_id,
            "state": state,
            "category": category,
            "person": person,
            "conf": min_confidence,
            "meta": Jsonb(metadata or {}),
            "limit": limit,
            "ids": ids,
            **reader_params(reader),
        },
    )
    return out if isinstance(reader, Everyone) else redact_items(conn, store_id, reader, out)


def touch_items(conn: Conn, item_ids: list[int], at: datetime | None = None) -> None:
    """Count a recall of these items (access_count, last_recalled_at), atomically.

    Outside a caller's transaction the count is committed without waiting for the disk
    (synchronous_commit off for its own transaction, as a key's request count is, store/
    keys.py): a crash can lose the last fraction of a second of recall counts, which costs
    nothing, while waiting for the flush cost a LoCoMo-size search on a busy machine about
    0.7 ms at p50 and 1-2 ms at p95 (nothing on a quiet one). Inside a caller's transaction
    (an audited read, auto-recall's injection) its commit waits for the disk as ever.

    A record a writer holds at that moment (a dedup merge, evolution, a delete) is not
    counted: a read never waits for a write. Waiting, it held the records counted before it
    while the writer, which locks records in its own order, might come to want one of them:
    a deadlock, and one of the two failed (a search, or a pipeline run)."""
    if not item_ids:
        return
    update = (
        "UPDATE agent_memory_items SET access_count = access_count + 1,"
        " last_recalled_at = coalesce(%s, now()) WHERE item_id IN (SELECT item_id"
        " FROM agent_memory_items WHERE item_id = ANY(%s) ORDER BY item_id"
        " FOR NO KEY UPDATE SKIP LOCKED)"
    )
    params = (at, sorted(set(item_ids)))
    if conn.info.transaction_status != pq.TransactionStatus.IDLE:
        conn.execute(update, params)
        return
    with conn.pipeline(), conn.transaction():
        conn.execute("SET LOCAL synchronous_commit = off")
        conn.execute(update, params)


def trust_of(conn: Conn, store_id: str, ids: list[int]) -> list[bool]:
    """Whether the store vouches for each of these items (ValidationError naming `fed_by`
    for ids that are not items of the store)."""
    if not ids:
        return []
    rows = conn.execute(
        "SELECT item_id, trusted FROM agent_memory_items WHERE store_id = %s AND item_id = ANY(%s)",
        (store_id, ids),
    ).fetchall()
    missing = set(ids) - {r["item_id"] for r in rows}
    if missing:
        raise ValidationError("fed_by", f"items {sorted(missing)} do not exist in this store")
    return [bool(r["trusted"]) for r in rows]


def unembedded_current(conn: Conn, store_id: str) -> int:
    """Current items of the store whose embedding is not a model's unit vector (a zero or
    otherwise placeholder vector): recall, dedup and linkgen would misread them."""
    row = conn.execute(
        "SELECT count(*) AS n FROM agent_memory_items WHERE store_id = %s AND state = 'current'"
        " AND NOT (vector_norm(embedding) BETWEEN 0.99 AND 1.01)",
        (store_id,),
    ).fetchone()
    return int(row["n"]) if row else 0


def count_current(conn: Conn, store_id: str) -> int:
    """How many current items the store holds."""
    return count_by_state(conn, store_id).get("current", 0)


def count_by_state(conn: Conn, store_id: str) -> dict[str, int]:
    """The store's items per state (states it has none of are left out)."""
    rows = conn.execute(
        "SELECT state, count(*) AS n FROM agent_memory_items WHERE store_id = %s GROUP BY state",
        (store_id,),
    ).fetchall()
    return {r["state"]: int(r["n"]) for r in rows}
