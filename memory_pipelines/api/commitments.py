"""Commitments: mark one fulfilled or cancelled, list them, announce the overdue ones.

A commitment is an item of category `commitment` with a status (open, fulfilled, cancelled),
due_at and owed_to. Only an open one changes status, and each change is a version row plus an
event on the feed. An open commitment past its due time is announced once with an `overdue`
event (the sensor `overdue_commitments_sensor` calls `announce_overdue`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memory_pipelines.api.access import reachable_stores
from memory_pipelines.api.audit import audited
from memory_pipelines.core.access import Principal
from memory_pipelines.core.access import Request as AccessRequest
from memory_pipelines.core.inputs import id_field, record_id
from memory_pipelines.core.records import text_field
from memory_pipelines.core.types import Commitment, Item
from memory_pipelines.core.vocabulary import COMMITMENT_STATUSES
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import commitments as commitments_db
from memory_pipelines.store import events as events_db
from memory_pipelines.store import items as items_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import EVERYONE, Reader

# status -> the verb a person uses for it, and the change written to versions and events
_CHANGES = {"fulfilled": "fulfil", "cancelled": "cancel"}
ANNOUNCER = "overdue_commitments_sensor"


def fulfil(db: Database, store_id: str, item_id: int, actor: str) -> Item:
    """Mark an open commitment fulfilled; returns the record. Writes a version row (change
    `fulfil`) and a `fulfil` event. Raises ValidationError naming the field when the item is
    not a commitment, is superseded, or is not open (fulfilled or cancelled already)."""
    return _set_status(db, store_id, item_id, "fulfilled", actor)


def cancel(db: Database, store_id: str, item_id: int, actor: str) -> Item:
    """Mark an open commitment cancelled; returns the record. Writes a version row (change
    `cancel`) and a `cancel` event; the same checks as `fulfil`."""
    return _set_status(db, store_id, item_id, "cancelled", actor)


def _set_status(db: Database, store_id: str, item_id: int, status: str, actor: str) -> Item:
    record_id("item_id", item_id)
    if not isinstance(actor, str) or not actor.strip():
        raise ValidationError("actor", f"is required: who marks the commitment {status}")
    text_field("actor", actor, max_len=200, one_line=True)
    with db.transaction() as conn:
        return close_in(conn, store_id, item_id, status, actor.strip())


def close_in(
    conn: Conn,
    store_id: str,
    item_id: int,
    status: str,
    actor: str,
    payload: dict[str, Any] | None = None,
) -> Item:
    """`fulfil` / `cancel` in the caller's transaction (dedup fulfils a commitment a statement
    reports done); `payload` adds to the version's and event's {"from": "open"}."""
    change = _CHANGES[status]
    # Locked, so two people closing the same commitment at once cannot both succeed.
    item = items_db.get_item(conn, item_id, store_id=store_id, for_update=True)
    if item.category != "commitment":
        raise ValidationError(
            "category",
            f"item {item_id} is a {item.category}, not a commitment; only a commitment "
            f"has a status ({', '.join(COMMITMENT_STATUSES)})",
        )
    if item.state == "superseded":
        raise ValidationError(
            "state",
            f"commitment {item_id} is superseded by {item.superseded_by}; {change} the current one",
        )
    if item.status != "open":
        raise ValidationError(
            "status",
            f"only an open commitment can be {status}; commitment {item_id} is {item.status}",
        )
    return items_db.update_item(
        conn,
        item_id,
        change,
        actor,
        {"status": status},
        payload={"from": "open", **(payload or {})},
    )


def list_commitments(
    db: Database,
    store_id: str,
    *,
    status: str | None = None,
    overdue: bool = False,
    person: str | None = None,
    limit: int = 100,
    reader: Reader = EVERYONE,
) -> list[Commitment]:
    """Commitments of the store, the one due soonest first (superseded wordings left out).

    `status` is open, fulfilled or cancelled (None: all); `overdue` keeps open, current ones
    past their due time; `person` keeps one person's (shared ones have person None); a
    `reader` (a person, or None) sees only the shared ones and their own."""
    if status is not None and status not in COMMITMENT_STATUSES:
        raise ValidationError(
            "status", f"must be one of {', '.join(COMMITMENT_STATUSES)}, got {status!r}"
        )
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
        raise ValidationError("limit", f"must be 1-5000, got {limit!r}")
    if not isinstance(overdue, bool):
        raise ValidationError("overdue", f"must be true or false, got {overdue!r}")
    id_field("person", person, nullable=True)
    with db.connection() as conn:
        stores_db.require_person(conn, store_id, person)
        return commitments_db.list_commitments(
            conn,
            store_id,
            status=status,
            overdue=overdue,
            person=person,
            limit=limit,
            reader=reader,
        )


PAGE_SIZE = 100  # commitments per page of the console
MAX_OFFSET = 10_000_000


@dataclass(frozen=True)
class CommitmentsPage:
    """One page of commitments: its rows, the offset of its first and how many match in all."""

    rows: list[Commitment]
    total: int
    offset: int


def organisation_commitments(
    db: Database,
    reader: Principal,
    *,
    status: str | None = None,
    overdue: bool = False,
    offset: int = 0,
    endpoint: str,
) -> CommitmentsPage:
    """The commitments of every store of the reader's organisation it may read (superseded
    wordings left out), the one due soonest first, PAGE_SIZE from `offset`, with the total.
    `status` open, fulfilled or cancelled (None: all); `overdue` keeps open ones past their
    due time. Audited with the ids of exactly the rows returned, in the reading transaction."""
    if status is not None and status not in COMMITMENT_STATUSES:
        raise ValidationError(
            "status", f"must be one of {', '.join(COMMITMENT_STATUSES)}, got {status!r}"
        )
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
        raise ValidationError("offset", f"must be an integer 0-{MAX_OFFSET}, got {offset!r}")
    stores = [
        s
        for s in reachable_stores(db, reader)
        if reader.decide(AccessRequest("read_memory", s)).allowed
    ]
    filters = {"status": status, "overdue": overdue, "offset": offset}

    def read(conn: Conn) -> tuple[CommitmentsPage, list[int]]:
        rows, total = commitments_db.page_commitments(
            conn, stores, status=status, overdue=overdue, limit=PAGE_SIZE, offset=offset
        )
        return CommitmentsPage(rows, total, offset), [r.item_id for r in rows]

    return audited(db, reader, endpoint, None, filters, read)


def announce_overdue(
    db: Database, limit: int = 1000, on_error: Callable[[str, Exception], None] | None = None
) -> dict[str, Any]:
    """Record one `overdue` event per open commitment past its due time, over every store,
    once per commitment however often it is called (a unique index on the event backs this).
    One transaction per store, at most `limit` commitments per store and call. A store whose
    rows cannot be announced (a date out of range, ...) is reported in "failed" (and passed
    to `on_error`) while the other stores are announced.
    Returns {"announced": {store: n}, "already": n, "failed": {store: error}}."""
    with db.connection() as conn:
        pending = commitments_db.unannounced_overdue(conn, limit)
    by_store: dict[str, list[int]] = {}
    for store_id, item_id in pending:
        by_store.setdefault(store_id, []).append(item_id)
    announced: Counter[str] = Counter()
    already = 0
    failed: dict[str, str] = {}
    for store_id, ids in sorted(by_store.items()):
        try:
            announced[store_id], seen = _announce(db, store_id, ids)
        except Exception as exc:  # one store's bad row stops no other store
            failed[store_id] = f"{type(exc).__name__}: {exc}"
            if on_error is not None:
                on_error(store_id, exc)
            continue
        already += seen
    return {"announced": dict(+announced), "already": already, "failed": failed}


def announce_store_overdue(db: Database, store_id: str, limit: int = 1000) -> dict[str, int]:
    """Record one `overdue` event per open commitment of the store past its due time, once per
    commitment (a unique index backs this), in one transaction, at most `limit` per call.
    Returns {"announced": n, "already": n (announced meanwhile by another caller)}."""
    with db.connection() as conn:
        ids = commitments_db.unannounced_of_store(conn, store_id, limit)
    if not ids:
        return {"announced": 0, "already": 0}
    announced, already = _announce(db, store_id, ids)
    return {"announced": announced, "already": already}


def _announce(db: Database, store_id: str, ids: list[int]) -> tuple[int, int]:
    """Announce a store's overdue commitments in one transaction: (announced, already)."""
    announced = already = 0
    with db.transaction() as conn:
        items_db.lock_persons_of(conn, store_id, ids)  # before their rows, as every writer
        for c in commitments_db.still_overdue(conn, store_id, ids):
            payload = {
                "due_at": c.due_at.isoformat() if c.due_at else None,
                "owed_to": c.owed_to,
                "person_id": c.person_id,
            }
            if events_db.record_event(conn, store_id, "overdue", c.item_id, ANNOUNCER, payload):
                announced += 1
            else:
                already += 1
    return announced, already
