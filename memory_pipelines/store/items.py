"""The one place that reads and writes memory items, their versions and their edges."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from memory_pipelines.core.records import ItemInput
from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn
from memory_pipelines.store.visibility import (
    EVERYONE,
    Everyone,
    Reader,
    reader_params,
    reader_sees,
    redact_items,
)

# Columns a caller sees; the embedding and tsvector stay in the database.
RECORD_COLUMNS = (
    "item_id",
    "store_id",
    "person_id",
    "category",
    "context",
    "body",
    "confidence",
    "importance",
    "tags",
    "entities",
    "keywords",
    "edges",
    "metadata",
    "valid_from",
    "valid_until",
    "state",
    "superseded_by",
    "contested",
    "contested_with",
    "source",
    "origin",
    "trusted",
    "written_by",
    "chat_id",
    "from_seq",
    "to_seq",
    "model",
    "fed_by",
    "status",
    "due_at",
    "owed_to",
    "access_count",
    "last_recalled_at",
    "last_confirmed_at",
    "confirm_count",
    "created_at",
    "updated_at",
)
SELECT_RECORD = ", ".join(RECORD_COLUMNS)


def _jsonable(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record, default=lambda v: v.isoformat()))


def write_version(
    conn: Conn, item_id: int, change: str, actor: str = "", record: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Snapshot the item as it is now into item_versions (pass `record` when the statement that
    changed it returned it); returns the record."""
    if record is None:
        record = get_item(conn, item_id, for_update=False)
    conn.execute(
        "INSERT INTO item_versions (item_id, store_id, version, change, actor, snapshot)"
        " SELECT %s, %s, coalesce(max(version), 0) + 1, %s, %s, %s"
        " FROM item_versions WHERE item_id = %s",
        (item_id, record["store_id"], change, actor, Jsonb(_jsonable(record)), item_id),
    )
    return record


def record_event(
    conn: Conn,
    store_id: str,
    kind: str,
    item_id: int | None,
    actor: str = "",
    payload: dict[str, Any] | None = None,
) -> bool:
    """Append an event to the change feed; False when a unique index says it was already
    recorded (an `overdue` is recorded once per item). On commit the database gives it its
    final event_id in commit order and announces it with NOTIFY (see 008_feed_jobs.sql)."""
    row = conn.execute(
        "INSERT INTO events (store_id, kind, item_id, actor, payload) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING RETURNING 1 AS new",
        (store_id, kind, item_id, actor, Jsonb(payload or {})),
    ).fetchone()
    return row is not None


# Fields a status change or a background job sets on an existing item (a closed list: the names
# are written into SQL). Context and body are not among them: no job rewrites anyone's words.
UPDATABLE = ("status", "tags", "entities")


def update_item(
    conn: Conn,
    item_id: int,
    change: str,
    actor: str,
    fields: dict[str, Any],
    *,
    touch: bool = True,
    payload: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Set some fields of an item, then write a version row and an event of kind `change`;
    returns the record after the change. `touch` moves updated_at (the decay clock) too."""
    bad = sorted(set(fields) - set(UPDATABLE))
    if bad or not fields:
        raise ValueError(f"fields must be some of {', '.join(UPDATABLE)}, got {sorted(fields)}")
    sets = ", ".join(f"{k} = %({k})s" for k in fields)
    stamp = ", updated_at = now()" if touch else ""
    conn.execute(
        f"UPDATE agent_memory_items SET {sets}{stamp} WHERE item_id = %(item_id)s",  # noqa: S608
        {**fields, "item_id": item_id},
    )
    record = write_version(conn, item_id, change, actor)
    record_event(conn, record["store_id"], change, item_id, actor, payload)
    return record


def insert_item(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    embedding: np.ndarray,
    *,
    origin: str,
    trusted: bool,
    written_by: str = "",
    chat_id: int | None = None,
    from_seq: int | None = None,
    to_seq: int | None = None,
    model: str | None = None,
    fed_by: list[int] | None = None,
) -> int:
    """Insert a new current item with its first version row and a `create` event."""
    row = conn.execute(
        "INSERT INTO agent_memory_items (store_id, person_id, category, context, body,"
        " confidence, importance, tags, entities, keywords, edges, metadata, valid_from,"
        " source, origin, trusted, written_by, chat_id, from_seq, to_seq, model, fed_by,"
        " status, due_at, owed_to, embedding)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, coalesce(%s, now()),"
        f" %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {SELECT_RECORD}",
        (
            store_id,
            item.person,
            item.category,
            item.context,
            item.body,
            item.confidence,
            item.importance,
            item.tags,
            item.entities,
            item.keywords,
            Jsonb([{"type": e.type, "kind": e.kind, "target": e.id} for e in item.edges]),
            Jsonb(item.metadata),
            item.valid_from,
            item.source,
            origin,
            trusted,
            written_by,
            chat_id,
            from_seq,
            to_seq,
            model,
            fed_by or [],
            item.status,
            item.due_at,
            item.owed_to,
            embedding,
        ),
    ).fetchone()
    assert row is not None
    item_id = int(row["item_id"])
    for e in item.edges:
        add_link(conn, store_id, "item", item_id, e.kind, e.id, e.type, model=written_by)
    write_version(conn, item_id, "create", written_by, dict(row))
    record_event(conn, store_id, "create", item_id, written_by)
    return item_id


def add_link(
    conn: Conn,
    store_id: str,
    src_kind: str,
    src_id: int,
    dst_kind: str,
    dst_id: int,
    link_type: str,
    *,
    confidence: float = 1.0,
    model: str = "",
    run_id: str = "",
) -> bool:
    """Store a typed link once; returns whether it is new."""
    row = conn.execute(
        "INSERT INTO links (store_id, src_kind, src_id, dst_kind, dst_id, link_type, confidence,"
        " model, run_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING RETURNING link_id",
        (store_id, src_kind, src_id, dst_kind, dst_id, link_type, confidence, model, run_id),
    ).fetchone()
    return row is not None


def get_item(
    conn: Conn, item_id: int, *, store_id: str | None = None, for_update: bool = False
) -> dict[str, Any]:
    lock = " FOR UPDATE" if for_update else ""
    row = conn.execute(
        f"SELECT {SELECT_RECORD} FROM agent_memory_items WHERE item_id = %s"  # noqa: S608
        f" AND (%s::text IS NULL OR store_id = %s){lock}",
        (item_id, store_id, store_id),
    ).fetchone()
    if row is None:
        where = f" in store {store_id!r}" if store_id else ""
        raise NotFound(f"memory item {item_id} does not exist{where}")
    return dict(row)


# A version is visible with the person its snapshot was written for (an item's person never
# changes, and the versions of a deleted item go with it).
_VERSION_SEEN = reader_sees("(v.snapshot->>'person_id')")


def history(
    conn: Conn, store_id: str, item_id: int, reader: Reader = EVERYONE
) -> list[dict[str, Any]]:
    """Every version of the item and of the items it superseded, oldest first; a reader sees
    only the versions of items visible to them, each with hidden references taken out."""
    rows = conn.execute(
        "WITH RECURSIVE chain(item_id) AS ("
        "  SELECT %(id)s::bigint"
        "  UNION SELECT l.dst_id FROM links l JOIN chain c ON l.src_id = c.item_id"
        "  WHERE l.store_id = %(store)s AND l.src_kind = 'item' AND l.dst_kind = 'item'"
        "  AND l.link_type = 'supersedes')"
        " SELECT v.item_id, v.version, v.change, v.actor, v.changed_at, v.snapshot"
        " FROM item_versions v JOIN chain USING (item_id)"
        f" WHERE v.store_id = %(store)s AND {_VERSION_SEEN}"
        " ORDER BY v.changed_at, v.version_id",
        {"id": item_id, "store": store_id, **reader_params(reader)},
    ).fetchall()
    if not any(r["item_id"] == item_id for r in rows):
        raise NotFound(f"memory item {item_id} does not exist in store {store_id!r}")
    out = [dict(r) for r in rows]
    if not isinstance(reader, Everyone):
        snapshots = redact_items(conn, store_id, reader, [r["snapshot"] for r in out])
        for r, snap in zip(out, snapshots, strict=True):
            r["snapshot"] = snap
    return out


def delete_item(conn: Conn, store_id: str, item_id: int, actor: str) -> None:
    """Really delete the item, its versions, embedding and links; audited as an event."""
    record = get_item(conn, item_id, store_id=store_id, for_update=True)
    conn.execute(
        "DELETE FROM links WHERE store_id = %s AND ((src_kind = 'item' AND src_id = %s)"
        " OR (dst_kind = 'item' AND dst_id = %s))",
        (store_id, item_id, item_id),
    )
    conn.execute(
        "UPDATE agent_memory_items SET contested_with = array_remove(contested_with, %s)"
        " WHERE store_id = %s AND %s = ANY(contested_with)",
        (item_id, store_id, item_id),
    )
    conn.execute("DELETE FROM agent_memory_items WHERE item_id = %s", (item_id,))
    record_event(
        conn,
        store_id,
        "delete",
        item_id,
        actor,
        {"category": record["category"], "person_id": record["person_id"]},
    )


def list_items(
    conn: Conn,
    store_id: str,
    *,
    state: str | None = "current",
    category: str | None = None,
    person: str | None = None,
    min_confidence: int | None = None,
    metadata: dict[str, Any] | None = None,
    limit: int = 100,
    reader: Reader = EVERYONE,
    ids: list[int] | None = None,
) -> list[dict[str, Any]]:
    """Items filtered by state, category, person (records for that person), confidence and
    metadata, newest change first; a reader sees only what is visible to them."""
    rows = conn.execute(
        f"SELECT {SELECT_RECORD} FROM agent_memory_items WHERE store_id = %(store)s"  # noqa: S608
        " AND (%(state)s::text IS NULL OR state = %(state)s)"
        " AND (%(category)s::text IS NULL OR category = %(category)s)"
        " AND (%(person)s::text IS NULL OR person_id = %(person)s)"
        " AND (%(conf)s::int IS NULL OR confidence >= %(conf)s)"
        f" AND metadata @> %(meta)s AND {reader_sees()}"
        " AND (%(ids)s::bigint[] IS NULL OR item_id = ANY(%(ids)s))"
        " ORDER BY updated_at DESC, item_id DESC LIMIT %(limit)s",
        {
            "store": store_id,
            "state": state,
            "category": category,
            "person": person,
            "conf": min_confidence,
            "meta": Jsonb(metadata or {}),
            "limit": limit,
            "ids": ids,
            **reader_params(reader),
        },
    ).fetchall()
    out = [dict(r) for r in rows]
    return out if isinstance(reader, Everyone) else redact_items(conn, store_id, reader, out)


def touch_items(conn: Conn, item_ids: list[int], at: datetime | None = None) -> None:
    """Count a recall of these items (access_count, last_recalled_at), atomically."""
    if item_ids:
        conn.execute(
            "UPDATE agent_memory_items SET access_count = access_count + 1,"
            " last_recalled_at = coalesce(%s, now()) WHERE item_id = ANY(%s)",
            (at, sorted(set(item_ids))),
        )
