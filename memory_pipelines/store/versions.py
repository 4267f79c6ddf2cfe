"""Item versions: a snapshot of the item after each change, and an item's history."""

from __future__ import annotations

from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.types import Item, ItemSnapshot, ItemVersion
from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn
from memory_pipelines.store.events import INSERT
from memory_pipelines.store.rows import fetch_all
from memory_pipelines.store.visibility import (
    ACTOR_PARAMS,
    EVERYONE,
    Everyone,
    Reader,
    actor_as_read,
    actor_seen,
    reader_params,
    reader_sees,
    redact_items,
)

# The version row, numbered after the item's last, written by the statement that appends its
# event (events.INSERT): one round trip for both. The event's trigger reads the item's row.
_VERSION = (
    "WITH version AS ("
    "  INSERT INTO item_versions (item_id, store_id, version, change, actor, snapshot,"
    "    chat_person_id)"
    "  SELECT %s, %s, coalesce(max(version), 0) + 1, %s, %s, %s, %s"
    "  FROM item_versions WHERE item_id = %s) "
)


def write_version(
    conn: Conn,
    item: Item,
    change: str,
    actor: str = "",
    dropped: dict | None = None,
    reason: str = "",
    *,
    event: str,
    payload: dict[str, Any] | None = None,
    chat_person: str | None = None,
) -> None:
    """Snapshot the item (as it is after the change) into item_versions and append the change
    feed's `event` (with `payload`) for it, in one statement (an event a unique index already
    holds is skipped, the version still written); `dropped` records what a merge did not keep,
    `reason` why the change was made (the dedup judge's). `chat_person`: whose chat the change
    was written in, when a person's other than the item's own chat (a save in Ben's chat that
    merges into a shared record): its history and the feed hide the actor from other readers."""
    snapshot = item.model_dump(mode="json", exclude={"kind", "id"})
    if dropped:
        snapshot["dropped"] = dropped
    if reason:
        snapshot["reason"] = reason
    conn.execute(
        _VERSION + INSERT,
        (item.item_id, item.store_id, change, actor, Jsonb(snapshot), chat_person, item.item_id)
        + (item.store_id, event, item.item_id, actor, Jsonb(payload or {}), chat_person),
    )


# A version is visible with the person its snapshot was written for (an item's person never
# changes, and the versions of a deleted item go with it).
_HISTORY = sql.SQL(
    # The whole chain of the fact, both ways: what this item replaced and what replaced it,
    # walked through the reader's items only: a chain through another person's record would
    # tell that it exists, and join records that are not one fact to the reader.
    "WITH RECURSIVE chain(item_id) AS ("
    "  SELECT %(id)s::bigint"
    "  UNION SELECT n.item_id"
    "  FROM links l JOIN chain c ON c.item_id IN (l.src_id, l.dst_id)"
    "  JOIN agent_memory_items n"
    "    ON n.item_id = CASE WHEN l.src_id = c.item_id THEN l.dst_id ELSE l.src_id END"
    "  WHERE l.store_id = %(store)s AND l.src_kind = 'item' AND l.dst_kind = 'item'"
    "  AND l.link_type = 'supersedes' AND {})"
    # The actor of a version written in a person's chat other than the record's own is that
    # chat's: hidden from other readers (the record's own chat is redact_items' to judge).
    " SELECT {}, {} AS actor"
    " FROM item_versions v JOIN chain USING (item_id)"
    " WHERE v.store_id = %(store)s AND {}"
    " ORDER BY v.changed_at, v.version_id"
).format(
    sql.SQL(reader_sees("n.person_id")),
    sql.SQL(", ").join(sql.Identifier("v", f) for f in ItemVersion.model_fields if f != "actor"),
    sql.SQL(actor_as_read("v.actor", "v.chat_person_id")),
    sql.SQL(reader_sees("(v.snapshot->>'person_id')")),
)


def history(
    conn: Conn, store_id: str, item_id: int, reader: Reader = EVERYONE
) -> list[ItemVersion]:
    """Every version of the fact the item belongs to: the item, those it superseded and those
    that superseded it, oldest first; a reader sees only the versions of items visible to
    them, each with hidden references taken out."""
    params = {"id": item_id, "store": store_id, **reader_params(reader), **ACTOR_PARAMS}
    rows = fetch_all(conn, ItemVersion, _HISTORY, params)
    if not any(r.item_id == item_id for r in rows):
        raise NotFound(f"memory item {item_id} does not exist in store {store_id!r}")
    if isinstance(reader, Everyone):
        return rows
    snapshots: list[ItemSnapshot] = redact_items(conn, store_id, reader, [r.snapshot for r in rows])
    return [
        r.model_copy(
            update={
                "snapshot": s,
                # the key that wrote a version in a chat hidden from the reader is the chat's
                "actor": actor_seen(r.actor, r.snapshot.chat_id is not None and s.chat_id is None),
            }
        )
        for r, s in zip(rows, snapshots, strict=True)
    ]
