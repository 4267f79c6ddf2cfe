"""Recall's other axes over HTTP: records in a period (time), a record's links (graph), full
records for refs (hydrate), and closing a commitment. Each read is audited with every record it
returns, as search and drill-down are."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, Field, StrictStr

from memory_pipelines.api import reads, writes
from memory_pipelines.core.types import Chunk, Item, Neighbor, Passage, PeriodPage, Turn
from memory_pipelines.service.errors import documented
from memory_pipelines.service.idempotent import IdempotencyKey, idempotent
from memory_pipelines.service.models import Body, answer, shared_only
from memory_pipelines.service.routes.recall import person_for
from memory_pipelines.service.security import Caller, Reading, database, embedder, read_as

router = APIRouter(tags=["recall"])
ERRORS = documented(401, 403, 404, 413, 422, 429, 503)
Ref = Annotated[
    str,
    Path(
        min_length=1,
        max_length=40,
        description="a record as hits name it, kind:id (item:3), or an item's id",
    ),
]
Person = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        description="read as this person (their records and the shared; default: the one"
        " person the key is limited to, else the shared records only)",
    ),
]


class HydrateIn(Body):
    refs: list[Annotated[StrictStr, Field(max_length=40)]] = Field(
        min_length=1, max_length=200, description="records as hits name them: kind:id"
    )
    person: StrictStr | None = Field(
        None,
        description="read as this person; null: the shared only; left out: the one person a"
        " key is limited to, else the shared only",
    )


class Records(BaseModel):
    records: list[Item | Turn | Chunk | Passage]


class Neighbors(BaseModel):
    neighbors: list[Neighbor]


@router.post("/v1/stores/{store}/hydrate", response_model=Records, responses=ERRORS)
def hydrate(store: str, body: HydrateIn, request: Request, principal: Caller) -> Response:
    """Full records for refs (what a search or an auto-recall line named), in the order given;
    those the reader may not read are left out. Audited with every record returned."""
    person = person_for(
        request, principal, "search_memory", store, body.person, shared_only=shared_only(body)
    )
    found = reads.hydrate(
        database(request), embedder(request), principal, store, body.refs, person=person
    )
    return answer(Records(records=found))


@router.get("/v1/stores/{store}/period", response_model=PeriodPage, responses=ERRORS)
def by_period(
    store: str,
    request: Request,
    principal: Caller,
    start: Annotated[str, Query(max_length=40, description="ISO 8601 date or time")],
    end: Annotated[str, Query(max_length=40, description="ISO 8601, after start")],
    person: Person = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 200,
    after: Annotated[
        str | None, Query(max_length=200, description="the `next` of the last page")
    ] = None,
) -> Response:
    """Memory items (by valid from), turns and summaries from start up to end, in time order,
    a page at a time (`next` is None on the last page). Found memory items count as recalled.
    Audited with the page's records."""
    reader = person_for(request, principal, "search_memory", store, person)
    page = reads.by_period(
        database(request), embedder(request), principal, store, start, end,
        person=reader, limit=limit, after=after,
    )  # fmt: skip
    return answer(page)


@router.get("/v1/stores/{store}/neighbors/{ref}", response_model=Neighbors, responses=ERRORS)
def neighbors(
    store: str, ref: Ref, request: Request, principal: Caller, person: Person = None
) -> Response:
    """A record's links out and into it (backlinks), each with the record at the other end,
    its name, time and state. A record the reader may not see is a 404. Audited with every
    neighbour returned."""
    reader = person_for(request, principal, "search_memory", store, person)
    found = reads.neighbors(
        database(request), embedder(request), principal, store, ref, person=reader
    )
    return answer(Neighbors(neighbors=found))


@router.post(
    "/v1/stores/{store}/commitments/{item_id}/{verb}",
    response_model=writes.Closed,
    responses=documented(401, 403, 404, 409, 413, 422, 429, 503),
)
def close_commitment(
    store: str,
    item_id: Annotated[int, Path(ge=1, le=2**63 - 1, description="the commitment's id")],
    verb: Annotated[Literal["fulfil", "cancel"], Path(description="fulfil or cancel")],
    request: Request,
    reading: Annotated[Reading, Depends(read_as("write_memory"))],
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """Mark an open commitment fulfilled or cancelled (a version and a feed event name the
    key). Only an open one: otherwise a 422 naming `status`. A commitment the key may not see
    is a 404; one it may see but not write (a shared one, for a key limited to a person) a
    403."""
    guard = reading.guard
    status = "fulfilled" if verb == "fulfil" else "cancelled"

    def write() -> writes.Closed:
        return writes.close_commitment(
            guard.db, guard.principal, store, item_id, reading.reader, status
        )

    return idempotent(request, guard, idempotency_key, None, 200, write)
