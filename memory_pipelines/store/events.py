"""The change feed's events: appended by every write, read in event_id order (see api/feed)."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import DictRow, class_row, dict_row
from psycopg.types.json import Jsonb

from memory_pipelines.core.types import Event
from memory_pipelines.store.db import Conn
from memory_pipelines.store.visibility import ACTOR_PARAMS, actor_as_read, reader_sees

# An event appended: (store_id, kind, item_id, actor, payload, chat_person_id). A unique index
# keeps some once per item (an `overdue`): the second is not written. chat_person_id: whose
# chat the change was written in, when not the record's own (NULL: the record's, which the
# trigger of 021 fills in).
INSERT = (
    "INSERT INTO events (store_id, kind, item_id, actor, payload, chat_person_id)"
    " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"
)

CHANNEL = "memory_events"  # what the database NOTIFYs on commit (see 008_feed_jobs.sql)

# A person's feed: events about shared records (or none) and their own (see 010_privacy.sql).
# A key or an account that wrote a record in a chat the reader may not see is that chat's: the
# event names it as HIDDEN_WRITER (store/visibility.actor_seen), as the record does. Whose chat
# it was is kept on the event when it is written (021): the record may be deleted since.
#
# An archive event says why a record faded: its salience and the days it went unrecalled.
# Every person's searches keep a shared record recalled, so for a reader limited to a person
# (or to shared records) those would tell when another person last asked about it: they are
# left out, as the record's own recall counters are (store/visibility.others_recalls).
RECALL_DERIVED = ("salience", "idle_days")
_PAYLOAD = (
    "CASE WHEN NOT %(everyone)s AND person_id IS NULL AND kind = 'archive'"
    f" THEN payload - ARRAY[{', '.join(repr(k) for k in RECALL_DERIVED)}]::text[]"
    " ELSE payload END AS payload"
)
_READ = sql.SQL(
    "SELECT {}, {}, {} AS actor"
    " FROM events WHERE store_id = %(store)s AND event_id > %(after)s AND {}"
    " ORDER BY event_id LIMIT %(batch)s"
).format(
    sql.SQL(", ").join(
        sql.Identifier(f) for f in Event.model_fields if f not in ("actor", "payload")
    ),
    sql.SQL(_PAYLOAD),
    sql.SQL(actor_as_read("actor", "chat_person_id")),
    sql.SQL(reader_sees()),
)


def record_event(
    conn: Conn,
    store_id: str,
    kind: str,
    item_id: int | None,
    actor: str = "",
    payload: dict[str, Any] | None = None,
    chat_person: str | None = None,
) -> bool:
    """Append an event to the change feed; False when a unique index says it was already
    recorded (an `overdue` is recorded once per item). On commit the database gives it its
    final event_id in commit order and announces it with NOTIFY (see 008_feed_jobs.sql).
    `chat_person`: whose chat the change was written in, when a person's other than the
    record's own (see versions.write_version)."""
    row = conn.execute(
        INSERT + " RETURNING 1 AS new",
        (store_id, kind, item_id, actor, Jsonb(payload or {}), chat_person),
    ).fetchone()
    return row is not None


def deleted_by(conn: Conn, store_id: str, actor_prefix: str) -> bool:
    """Whether the store was deleted by an actor whose name starts with `actor_prefix` (its
    `delete_store` event outlives it)."""
    row = conn.execute(
        "SELECT 1 FROM events WHERE store_id = %s AND kind = 'delete_store'"
        " AND starts_with(actor, %s) LIMIT 1",
        (store_id, actor_prefix),
    ).fetchone()
    return row is not None


def last_event_id(conn: Conn, store_id: str) -> int:
    """The store's newest event id (0 when it has none)."""
    row = conn.execute(
        "SELECT coalesce(max(event_id), 0) AS last FROM events WHERE store_id = %s", (store_id,)
    ).fetchone()
    return int(row["last"]) if row else 0


# -- following the feed on a connection of its own (LISTEN cannot share a pooled one) --------

Listener = psycopg.Connection[DictRow]


def listen(dsn: str, application_name: str) -> Listener:
    """A dedicated autocommit connection LISTENing on the feed's channel."""
    conn = psycopg.connect(
        dsn,
        autocommit=True,
        row_factory=dict_row,
        application_name=application_name[:63],
        connect_timeout=10,
    )
    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
    return conn


def read_events(conn: Listener, params: dict[str, Any], after: int) -> list[Event]:
    """Events of the store after `after`, oldest first, at most params' batch, as the reader
    of reader_params sees them."""
    with conn.cursor(row_factory=class_row(Event)) as cur:
        return cur.execute(_READ, {**params, **ACTOR_PARAMS, "after": after}).fetchall()


def wait_for_store(conn: Listener, store_id: str, seconds: float) -> None:
    """Until a notification about this store arrives, or `seconds` pass (then the caller reads
    anyway, so even a lost notification only delays an event by one poll)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for note in conn.notifies(timeout=left, stop_after=1):
            try:
                if json.loads(note.payload).get("store_id") != store_id:
                    continue  # another store's event: keep waiting
            except (ValueError, AttributeError):
                pass  # not ours to parse: read again, it costs one query
            return


def close(conn: Listener | None) -> None:
    """Close a connection that may already be broken (nothing is left to release then)."""
    if conn is not None:
        with contextlib.suppress(psycopg.Error):
            conn.close()
