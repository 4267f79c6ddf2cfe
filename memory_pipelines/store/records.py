"""The Records list in SQL: one store or several, each read as its reader may (every person's
records, one person's and the shared, or the shared only), filtered, newest change first,
keyset-paged, with the total.

The list is read from item_listing, a narrow copy of the columns it filters and orders on (an
item's own row is wide: its vector), in two steps: the ids of the page, per store in the order
of item_listing_order_idx (whose included columns answer every filter but metadata), then the
rows of those ids. The total counts the same rows. Only the filters given are in the SQL, and
no statement is prepared: each plan fits its filters.
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

# What the reader may see in store {store}: every person's records there (%(everyone)s: the
# stores read as everyone), or the shared ones and those of the reader's person there
# (%(persons)s: store -> person).
_VISIBLE = (
    "({store} = ANY(%(everyone)s::text[]) OR i.person_id IS NULL"
    " OR i.person_id = (%(persons)s::jsonb ->> {store}))"
)


def _conditions(filters: RecordFilters, store: sql.Composable) -> sql.Composed:
    """The visibility and the filters given (only those: each plan fits its filters)."""
    parts: list[sql.Composable] = [sql.SQL(_VISIBLE).format(store=store)]
    if filters.state is not None:
        parts.append(sql.SQL("i.state = %(state)s"))
    if filters.category is not None:
        parts.append(sql.SQL("i.category = %(category)s"))
    if filters.least_stored is not None:
        parts.append(sql.SQL("i.confidence >= %(conf)s"))
    if filters.person is not None:
        parts.append(sql.SQL("i.person_id = %(person)s"))
    # One `metadata @> ANY(alternatives)` per pair: the GIN index answers each.
    parts += [
        sql.SQL("i.metadata @> ANY({}::jsonb[])").format(sql.Placeholder(f"meta{n}"))
        for n in range(len(filters.metadata))
    ]
    return sql.SQL(" AND ").join(parts)


def _params(readers: Mapping[str, Reader], filters: RecordFilters) -> dict[str, Any]:
    params: dict[str, Any] = {
        "stores": sorted(readers),
        "everyone": sorted(s for s, r in readers.items() if isinstance(r, Everyone)),
        "persons": Jsonb({s: r for s, r in readers.items() if isinstance(r, str)}),
        "state": filters.state,
        "category": filters.category,
        "conf": filters.least_stored,
        "person": filters.person,
    }
    if filters.after is not None:
        params["after_at"], params["after_id"] = filters.after
    for n, (key, values) in enumerate(filters.metadata):
        params[f"meta{n}"] = [Jsonb({key: v}) for v in values]
    return params


def page_ids(conn: Conn, readers: Mapping[str, Reader], filters: RecordFilters) -> list[int]:
    """The ids of the page (one more than `limit`, to tell whether another page follows).

    Per store, the newest matching rows in index order, stopping at the page's size (an
    equality on store_id lets the index give the order; `store_id = ANY(...)` would not), then
    the stores' rows merged."""
    if not readers:
        return []
    after = (
        sql.SQL(" AND (i.updated_at, i.item_id) < (%(after_at)s, %(after_id)s::bigint)")
        if filters.after is not None
        else sql.SQL("")
    )
    query = sql.SQL(
        "SELECT p.item_id FROM unnest(%(stores)s::text[]) AS s(store_id),"
        " LATERAL (SELECT i.item_id, i.updated_at FROM item_listing i"
        "  WHERE i.store_id = s.store_id AND {}{}"
        "  ORDER BY i.updated_at DESC, i.item_id DESC LIMIT %(limit)s) AS p"
        " ORDER BY p.updated_at DESC, p.item_id DESC LIMIT %(limit)s"
    ).format(_conditions(filters, sql.SQL("s.store_id")), after)
    params = {**_params(readers, filters), "limit": filters.limit + 1}
    return [int(r["item_id"]) for r in conn.execute(query, params, prepare=False)]


def count(conn: Conn, readers: Mapping[str, Reader], filters: RecordFilters) -> int:
    """How many records the filters match (every page together)."""
    if not readers:
        return 0
    query = sql.SQL(
        "SELECT count(*) AS n FROM item_listing i WHERE i.store_id = ANY(%(stores)s::text[]) AND {}"
    ).format(_conditions(filters, sql.SQL("i.store_id")))
    row = conn.execute(query, _params(readers, filters), prepare=False).fetchone()
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
