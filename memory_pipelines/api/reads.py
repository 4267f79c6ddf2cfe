"""The other reads of the HTTP API, each recorded in read_audit in the transaction that read
(no row, no read): search, auto-recall, the boot window and the commitments list.

`person` is whom the read is for (their records and the shared ones; None: the shared only),
decided by the caller from the principal's rights (api.access.readers_for). A key's decay per
type goes first for the confidence it reads; its trust envelope decides how auto-recall wraps
what it injects.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory_pipelines.api.audit import record as audit_read
from memory_pipelines.api.audit import refs_of
from memory_pipelines.api.autorecall import BOOT_BUDGET
from memory_pipelines.api.autorecall import autorecall as _autorecall
from memory_pipelines.api.boot import boot_window as _boot_window
from memory_pipelines.api.recall import Recall
from memory_pipelines.core import decay as decay_math
from memory_pipelines.core.access import Principal
from memory_pipelines.core.confidence import as_unit
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.listing import MAX_PAGE, decode_cursor, encode_cursor
from memory_pipelines.core.records import int_field
from memory_pipelines.core.types import (
    AutoRecall,
    BootWindow,
    Chunk,
    Commitment,
    DrillDown,
    Hit,
    Item,
    Neighbor,
    Passage,
    PeriodPage,
    Turn,
)
from memory_pipelines.core.types.base import Result
from memory_pipelines.core.vocabulary import COMMITMENT_STATUSES
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import commitments as commitments_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import Reader


class CommitmentPage(Result):
    """One page of commitments, the one due soonest first (undated last); `total` counts every
    page, `next` is the cursor of the following one (None on the last)."""

    commitments: list[Commitment]
    total: int
    next: str | None


def _recorder(principal: Principal, endpoint: str, store: str, filters: dict[str, Any]) -> Any:
    def on_read(conn: Conn, refs: Sequence[str]) -> None:
        ids, every = refs_of(refs)
        audit_read(conn, principal, endpoint, store, filters, ids, every)

    return on_read


def search(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    query: str,
    scopes: Sequence[str],
    *,
    person: str | None,
    k: int = 10,
    endpoint: str = "POST /v1/stores/{store}/search",
) -> list[Hit]:
    """Recall.search for `person`, audited with every hit (kind:id). Memory hits carry
    `confidence_as_read` (0-1) in their extra: as this key reads it."""
    request_id = f"request:{uuid.uuid4().hex}"
    on_read = _recorder(
        principal, endpoint, store, {"scopes": list(scopes), "k": k, "person": person}
    )
    store_half: dict[str, float] = {}

    def read(conn: Conn, found: list[Hit]) -> None:
        on_read(conn, [h.ref for h in found])
        if any(h.kind == "item" for h in found):  # the store's decay, in the same transaction
            store_half.update(stores_db.get_settings(conn, store).decay_per_type.half_life_days)

    hits = Recall(store, db=db, embedder=embedder).search(
        query, scopes, person=person, k=k, request_id=request_id, on_read=read
    )
    return _as_read(principal, store_half, hits)


def _as_read(principal: Principal, store_half: dict[str, float], hits: list[Hit]) -> list[Hit]:
    """Memory hits with `confidence_as_read`: under the key's decay per type, then the
    store's (`store_half`: type -> half-life days)."""
    if not any(h.kind == "item" for h in hits):
        return hits
    half_lives = decay_math.reader_half_lives(store_half, dict(principal.decay_per_type))
    now = datetime.now(UTC)
    out = []
    for h in hits:
        if h.kind == "item" and h.extra.get("updated_at") is not None:
            read = decay_math.confidence_as_read(
                h.extra["confidence"],
                h.extra["updated_at"],
                half_lives.get(h.extra.get("category") or ""),
                now,
            )
            h = h.model_copy(
                update={"extra": {**h.extra, "confidence_as_read": round(as_unit(read), 4)}}
            )
        out.append(h)
    return out


def autorecall(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    chat: str,
    user_message: str,
    *,
    person: str | None,
    budget_tokens: int = 400,
    boot_budget_tokens: int = BOOT_BUDGET,
    turn_seq: int | None = None,
    endpoint: str = "POST /v1/stores/{store}/autorecall",
) -> AutoRecall:
    """Auto-recall under the key: its trust envelope (None: the store's) and its decay per
    type for the confidence of each memory line. Audited with every record injected."""
    on_read = _recorder(
        principal, endpoint, store, {"chat": chat, "person": person, "turn_seq": turn_seq}
    )
    return _autorecall(
        Recall(store, db=db, embedder=embedder),
        chat,
        user_message,
        person=person,
        budget_tokens=budget_tokens,
        boot_budget_tokens=boot_budget_tokens,
        turn_seq=turn_seq,
        trust_envelope=principal.trust_envelope,
        decay_override=dict(principal.decay_per_type) or None,
        on_read=on_read,
    )


def boot_window(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    chat: str,
    budget_tokens: int,
    *,
    reader: Reader,
    endpoint: str = "GET /v1/stores/{store}/chats/{chat}/boot",
) -> BootWindow:
    """A chat's boot window as `reader` may open it, audited with every turn and chunk in it."""
    person = reader if isinstance(reader, str) else None
    on_read = _recorder(
        principal, endpoint, store, {"chat": chat, "budget_tokens": budget_tokens, "person": person}
    )
    return _boot_window(db, store, chat, budget_tokens, embedder, reader, on_read=on_read)


def drill_down(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    ref: str,
    *,
    person: str | None,
    endpoint: str = "GET /v1/stores/{store}/drill/{ref}",
) -> DrillDown:
    """Recall.drill_down for `person` (what an injected history line's handle opens), audited
    with the record and every child shown."""
    on_read = _recorder(principal, endpoint, store, {"ref": ref, "person": person})
    recall = Recall(store, db=db, embedder=embedder)
    return recall.drill_down(ref, person=person, on_read=on_read)


def hydrate(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    refs: Sequence[str],
    *,
    person: str | None,
    endpoint: str = "POST /v1/stores/{store}/hydrate",
) -> list[Item | Turn | Chunk | Passage]:
    """Recall.hydrate for `person`: the records it may read, audited with each one returned."""
    on_read = _recorder(principal, endpoint, store, {"refs": list(refs), "person": person})
    return Recall(store, db=db, embedder=embedder).hydrate(refs, person=person, on_read=on_read)


def by_period(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    start: str,
    end: str,
    *,
    person: str | None,
    limit: int = 200,
    after: str | None = None,
    endpoint: str = "GET /v1/stores/{store}/period",
) -> PeriodPage:
    """Recall.by_period for `person` (the temporal axis), audited with the page's records."""
    filters = {"start": start, "end": end, "person": person, "limit": limit, "after": after}
    on_read = _recorder(principal, endpoint, store, filters)
    recall = Recall(store, db=db, embedder=embedder)
    return recall.by_period(start, end, person=person, limit=limit, after=after, on_read=on_read)


def neighbors(
    db: Database,
    embedder: Embedder,
    principal: Principal,
    store: str,
    ref: str,
    *,
    person: str | None,
    endpoint: str = "GET /v1/stores/{store}/neighbors/{ref}",
) -> list[Neighbor]:
    """Recall.neighbors for `person` (the graph axis), audited with every neighbour shown (the
    record asked about is in the filters)."""
    on_read = _recorder(principal, endpoint, store, {"ref": ref, "person": person})
    return Recall(store, db=db, embedder=embedder).neighbors(ref, person=person, on_read=on_read)


def commitments(
    db: Database,
    principal: Principal,
    store: str,
    *,
    reader: Reader,
    status: str | None = None,
    overdue: bool = False,
    person: str | None = None,
    limit: int = 50,
    after: str | None = None,
    endpoint: str = "GET /v1/stores/{store}/commitments",
) -> CommitmentPage:
    """Commitments of the store as `reader` may see them, the one due soonest first, a page at
    a time with the total; `status` open, fulfilled or cancelled; `overdue` only open ones past
    due. Audited with the page's ids."""
    if status is not None and status not in COMMITMENT_STATUSES:
        raise ValidationError(
            "status", f"must be one of {', '.join(COMMITMENT_STATUSES)}, got {status!r}"
        )
    if not isinstance(overdue, bool):
        raise ValidationError("overdue", f"must be true or false, got {overdue!r}")
    id_field("person", person, nullable=True)
    int_field("limit", limit, 1, MAX_PAGE)
    key = decode_cursor(after, nullable=True)
    filters: dict[str, Any] = {"status": status, "overdue": overdue, "person": person}
    with db.transaction() as conn:
        rows = commitments_db.list_commitments(
            conn,
            store,
            status=status,
            overdue=overdue,
            person=person,
            limit=limit + 1,
            reader=reader,
            after=key,
        )
        page = rows[:limit]
        total = commitments_db.count_commitments(
            conn, store, status=status, overdue=overdue, person=person, reader=reader
        )
        read_as = reader if isinstance(reader, str) or reader is None else "*"
        audit_read(
            conn,
            principal,
            endpoint,
            store,
            {**filters, "limit": limit, "after": after, "read_as": read_as},
            [c.item_id for c in page],
        )
    last = page[-1] if len(rows) > limit else None
    return CommitmentPage(
        commitments=page,
        total=total,
        next=encode_cursor(last.due_at, last.item_id) if last else None,
    )
