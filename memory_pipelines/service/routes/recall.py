"""Recall through the API: search on every scope, auto-recall at the start of a turn, a chat's
boot window, and the commitments list. Each is audited with every record it returns."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from memory_pipelines.api import access, reads
from memory_pipelines.core.boot import DEFAULT_BUDGET
from memory_pipelines.core.listing import MAX_PAGE
from memory_pipelines.core.types import AutoRecall, BootWindow, DrillDown
from memory_pipelines.core.vocabulary import CommitmentStatus
from memory_pipelines.errors import ValidationError
from memory_pipelines.service.errors import documented
from memory_pipelines.service.models import AutoRecallIn, Hits, SearchIn, answer, shared_only
from memory_pipelines.service.security import Caller, Reading, database, embedder, read_as

router = APIRouter(tags=["recall"])
ERRORS = documented(401, 403, 404, 413, 422, 429, 503)


def person_for(
    request: Request,
    principal: Caller,
    action: str,
    store: str,
    person: str | None,
    *,
    shared_only: bool = False,
) -> str | None:
    """Whom a search or an auto-recall is for: the person named (if the key may act for them),
    else the one person a key is limited to, else nobody (the shared records only).
    `shared_only` (a body that sent `"person": null`) reads as nobody whatever the key is
    limited to, once the key may read in the store at all."""
    reader = access.readers_for(
        database(request), principal, action, store, person, shared_only=shared_only
    )[store]
    return reader if isinstance(reader, str) else None


@router.post("/v1/stores/{store}/search", response_model=Hits, responses=ERRORS)
def search(store: str, body: SearchIn, request: Request, principal: Caller) -> Response:
    """The k best records for a query over the scopes (agent: memory items; history: turns and
    chunks; basic: documents; email: emails), for `person` (their records and the shared; none:
    the shared only). Memory hits carry `confidence_as_read` (0-1, under this key's decay per
    type). Found memory items count as recalled. Audited with every hit."""
    person = person_for(
        request, principal, "search_memory", store, body.person, shared_only=shared_only(body)
    )
    hits = reads.search(
        database(request),
        embedder(request),
        principal,
        store,
        body.query,
        body.scopes,
        person=person,
        k=body.k,
    )
    return answer(Hits(hits=hits))


@router.post("/v1/stores/{store}/autorecall", response_model=AutoRecall, responses=ERRORS)
def autorecall(store: str, body: AutoRecallIn, request: Request, principal: Caller) -> Response:
    """What to inject before the model answers `user_message` in `chat`: open commitments,
    then the best hits above the relevance threshold that the boot window does not already
    hold, within `budget_tokens`. Rendered as data: with this key's trust envelope (or the
    store's) in `<untrusted source="memory">`, else between [memory] lines; each memory line's
    confidence as this key reads it when the key has its own decay per type. Logged to
    agent_roi_injections and audited with every record injected."""
    person = person_for(
        request, principal, "search_memory", store, body.person, shared_only=shared_only(body)
    )
    return answer(
        reads.autorecall(
            database(request),
            embedder(request),
            principal,
            store,
            body.chat,
            body.user_message,
            person=person,
            budget_tokens=body.budget_tokens,
            boot_budget_tokens=body.boot_budget_tokens,
            turn_seq=body.turn_seq,
        )
    )


@router.get(
    "/v1/stores/{store}/chats/{chat:path}/boot", response_model=BootWindow, responses=ERRORS
)
def boot_window(
    store: str,
    request: Request,
    reading: Annotated[Reading, Depends(read_as("search_memory"))],
    chat: Annotated[str, Path(min_length=1, max_length=200)],
    budget_tokens: Annotated[int, Query(ge=1, le=100_000)] = DEFAULT_BUDGET,
) -> Response:
    """A chat's whole history within `budget_tokens`, oldest first: the newest turns raw, older
    history as level-1 summaries, older still as level 2 and up. A key reading as a person
    opens a shared chat or that person's (another's is a 404). Audited with every turn and
    chunk in the window."""
    guard = reading.guard
    return answer(reads.boot_window(
        guard.db, embedder(request), guard.principal, store, chat, budget_tokens,
        reader=reading.reader,
    ))  # fmt: skip


@router.get("/v1/stores/{store}/drill/{ref}", response_model=DrillDown, responses=ERRORS)
def drill_down(
    store: str,
    request: Request,
    principal: Caller,
    ref: Annotated[
        str,
        Path(
            min_length=1,
            max_length=40,
            description="the record to open, as search hits and auto-recall lines name it:"
            " kind:id (chunk:12, turn:7, item:3), or an item's id",
        ),
    ],
    person: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=200,
            description="open it as this person (their records and the shared; default: the"
            " one person the key is limited to, else the shared records only)",
        ),
    ] = None,
) -> Response:
    """Open a record one level, as an auto-recall line's `drill_down` handle says: a chunk
    gives its children (chunks, or the raw turns under level 1), a turn its `trace_ref` (the
    run it was said in), a memory item the turns it was derived from. Every chunk has children:
    drilling never dead-ends. A record the reader may not see is a 404, as one that does not
    exist. Audited with the record and every child shown."""
    reader = person_for(request, principal, "search_memory", store, person)
    return answer(
        reads.drill_down(database(request), embedder(request), principal, store, ref, person=reader)
    )


@router.get("/v1/stores/{store}/commitments", response_model=reads.CommitmentPage, responses=ERRORS)
def commitments(
    store: str,
    request: Request,
    principal: Caller,
    status: Annotated[CommitmentStatus | None, Query()] = None,
    overdue: Annotated[bool, Query(description="only open ones past their due time")] = False,
    person: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=200,
            description="one person's commitments (a key limited to persons reads as this one)",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    after: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """Commitments (what was promised, to whom, by when, whose), the one due soonest first, a
    page at a time with the total and `next`. Filter on status, or overdue only. A key limited
    to a person reads the shared ones and that person's. Audited with the page's ids."""
    if overdue and status not in (None, "open"):
        raise ValidationError("overdue", f"only an open commitment is overdue, not a {status} one")
    db = database(request)
    reader = access.readers_for(db, principal, "read_memory", store, person)[store]
    return answer(reads.commitments(
        db, principal, store, reader=reader, status=status, overdue=overdue, person=person,
        limit=limit, after=after,
    ))  # fmt: skip
