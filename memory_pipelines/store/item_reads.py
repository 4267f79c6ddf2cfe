"""Memory items read many at a time: the filtered list, counts for checks and metadata, the
trust of items that feed a derived one, and the use counters a recall moves. store/items.py
writes them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import errors, pq, sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.types import Item
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Conn
from memory_pipelines.store.items import ITEM_COLUMNS
from memory_pipelines.store.rows import fetch_all, one
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


# How long a recall count waits for a record another transaction holds: another search's
# count is done in about a millisecond, a writer (a dedup merge, evolution, a delete) may hold
# it for seconds. Below Postgres's deadlock_timeout (1 s), so a wait that would close a cycle
# gives up before the cycle is found and a transaction aborted.
TOUCH_WAIT = "200ms"
_TOUCH = sql.SQL(
    "UPDATE agent_memory_items SET access_count = access_count + 1,"
    " last_recalled_at = coalesce(%s, now()) WHERE item_id {}"
)
# ... those no other transaction holds, saying which
_TOUCH_FREE = _TOUCH.format(
    sql.SQL(
        "IN (SELECT item_id FROM agent_memory_items WHERE item_id = ANY(%s) ORDER BY item_id"
        " FOR NO KEY UPDATE SKIP LOCKED) RETURNING item_id"
    )
)
_TOUCH_ALL = _TOUCH.format(sql.SQL("= ANY(%s)"))


def touch_items(conn: Conn, item_ids: list[int], at: datetime | None = None) -> None:
    """Count a recall of these items (access_count, last_recalled_at), atomically.

    Outside a caller's transaction the count is committed without waiting for the disk
    (synchronous_commit off for its own transaction, as a key's request count is, store/
    keys.py): a crash can lose the last fraction of a second of recall counts, which costs
    nothing, while waiting for the flush cost a LoCoMo-size search on a busy machine about
    0.7 ms at p50 and 1-2 ms at p95 (nothing on a quiet one). Inside a caller's transaction
    (an audited read, auto-recall's injection) its commit waits for the disk as ever.

    The records no other transaction holds are counted first; those held are waited for up
    to TOUCH_WAIT (another search's count is soon done), then left uncounted (a writer's,
    which locks records in its own order: waiting on, the search held the records it had
    counted, the writer came to want one, and one of the two failed in a deadlock)."""
    if not item_ids:
        return
    ids = sorted(set(item_ids))
    if conn.info.transaction_status != pq.TransactionStatus.IDLE:
        _touch(conn, ids, at)
        return
    with conn.transaction():
        conn.execute("SET LOCAL synchronous_commit = off")
        _touch(conn, ids, at)


def _touch(conn: Conn, ids: list[int], at: datetime | None) -> None:
    done = {r["item_id"] for r in conn.execute(_TOUCH_FREE, (at, ids))}
    held = [i for i in ids if i not in done]
    if not held:
        return
    try:
        with conn.transaction():  # a savepoint: a wait given up undoes only itself
            before = one(
                conn.execute("SELECT current_setting('lock_timeout') AS v").fetchone(),
                "reading lock_timeout",
            )
            conn.execute("SELECT set_config('lock_timeout', %s, true)", (TOUCH_WAIT,))
            conn.execute(_TOUCH_ALL, (at, held))
            conn.execute("SELECT set_config('lock_timeout', %s, true)", (before["v"],))
    except errors.LockNotAvailable:
        pass  # held by a writer: this recall goes uncounted


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


def unembedded_current(conn: Conn, store_id: str) -> list[int]:
    """Current items of the store whose embedding is not a model's unit vector (a zero or
    otherwise placeholder vector): recall, dedup and linkgen would misread them. Ids, in order."""
    rows = conn.execute(
        "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND state = 'current'"
        " AND NOT (vector_norm(embedding) BETWEEN 0.99 AND 1.01) ORDER BY item_id",
        (store_id,),
    ).fetchall()
    return [int(r["item_id"]) for r in rows]


def misembedded_for_update(conn: Conn, store_id: str, ids: list[int]) -> list[dict[str, Any]]:
    """Of these items, the current ones whose vector is still not the model's, locked: their
    item_id and context (what a save embeds)."""
    return conn.execute(
        "SELECT item_id, context FROM agent_memory_items WHERE item_id = ANY(%s)"
        " AND store_id = %s AND state = 'current'"
        " AND NOT (vector_norm(embedding) BETWEEN 0.99 AND 1.01)"
        " ORDER BY item_id FOR UPDATE",
        (ids, store_id),
    ).fetchall()


def set_embedding(conn: Conn, item_id: int, vector: Any) -> None:
    """Put an item's vector right (no version: its words are unchanged)."""
    conn.execute(
        "UPDATE agent_memory_items SET embedding = %s WHERE item_id = %s", (vector, item_id)
    )


def clock(conn: Conn) -> Any:
    """The database's time now: a version written after this is changed at or after it."""
    return one(conn.execute("SELECT clock_timestamp() AS t").fetchone(), "reading the clock")["t"]


def changed_since(conn: Conn, store_id: str, since: Any, actor: str) -> set[int]:
    """The store's items with a version `actor` wrote at or after `since` (a database time)."""
    rows = conn.execute(
        "SELECT DISTINCT item_id FROM item_versions WHERE store_id = %s AND changed_at >= %s"
        " AND actor = %s",
        (store_id, since, actor),
    ).fetchall()
    return {int(r["item_id"]) for r in rows}


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
