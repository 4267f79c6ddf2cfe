"""Records: the Records list (one store or all), one record with its life, its history, save
(with or without dedup) and delete. Reads are audited with exactly the ids they return."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from memory_pipelines.api import access, records, writes
from memory_pipelines.core.listing import (
    DEFAULT_PAGE,
    MAX_PAGE,
    parse_metadata_query,
    record_filters,
)
from memory_pipelines.core.types import SaveResult
from memory_pipelines.core.types.records import RecordLife, RecordPage
from memory_pipelines.service.errors import documented
from memory_pipelines.service.idempotent import IdempotencyKey, idempotent
from memory_pipelines.service.models import ItemHistory, SaveIn, answer
from memory_pipelines.service.security import (
    Caller,
    Guard,
    Reading,
    database,
    embedder,
    guard_for,
    read_as,
)

router = APIRouter(tags=["records"])
ItemId = Annotated[int, Path(ge=1, le=2**63 - 1, description="the record's id")]
State = Annotated[
    str,
    Query(
        pattern="^(?i:current|superseded|archived|all)$",
        description="current (what reaches a model), superseded, archived or all",
    ),
]
Type = Annotated[str | None, Query(max_length=40, description="the record's type")]
MinConfidence = Annotated[
    float | None, Query(ge=0, le=1, description="at least this confident, 0-1 (stored / 10)")
]
Metadata = Annotated[
    list[str] | None,
    Query(
        max_length=20,
        description="`key=value`, repeated: records carrying every pair (a pair without a "
        "key is ignored; a value that spells a number also matches the number)",
    ),
]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE, description="records per page")]
After = Annotated[str | None, Query(max_length=200, description="the `next` of the previous page")]
ForPerson = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        description="records for this person (a key limited to persons reads as this one)",
    ),
]
READ_ERRORS = documented(401, 403, 404, 422, 429, 503)


def _page(
    request: Request,
    principal: Caller,
    store: str | None,
    state: str,
    type_: str | None,
    min_confidence: float | None,
    metadata: list[str] | None,
    person: str | None,
    limit: int,
    after: str | None,
    endpoint: str,
) -> RecordPage:
    db = database(request)
    filters = record_filters(
        store=store,
        state=state,
        type=type_,
        min_confidence=min_confidence,
        metadata=parse_metadata_query(metadata or []),
        person=person,
        limit=limit,
        after=after,
    )
    readers = access.readers_for(db, principal, "read_memory", store, person)
    return records.list_records(db, principal, readers, filters, endpoint=endpoint)


@router.get("/v1/records", response_model=RecordPage, responses=READ_ERRORS)
def list_all(
    request: Request,
    principal: Caller,
    state: State = "current",
    type: Type = None,  # noqa: A002 - the spec's word
    min_confidence: MinConfidence = None,
    metadata: Metadata = None,
    person: ForPerson = None,
    limit: Limit = DEFAULT_PAGE,
    after: After = None,
) -> Response:
    """Records of every store this key may read, newest change first, with the total the
    filters match and `next` (the cursor of the following page; null on the last): nothing is
    cut off silently. A key limited to a person reads the shared records and that person's.
    Audited with the ids of the page."""
    return answer(_page(
        request, principal, None, state, type, min_confidence, metadata, person, limit, after,
        "GET /v1/records",
    ))  # fmt: skip


@router.get("/v1/stores/{store}/records", response_model=RecordPage, responses=READ_ERRORS)
def list_store(
    store: str,
    request: Request,
    principal: Caller,
    state: State = "current",
    type: Type = None,  # noqa: A002
    min_confidence: MinConfidence = None,
    metadata: Metadata = None,
    person: ForPerson = None,
    limit: Limit = DEFAULT_PAGE,
    after: After = None,
) -> Response:
    """The Records list of one store (the same filters and paging as /v1/records)."""
    return answer(_page(
        request, principal, store, state, type, min_confidence, metadata, person, limit, after,
        "GET /v1/stores/{store}/records",
    ))  # fmt: skip


@router.get(
    "/v1/stores/{store}/records/{item_id}", response_model=RecordLife, responses=READ_ERRORS
)
def read_record(
    store: str, item_id: ItemId, reading: Annotated[Reading, Depends(read_as("read_memory"))]
) -> Response:
    """One record with its life (labels, state, valid from/until, last confirmed and recalled,
    recall count, the record that replaced it, the ones it contradicts, commitment fields),
    its trust and origin (who wrote it; for a derived record the model, the conversation and
    the ids and trust of what fed it) and who read it. A record the key may not read is a 404,
    as one that does not exist. Audited."""
    guard = reading.guard
    return answer(records.read_record(guard.db, guard.principal, store, item_id, reading.reader))


@router.get(
    "/v1/stores/{store}/records/{item_id}/history",
    response_model=ItemHistory,
    responses=READ_ERRORS,
)
def history(
    store: str, item_id: ItemId, reading: Annotated[Reading, Depends(read_as("read_memory"))]
) -> Response:
    """Every version of the fact, oldest first: what it replaced and what replaced it, each
    with the time it was valid. Audited with the ids of every record whose version is shown."""
    guard = reading.guard
    versions = records.record_history(guard.db, guard.principal, store, item_id, reading.reader)
    return answer(ItemHistory(versions=versions))


WRITE_ERRORS = documented(401, 403, 404, 409, 413, 422, 429, 503)


def _save(
    request: Request, guard: Guard, store: str, body: SaveIn, key: str | None, dedup: bool
) -> JSONResponse:
    def write() -> SaveResult:
        return writes.save(
            guard.db, embedder(request), guard.principal, store, body.fields(), dedup=dedup
        )

    # A retry is checked as a new request before its first answer is replayed: a key since
    # denied the write, or a store since moved to another organisation, is answered so.
    # Without an Idempotency-Key nothing is replayed, and writes.save makes the check itself.
    if key is not None:
        writes.authorize_save(guard.db, guard.principal, store, body.fields())

    def status(result: object) -> int:
        made = isinstance(result, SaveResult) and result.saved and not result.deduplicated
        return 201 if made else 200

    return idempotent(request, guard, key, body, status, write)


_SAVED: dict[int | str, dict[str, Any]] = {
    200: {"model": SaveResult, "description": "Not written: skipped by the save policy, or "
          "merged into a record stating the same fact (deduplicated, mergedInto)"},
    201: {"model": SaveResult, "description": "Written: the new record (and what it superseded)"},
}  # fmt: skip


@router.post(
    "/v1/stores/{store}/records",
    status_code=201,
    response_model=SaveResult,
    responses={**_SAVED, **WRITE_ERRORS},
)
def save(
    store: str,
    body: SaveIn,
    request: Request,
    guard: Annotated[Guard, Depends(guard_for("write_memory"))],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Save a memory item under the save policy, without dedup. The record remembers the key
    that wrote it. 201 with the record, or 200 with `saved: false` and why it was skipped
    (greeting, meta_chatter, restatement, already_in_history, speculation, budget)."""
    return _save(request, guard, store, body, idempotency_key, dedup=False)


@router.post(
    "/v1/stores/{store}/records/dedup",
    status_code=201,
    response_model=SaveResult,
    responses={**_SAVED, **WRITE_ERRORS},
)
def save_with_dedup(
    store: str,
    body: SaveIn,
    request: Request,
    guard: Annotated[Guard, Depends(guard_for("write_memory"))],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Save with dedup: the judge merges it into the record stating the same fact (200,
    `deduplicated` and `mergedInto`), supersedes one (201, `superseded`) or creates (201)."""
    return _save(request, guard, store, body, idempotency_key, dedup=True)


@router.delete(
    "/v1/stores/{store}/records/{item_id}",
    response_model=writes.Deleted,
    responses=WRITE_ERRORS,
)
def delete(
    store: str,
    item_id: ItemId,
    request: Request,
    reading: Annotated[Reading, Depends(read_as("delete_memory"))],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Really delete a record with its versions, embedding and links (a `delete` event on the
    feed names the key). A record the key may not see is a 404; one it may see but not delete
    (a shared record, for a key limited to a person) a 403."""
    guard = reading.guard

    def write() -> writes.Deleted:
        return writes.delete(guard.db, guard.principal, store, item_id, reading.reader)

    return idempotent(request, guard, idempotency_key, None, 200, write)
