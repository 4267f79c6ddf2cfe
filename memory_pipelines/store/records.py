"""The Records list in SQL: one store or several, each read as its reader may (every person's
records, one person's and the shared, or the shared only), filtered, newest change first,
keyset-paged, with the total.

A page is read in two steps: the ids of the page from the index items_records_idx alone (an
index-only scan: the filters but metadata are its included columns, so rows that do not match
are never fetched), then those rows. The total is the same scan, counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.listing import RecordFilters
from memory_pipelines.core.types import Item
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import columns
from memory_pipelines.store.visibility import Everyone, Reader

# What a store's reader may see: its store is in %(stores)s, and either the reader sees every
# person's records there (%(everyone)s), or the record is shared, or it is the reader's person's
# (%(persons)s: store -> person).
_VISIBLE = (
    "i.store_id = ANY(%(stores)s::text[]) AND (i.store_id = ANY(%(everyone)s::text[])"
    " OR i.person_id IS NULL OR i.person_id = (%(persons)s::jsonb ->> i.store_id))"
)
_FILTERS = (
    " AND (%(state)s::text IS NULL OR i.state = %(state)s)"
    " AND (%(category)s::text IS NULL OR i.category = %(category)s)"
    " AND (%(conf)s::int IS NULL OR i.confidence >= %(conf)s)"
    " AND (%(person)s::text IS NULL OR i.person_id = %(person)s)"
)
_AFTER = (
    " AND (%(after_at)s::timestamptz IS NULL"
    " OR (i.updated_at, i.item_id) < (%(after_at)s, %(after_id)s::bigint))"
)


def _where(filters: RecordFilters) -> sql.Composed:
    # One `metadata @> ANY(alternatives)` per pair: the GIN index answers each.
    meta = [
        sql.SQL(" AND i.metadata @> ANY({}::jsonb[])").format(sql.Placeholder(f"meta{n}"))
        for n in range(len(filters.metadata))
    ]
    return sql.SQL("{}{}").format(sql.SQL(_VISIBLE + _FILTERS), sql.Composed(meta))


def _params(readers: Mapping[str, Reader], filters: RecordFilters) -> dict[str, Any]:
    params: dict[str, Any] = {
        "stores": sorted(readers),
        "everyone": sorted(s for s, r in readers.items() if isinstance(r, Everyone)),
        "persons": Jsonb({s: r for s, r in readers.items() if isinstance(r, str)}),
        "state": filters.state,
        "category": filters.category,
        "conf": filters.least_stored,
        "person": filters.person,
        "after_at": filters.after[0] if filters.after else None,
        "after_id": filters.after[1] if filters.after else None,
    }
    for n, (key, values) in enumerate(filters.metadata):
        params[f"meta{n}"] = [Jsonb({key: v}) for v in values]
    return params


def page_ids(conn: Conn, readers: Mapping[str, Reader], filters: RecordFilters) -> list[int]:
    """The ids of the page (one more than `limit`, to tell whether another page follows)."""
    if not readers:
        return []
    query = sql.SQL(
        "SELECT i.item_id FROM agent_memory_items i WHERE {}{}"
        " ORDER BY i.updated_at DESC, i.item_id DESC LIMIT %(limit)s"
    ).format(_where(filters), sql.SQL(_AFTER))
    params = {**_params(readers, filters), "limit": filters.limit + 1}
    return [int(r["item_id"]) for r in conn.execute(query, params)]


def count(conn: Conn, readers: Mapping[str, Reader], filters: RecordFilters) -> int:
    """How many records the filters match (every page together)."""
    if not readers:
        return 0
    query = sql.SQL("SELECT count(*) AS n FROM agent_memory_items i WHERE {}").format(
        _where(filters)
    )
    row = conn.execute(query, _params(readers, filters)).fetchone()
    return int(row["n"]) if row else 0


_ROWS = sql.SQL(
    "SELECT {}, c.key_id AS chat_key, c.external_id AS chat_name"
    " FROM agent_memory_items i LEFT JOIN chats c ON c.chat_id = i.chat_id"
    " WHERE i.item_id = ANY(%(ids)s)"
).format(columns(Item, "i"))


def rows(conn: Conn, ids: Sequence[int]) -> list[tuple[Item, str | None, str | None]]:
    """The records of these ids in the order given, each with its conversation's key and name
    (None without one)."""
    if not ids:
        return []
    got = {}
    for r in conn.execute(_ROWS, {"ids": list(ids)}):
        chat_key, chat_name = r.pop("chat_key"), r.pop("chat_name")
        got[r["item_id"]] = (Item.model_validate(r), chat_key, chat_name)
    return [got[i] for i in ids if i in got]


def feeders(conn: Conn, store_id: str, ids: Sequence[int]) -> dict[int, bool]:
    """The trust of each of these items of the store (those that still exist)."""
    if not ids:
        return {}
    found = conn.execute(
        "SELECT item_id, trusted FROM agent_memory_items WHERE store_id = %s AND item_id = ANY(%s)",
        (store_id, list(ids)),
    )
    return {int(r["item_id"]): bool(r["trusted"]) for r in found}
