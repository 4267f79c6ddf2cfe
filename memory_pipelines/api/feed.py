"""The change feed: subscribe to a store's events (create, merge, supersede, archive, restore,
delete, contest, fulfil, cancel, evolve, overdue, ...) in event_id order, resumable by cursor.

How it stays whole: the feed is the `events` table, not the notifications. Within a store,
event_id increases in commit order (the database takes the id again at commit under a per-store
lock, see 008_feed_jobs.sql), so "every event with event_id > cursor" is exactly what the
subscriber has not seen. It LISTENs first, then reads the backlog, then waits for a
notification (or `poll_seconds`) and reads again from its cursor. A notification only says
"look again": one missed while reconnecting costs nothing, because the next read starts from
the cursor. After a dropped connection it reconnects and resumes from the last event it
yielded, so nothing is lost and nothing repeats; a consumer that stops keeps the last event_id
it handled and passes it as `after_id` next time.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator
from typing import Any

import psycopg

from memory_pipelines.core.types import Event
from memory_pipelines.errors import StoreError, ValidationError
from memory_pipelines.store import events as events_db
from memory_pipelines.store.db import Database, get_database
from memory_pipelines.store.visibility import EVERYONE, Reader, reader_params

# Called with each batch read, in its transaction (see subscribe).
OnRead = Callable[[events_db.Listener, list[Event]], None]

APP_NAME = "memory-feed"  # application_name of a subscriber's connection (pg_stat_activity)


def subscribe(
    store_id: str,
    after_id: int = 0,
    *,
    db: Database | None = None,
    dsn: str | None = None,
    idle_timeout: float | None = None,
    poll_seconds: float = 5.0,
    batch: int = 500,
    retries: int = 10,
    reader: Reader = EVERYONE,
    on_read: OnRead | None = None,
) -> Generator[Event, None, None]:
    """Yield the store's events with event_id > after_id, oldest first, then new ones as they
    are committed, each once (an Event: event_id, store_id, kind, item_id, actor, payload,
    created_at).

    Runs until the consumer stops, or `idle_timeout` seconds pass without a new event (None:
    forever). A dropped connection is reopened (up to `retries` failures in a row, with
    backoff; then StoreError) and reading resumes from the last event yielded. Uses its own
    connection (LISTEN cannot share a pooled one), closed when the generator is closed.

    `on_read(conn, events)` is called with each non-empty batch inside the transaction that
    read it, before any of it is yielded (the read audit: if it raises, nothing of the batch is
    yielded and the error ends the feed)."""
    if isinstance(after_id, bool) or not isinstance(after_id, int) or after_id < 0:
        raise ValidationError("after_id", f"must be an event id >= 0, got {after_id!r}")
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValidationError("batch", f"must be a positive integer, got {batch!r}")
    if poll_seconds <= 0:
        raise ValidationError("poll_seconds", f"must be > 0, got {poll_seconds!r}")
    url = (db or get_database(dsn)).dsn  # get_database also brings the schema up to date
    params = {"store": store_id, "batch": batch, **reader_params(reader)}
    return _follow(url, params, after_id, idle_timeout, poll_seconds, retries, on_read)


def _follow(
    dsn: str,
    params: dict[str, Any],
    cursor: int,
    idle_timeout: float | None,
    poll_seconds: float,
    retries: int,
    on_read: OnRead | None = None,
) -> Generator[Event, None, None]:
    store_id, batch = params["store"], params["batch"]
    conn: events_db.Listener | None = None
    failures = 0
    last_new = time.monotonic()
    try:
        while True:
            try:
                if conn is None:
                    conn = events_db.listen(dsn, f"{APP_NAME} {store_id}")
                # the audited read and its audit row commit together
                with conn.transaction() if on_read else contextlib.nullcontext():
                    rows = events_db.read_events(conn, params, cursor)
                    if rows and on_read is not None:
                        on_read(conn, rows)
                failures = 0
            except psycopg.OperationalError as exc:
                events_db.close(conn)
                conn = None
                failures += 1
                if failures > retries:
                    raise StoreError(
                        f"event feed of store {store_id!r}: connection lost {failures} times "
                        f"in a row ({exc}); resume with after_id={cursor}"
                    ) from exc
                time.sleep(min(0.05 * 2**failures, 5.0))
                continue
            for row in rows:
                cursor = row.event_id
                yield row
            if rows:
                last_new = time.monotonic()
                if len(rows) == batch:
                    continue  # more backlog: read on before waiting
            wait = poll_seconds
            if idle_timeout is not None:
                left = idle_timeout - (time.monotonic() - last_new)
                if left <= 0:
                    return
                wait = min(wait, left)
            try:
                events_db.wait_for_store(conn, store_id, wait)
            except psycopg.OperationalError:
                events_db.close(conn)  # the next read reconnects and counts the failure
                conn = None
    finally:
        events_db.close(conn)
