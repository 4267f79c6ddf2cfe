"""GET /v1/stores/{store}/events: the event feed as server-sent events.

Each event is sent with `id: <event_id>`, so a client that reconnects (an EventSource does it by
itself) sends `Last-Event-ID` and resumes after the last event it got; `?after=` does the same
by hand. The stream first sends the backlog, then follows new events (`follow=false`: the
backlog only). Every batch read is audited with the records its events are about
(api/audit.feed_recorder); if the first batch cannot be audited the answer is a 503, and a later
one ends the stream with an `event: error`.

The feed follows in segments: api.feed.subscribe stops after `heartbeat` idle seconds, a
comment line is sent (so a gone client is noticed), and a new segment resumes from the cursor.
A blocking read therefore never outlives its client by more than one heartbeat.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Generator
from typing import Annotated

import anyio
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse

from memory_pipelines.api import feed
from memory_pipelines.api.audit import AuditFailed, feed_recorder
from memory_pipelines.api.strangers import Strangers
from memory_pipelines.core.types import Event
from memory_pipelines.errors import ValidationError
from memory_pipelines.service.errors import Error, documented
from memory_pipelines.service.security import Reading, read_as

Events = Generator[Event, None, None]
router = APIRouter(tags=["events"])
ENDPOINT = "GET /v1/stores/{store}/events"


@router.get(
    "/v1/stores/{store}/events",
    response_class=StreamingResponse,
    responses={
        200: {
            "model": Event,
            "content": {"text/event-stream": {}},
            "description": "Server-sent events, `id:` the event_id, `data:` an Event",
        },
        **documented(401, 403, 404, 422, 429, 503),
    },
)
async def events(
    store: str,
    request: Request,
    reading: Annotated[Reading, Depends(read_as("read_feed"))],
    after: Annotated[int | None, Query(ge=0, description="resume after this event id")] = None,
    follow: Annotated[bool, Query(description="wait for new events after the backlog")] = True,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
) -> StreamingResponse:
    """The store's events after `after` (or Last-Event-ID) in event_id order, then new ones.
    Read as one person (a key limited to a person, or `?person=`), the feed carries the events
    about shared records and that person's, and nothing about anyone else's."""
    cursor = after or 0
    if last_event_id is not None:
        # ASCII digits within a bigint ("²" is a digit to isdigit; int() of 5,000 digits raises)
        digits = last_event_id.isascii() and last_event_id.isdigit()
        if not digits or len(last_event_id) > 19 or int(last_event_id) >= 2**63:
            raise ValidationError("Last-Event-ID", "must be an event id (0-9, at most 19 digits)")
        cursor = max(cursor, int(last_event_id))
    heartbeat: float = request.app.state.feed_heartbeat
    filters = {"after": cursor, "follow": follow, "person": reading.person}
    guard = reading.guard
    on_read = feed_recorder(guard.principal, ENDPOINT, store, filters)

    strangers = Strangers(guard.db, guard.principal, store)

    def segment(start: int, idle: float) -> Events:
        return _renamed(
            feed.subscribe(
                store,
                start,
                db=guard.db,
                idle_timeout=idle,
                poll_seconds=min(1.0, heartbeat),
                reader=reading.reader,
                on_read=on_read,
            ),
            strangers,
        )

    # The first batch is read (and audited) before the answer starts: a 503 is still possible.
    backlog = segment(cursor, 0.0)
    first = await _next(request, backlog)
    return StreamingResponse(
        _stream(request, cursor, first, backlog, segment, follow, heartbeat),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _renamed(events: Events, strangers: Strangers) -> Events:
    """The events with their actors as the reader is shown them (a key or administrator of
    another organisation, which owned the store before, is "another organisation"); closing
    it closes the feed's own connection."""
    try:
        for event in events:
            yield event.model_copy(update={"actor": strangers.actor(event.actor)})
    finally:
        events.close()


async def _stream(
    request: Request,
    cursor: int,
    first: Event | None,
    backlog: Events,
    segment: Callable[[int, float], Events],
    follow: bool,
    heartbeat: float,
) -> AsyncIterator[str]:
    gen = backlog
    event = first
    try:
        while True:
            while event is not None:
                cursor = event.event_id
                yield _sse(event)
                event = await _next(request, gen)
            gen.close()
            if not follow:
                return
            yield ": keep-alive\n\n"
            if await request.is_disconnected():
                return
            gen = segment(cursor, heartbeat)
            event = await _next(request, gen)
    except AuditFailed as exc:
        body = Error(error="audit_failed", message=str(exc)).model_dump_json()
        yield f"event: error\ndata: {body}\n\n"
    finally:
        gen.close()


async def _next(request: Request, gen: Events) -> Event | None:
    """The next event, read in a worker thread of the feed's own limiter (a follower blocks up
    to a heartbeat; it must not hold the threads the other routes run in)."""
    limiter: anyio.CapacityLimiter = request.app.state.feed_limiter
    return await anyio.to_thread.run_sync(next, gen, None, limiter=limiter)


def _sse(event: Event) -> str:
    return f"id: {event.event_id}\ndata: {event.model_dump_json()}\n\n"
