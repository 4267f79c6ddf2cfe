"""Commitments in Postgres: read through the `commitments` view, open ones for a turn, and the
overdue ones not yet announced."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import sql

from memory_pipelines.core.types import Commitment
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import columns, fetch_all, one
from memory_pipelines.store.visibility import EVERYONE, Reader, reader_params, reader_sees

COMMITMENT_COLUMNS = columns(Commitment)

_WHERE = (
    "store_id = %(store)s"
    " AND state <> 'superseded' AND (%(status)s::text IS NULL OR status = %(status)s)"
    " AND (NOT %(overdue)s OR (overdue AND state = 'current'))"
    " AND (%(person)s::text IS NULL OR person_id = %(person)s) AND " + reader_sees()
)
# Keyset after (due_at, item_id) in the order due soonest first, undated last.
_AFTER = (
    " AND (NOT %(paged)s OR (CASE WHEN %(after_due)s::timestamptz IS NULL"
    " THEN due_at IS NULL AND item_id > %(after_id)s"
    " ELSE due_at > %(after_due)s OR due_at IS NULL"
    " OR (due_at = %(after_due)s AND item_id > %(after_id)s) END))"
)
_LIST = sql.SQL(
    "SELECT {} FROM commitments WHERE {} ORDER BY due_at ASC NULLS LAST, item_id LIMIT %(limit)s"
).format(COMMITMENT_COLUMNS, sql.SQL(_WHERE + _AFTER))
_COUNT = sql.SQL("SELECT count(*) AS n FROM commitments WHERE {}").format(sql.SQL(_WHERE))


def list_commitments(
    conn: Conn,
    store_id: str,
    *,
    status: str | None = None,
    overdue: bool = False,
    person: str | None = None,
    limit: int = 100,
    reader: Reader = EVERYONE,
    after: tuple[datetime | None, int] | None = None,
) -> list[Commitment]:
    """Commitments of the store (superseded wordings left out), the one due soonest first
    (those after the key `after`: (due_at, item_id) of the last one of the previous page);
    a reader sees the shared ones and their own."""
    params = _params(store_id, status, overdue, person, reader)
    params.update(
        limit=limit,
        paged=after is not None,
        after_due=after[0] if after else None,
        after_id=after[1] if after else 0,
    )
    return fetch_all(conn, Commitment, _LIST, params)


def count_commitments(
    conn: Conn,
    store_id: str,
    *,
    status: str | None = None,
    overdue: bool = False,
    person: str | None = None,
    reader: Reader = EVERYONE,
) -> int:
    """How many commitments list_commitments gives with these filters, every page together."""
    row = conn.execute(_COUNT, _params(store_id, status, overdue, person, reader)).fetchone()
    return int(row["n"]) if row else 0


def _params(
    store_id: str, status: str | None, overdue: bool, person: str | None, reader: Reader
) -> dict[str, Any]:
    return {
        "store": store_id,
        "status": status,
        "overdue": overdue,
        "person": person,
        **reader_params(reader),
    }


def open_commitments(conn: Conn, store_id: str, person: str | None, most: int) -> list[Commitment]:
    """The current open commitments a turn for `person` carries (theirs and the shared ones),
    the one due soonest first."""
    return fetch_all(
        conn,
        Commitment,
        sql.SQL(
            "SELECT {} FROM commitments WHERE store_id = %s AND status = 'open'"
            " AND state = 'current' AND (person_id IS NULL OR person_id = %s)"
            " ORDER BY due_at ASC NULLS LAST, item_id LIMIT %s"
        ).format(COMMITMENT_COLUMNS),
        (store_id, person, most),
    )


def unannounced_overdue(conn: Conn, limit: int = 1000) -> list[tuple[str, int]]:
    """(store_id, item_id) of overdue commitments with no `overdue` event yet, at most `limit`
    per store, oldest due first. Only ids are read here: a date Python cannot hold in one
    store's row fails that store's announcement (still_overdue), not this list."""
    rows = conn.execute(
        "SELECT store_id, item_id FROM ("
        "  SELECT o.store_id, o.item_id,"
        "   row_number() OVER (PARTITION BY o.store_id ORDER BY o.due_at, o.item_id) AS n"
        "  FROM overdue_commitments o"
        "  WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.kind = 'overdue'"
        "   AND e.item_id = o.item_id)) x"
        " WHERE n <= %s ORDER BY store_id, n",
        (limit,),
    ).fetchall()
    return [(r["store_id"], int(r["item_id"])) for r in rows]


def unannounced_counts(conn: Conn, store_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """store -> (overdue commitments with no `overdue` event yet, the highest such item id),
    for the given stores owing any: what the sensor asks a run for, one query."""
    rows = conn.execute(
        "SELECT o.store_id, count(*) AS n, max(o.item_id) AS top FROM overdue_commitments o"
        " WHERE o.store_id = ANY(%s) AND NOT EXISTS (SELECT 1 FROM events e"
        "  WHERE e.kind = 'overdue' AND e.item_id = o.item_id)"
        " GROUP BY o.store_id",
        (list(store_ids),),
    ).fetchall()
    return {r["store_id"]: (int(r["n"]), int(r["top"])) for r in rows}


def unannounced_of_store(conn: Conn, store_id: str, limit: int) -> list[int]:
    """Item ids of the store's overdue commitments with no `overdue` event yet, oldest due
    first, at most `limit`."""
    rows = conn.execute(
        "SELECT o.item_id FROM overdue_commitments o WHERE o.store_id = %s AND NOT EXISTS ("
        " SELECT 1 FROM events e WHERE e.kind = 'overdue' AND e.item_id = o.item_id)"
        " ORDER BY o.due_at, o.item_id LIMIT %s",
        (store_id, limit),
    ).fetchall()
    return [int(r["item_id"]) for r in rows]


def still_overdue(conn: Conn, store_id: str, item_ids: list[int]) -> list[Commitment]:
    """The given commitments that are still open and overdue, locked until the transaction
    ends, so a fulfil racing the announcement waits for it (or wins and is not announced)."""
    return fetch_all(
        conn,
        Commitment,
        sql.SQL(
            "SELECT {} FROM commitments WHERE store_id = %s AND item_id = ANY(%s)"
            " AND overdue AND state = 'current' ORDER BY item_id FOR UPDATE"
        ).format(COMMITMENT_COLUMNS),
        (store_id, item_ids),
    )


_PAGE = sql.SQL(
    "SELECT {}, count(*) OVER () AS total FROM commitments WHERE store_id = ANY(%(stores)s)"
    " AND state <> 'superseded' AND (%(status)s::text IS NULL OR status = %(status)s)"
    " AND (NOT %(overdue)s OR (overdue AND state = 'current'))"
    " ORDER BY due_at ASC NULLS LAST, item_id LIMIT %(limit)s OFFSET %(offset)s"
).format(COMMITMENT_COLUMNS)
_PAGE_COUNT = sql.SQL(
    "SELECT count(*) AS n FROM commitments WHERE store_id = ANY(%(stores)s)"
    " AND state <> 'superseded' AND (%(status)s::text IS NULL OR status = %(status)s)"
    " AND (NOT %(overdue)s OR (overdue AND state = 'current'))"
)


def page_commitments(
    conn: Conn,
    store_ids: list[str],
    *,
    status: str | None,
    overdue: bool,
    limit: int,
    offset: int,
) -> tuple[list[Commitment], int]:
    """One page of the commitments of several stores (superseded wordings left out), the one
    due soonest first, and how many there are in all."""
    params = {
        "stores": store_ids,
        "status": status,
        "overdue": overdue,
        "limit": limit,
        "offset": offset,
    }
    rows = conn.execute(_PAGE, params).fetchall()
    if rows:
        total = int(rows[0]["total"])
    else:  # a page past the end still says how many there are
        total = int(one(conn.execute(_PAGE_COUNT, params).fetchone(), "counting commitments")["n"])
    return [Commitment.model_validate(r) for r in rows], total
