"""The one place that writes memory items: insert, update, merge, supersede, delete, and the
per-person locks they are changed under (and reading one item, as the writes do). Lists,
counts and the use counters are in store/item_reads.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.types import Item
from memory_pipelines.errors import NotFound
from memory_pipelines.store.db import Conn
from memory_pipelines.store.events import record_event
from memory_pipelines.store.given_labels import reachable, take_back_given
from memory_pipelines.store.links import add_link
from memory_pipelines.store.rows import columns, fetch_one, one
from memory_pipelines.store.versions import write_version

# What a caller sees of an item: the Item type's fields (the embedding and tsv stay here).
ITEM_COLUMNS = columns(Item)


def returning_item(statement: str) -> sql.Composed:
    """A write statement that returns the item as it is after the write."""
    return sql.SQL("{} RETURNING {}").format(sql.SQL(statement), ITEM_COLUMNS)


def get_item(
    conn: Conn, item_id: int, *, store_id: str | None = None, for_update: bool = False
) -> Item:
    """One item (of the store, when given), locked for the transaction if asked."""
    item = fetch_one(
        conn,
        Item,
        sql.SQL(
            "SELECT {} FROM agent_memory_items WHERE item_id = %s"
            " AND (%s::text IS NULL OR store_id = %s){}"
        ).format(ITEM_COLUMNS, sql.SQL(" FOR UPDATE" if for_update else "")),
        (item_id, store_id, store_id),
    )
    if item is None:
        where = f" in store {store_id!r}" if store_id else ""
        raise NotFound(f"memory item {item_id} does not exist{where}")
    return item


def lock_if_live(conn: Conn, item_id: int) -> bool:
    """Lock the item for the transaction; whether it is still there and not superseded (a
    current or archived record, which a statement may still confirm or replace)."""
    row = conn.execute(
        "SELECT state FROM agent_memory_items WHERE item_id = %s FOR UPDATE", (item_id,)
    ).fetchone()
    return row is not None and row["state"] != "superseded"


def insert_item(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    embedding: np.ndarray,
    *,
    origin: str,
    trusted: bool,
    written_by: str = "",
    key_id: str | None = None,
    chat_id: int | None = None,
    from_seq: int | None = None,
    to_seq: int | None = None,
    model: str | None = None,
    fed_by: list[int] | None = None,
    reason: str = "",
) -> Item:
    """Insert a new current item with its links, its first version row (with `reason`, why it
    was created) and a `create` event."""
    row = fetch_one(
        conn,
        Item,
        returning_item(
            "INSERT INTO agent_memory_items (store_id, person_id, category, context, body,"
            " confidence, importance, tags, labels, entities, keywords, edges, metadata,"
            " valid_from,"
            " source, origin, trusted, written_by, key_id, chat_id, from_seq, to_seq, model,"
            " fed_by, status, due_at, owed_to, embedding)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, coalesce(%s, now()),"
            " %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        ),
        (
            store_id,
            item.person,
            item.category,
            item.context,
            item.body,
            item.confidence,
            item.importance,
            item.tags,
            item.labels,
            item.entities,
            item.keywords,
            Jsonb([e.model_dump() for e in item.edges]),
            Jsonb(item.metadata),
            item.valid_from,
            item.source,
            origin,
            trusted,
            written_by,
            key_id,
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
    )
    new: Item = one(row, "inserting a memory item")
    for e in item.edges:
        add_link(conn, store_id, "item", new.item_id, e.kind, e.target, e.type, model=written_by)
    write_version(conn, new, "create", written_by, reason=reason, event="create")
    return new


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
) -> Item:
    """Set some fields of an item, then write a version row and an event of kind `change`;
    returns the item after the change. `touch` moves updated_at (the decay clock) too."""
    bad = sorted(set(fields) - set(UPDATABLE))
    if bad or not fields:
        raise ValueError(f"fields must be some of {', '.join(UPDATABLE)}, got {sorted(fields)}")
    sets: list[sql.Composable] = [
        sql.SQL("{} = {}").format(sql.Identifier(k), sql.Placeholder(k)) for k in sorted(fields)
    ]
    if touch:
        sets.append(sql.SQL("updated_at = now()"))
    item = one(
        fetch_one(
            conn,
            Item,
            sql.SQL(
                "UPDATE agent_memory_items SET {} WHERE item_id = %(item_id)s RETURNING {}"
            ).format(sql.SQL(", ").join(sets), ITEM_COLUMNS),
            {**fields, "item_id": item_id},
        ),
        f"updating memory item {item_id}",
    )
    write_version(conn, item, change, actor, event=change, payload=payload)
    return item


def merge_item(
    conn: Conn,
    old: Item,
    fields: dict[str, Any],
    embedding: np.ndarray | None,
    actor: str,
    dropped: dict[str, Any] | None = None,
    reason: str = "",
    chat_person: str | None = None,
) -> Item:
    """Evolve an item (read with get_item(for_update=True)) with a candidate stating the same
    fact, to the fields core.merge chose: one more confirmation, restored if it was archived,
    re-embedded when its text changed (`embedding` not None). Writes a `merge` version and
    event, and a `restore` event when it was archived; returns the item after the merge.
    `chat_person`: whose chat the candidate was said in (versions.write_version)."""
    item_id = old.item_id
    item = one(
        fetch_one(
            conn,
            Item,
            returning_item(
                "UPDATE agent_memory_items SET context = %(context)s, body = %(body)s,"
                " source = %(source)s, confidence = %(confidence)s, tags = %(tags)s,"
                " entities = %(entities)s, keywords = %(keywords)s, edges = %(edges)s,"
                " metadata = %(metadata)s, importance = %(importance)s,"
                " trusted = %(trusted)s,"
                " confirm_count = confirm_count + 1, last_confirmed_at = now(),"
                " updated_at = now(), embedding = coalesce(%(embedding)s, embedding),"
                " state = CASE WHEN state = 'archived' THEN 'current' ELSE state END"
                " WHERE item_id = %(id)s"
            ),
            {
                **fields,
                "edges": Jsonb([e.model_dump() for e in fields["edges"]]),
                "metadata": Jsonb(fields["metadata"]),
                "embedding": embedding,
                "id": item_id,
            },
        ),
        f"merging into memory item {item_id}",
    )
    write_version(
        conn, item, "merge", actor, dropped, reason, event="merge", chat_person=chat_person
    )
    if old.state == "archived":
        record_event(conn, item.store_id, "restore", item_id, actor, chat_person=chat_person)
    return item


def supersede(
    conn: Conn,
    store_id: str,
    old_id: int,
    new_id: int,
    actor: str,
    *,
    run_id: str = "",
    payload: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """Retire the old item in favour of the new one: state superseded, a `supersedes` link
    from the new one, a `superseded` version and a `supersede` event (its payload says `by`
    and whatever the caller adds). Its wording stays in the history.

    The old item stays valid until the new one became valid (its valid_from): that is when the
    fact changed. When the new one's valid_from is earlier than the old one's (a correction
    dated before the fact it corrects, or a maintenance survivor older than the duplicate it
    absorbs), the old item ends where it began: valid for no time, never for negative time,
    so every item's validity is an interval that by_period and history can rely on.

    Only a record of the same person (or shared, both) replaces another: one person's records
    never retire another's, nor a shared one for everybody (a ValueError otherwise)."""
    row = fetch_one(
        conn,
        Item,
        sql.SQL(
            "UPDATE agent_memory_items o SET state = 'superseded', superseded_by = n.item_id,"
            " valid_until = greatest(n.valid_from, o.valid_from), updated_at = now()"
            " FROM agent_memory_items n WHERE o.item_id = %s AND n.item_id = %s"
            " AND o.store_id = n.store_id AND o.person_id IS NOT DISTINCT FROM n.person_id"
            " RETURNING {}"
        ).format(columns(Item, "o")),
        (old_id, new_id),
    )
    if (
        row is None
        and conn.execute(
            "SELECT 1 FROM agent_memory_items o JOIN agent_memory_items n ON n.item_id = %s"
            " WHERE o.item_id = %s",
            (new_id, old_id),
        ).fetchone()
    ):
        raise ValueError(
            f"memory item {new_id} cannot supersede {old_id}: they are of other persons or stores"
        )
    old = one(row, f"superseding memory item {old_id} by {new_id}")
    # the change was written where the new record was said: in a person's chat, their actor
    written_in = conn.execute(
        "SELECT c.person_id FROM agent_memory_items n JOIN chats c USING (chat_id)"
        " WHERE n.item_id = %s",
        (new_id,),
    ).fetchone()
    add_link(
        conn, store_id, "item", new_id, "item", old_id, "supersedes", model=actor, run_id=run_id
    )
    write_version(
        conn, old, "superseded", actor, reason=reason, event="supersede",
        payload={"by": new_id, **(payload or {})},
        chat_person=written_in["person_id"] if written_in else None,
    )  # fmt: skip


def delete_item(conn: Conn, store_id: str, item_id: int, actor: str) -> None:
    """Really delete the item, its versions, embedding and links, and the text and vector of
    the extracted candidates that made or confirmed it; audited as an event. The labels it
    gave other records that no other giver holds are taken back (store/given_labels.py). The
    insights reflection made from it (`fed_by`) go with it, each its own delete event: an
    insight states what its records said, and a deleted record's words must not outlive it.
    (A derived record an application saved with `fed_by` is the application's to delete.)

    The persons of the records it changes (the item, those contesting it, its insights) are
    locked first (lock_persons_of), then the rows."""
    touched = conn.execute(
        "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND (item_id = %s"
        " OR %s = ANY(contested_with) OR (category = 'insight' AND %s = ANY(fed_by)))",
        (store_id, item_id, item_id, item_id),
    ).fetchall()
    lock_persons_of(
        conn,
        store_id,
        [int(r["item_id"]) for r in touched] + reachable(conn, store_id, item_id),
    )
    item = get_item(conn, item_id, store_id=store_id, for_update=True)
    made_from = conn.execute(
        "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND category = 'insight'"
        " AND origin = 'derived' AND source = 'machine' AND %s = ANY(fed_by) AND item_id <> %s",
        (store_id, item_id, item_id),
    ).fetchall()
    conn.execute(
        "DELETE FROM links WHERE store_id = %s AND ((src_kind = 'item' AND src_id = %s)"
        " OR (dst_kind = 'item' AND dst_id = %s))",
        (store_id, item_id, item_id),
    )
    # The extracted candidates that made or confirmed it keep where they were said, not what
    # (their text and vector were its words, left for analysts in extraction_candidates).
    conn.execute(
        "UPDATE extraction_candidates SET embedding = NULL, payload = jsonb_strip_nulls("
        "jsonb_build_object('from_seq', payload->'from_seq', 'to_seq', payload->'to_seq',"
        " 'deleted', true)) WHERE item_id = %s AND store_id = %s",
        (item_id, store_id),
    )
    conn.execute(
        "UPDATE agent_memory_items SET contested_with = array_remove(contested_with, %s)"
        " WHERE store_id = %s AND %s = ANY(contested_with)",
        (item_id, store_id, item_id),
    )
    # Its earlier events keep their kind, actor and time, not the labels evolution or a merge
    # added (tags, entities and keywords are the record's words; `from` names them too).
    conn.execute(
        "UPDATE events SET payload = payload - 'tags' - 'entities' - 'keywords' - 'from'"
        " WHERE store_id = %s AND item_id = %s"
        " AND payload ?| array['tags', 'entities', 'keywords', 'from']",
        (store_id, item_id),
    )
    # The event first, while the row is there: the events trigger reads from it whose chat the
    # record was written in, and a person's chat hides the deleting key from other readers as
    # it hid the writing one (recorded after, a delete named its writer to everyone).
    record_event(
        conn,
        store_id,
        "delete",
        item_id,
        actor,
        {"category": item.category, "person_id": item.person_id},
    )
    conn.execute("DELETE FROM agent_memory_items WHERE item_id = %s", (item_id,))
    # nor on the records it gave labels to (evolution, a merge of duplicates)
    take_back_given(conn, store_id, item_id)
    for row in made_from:
        left = conn.execute(  # not gone already with an insight made from another of them
            "SELECT 1 FROM agent_memory_items WHERE item_id = %s", (row["item_id"],)
        ).fetchone()
        if left is not None:
            delete_item(conn, store_id, int(row["item_id"]), actor)


def lock_persons_of(conn: Conn, store_id: str, item_ids: Iterable[int]) -> None:
    """lock_persons for the persons of these items (shared ones: the shared records' lock).
    A writer that locks several items of its own choosing, in its own order (evolution,
    reflection, a contradiction, a delete with the records it contests), takes these first:
    a dedup window locks its persons first and then its records in the judge's order, so two
    such writers crossing on two records would deadlock, and one of them fail."""
    rows = conn.execute(
        "SELECT DISTINCT person_id FROM agent_memory_items WHERE store_id = %s"
        " AND item_id = ANY(%s)",
        (store_id, sorted(set(item_ids))),
    ).fetchall()
    lock_persons(conn, store_id, [r["person_id"] for r in rows])


def lock_persons(conn: Conn, store_id: str, persons: Iterable[str | None]) -> None:
    """Take the per-(store, person) locks under which one person's items are changed (dedup on
    save, a dedup pool's transaction, maintenance's merges), in one fixed order, so two writers
    never change one person's items at once and never deadlock. Held until the transaction
    ends."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(p))"
        " FROM unnest(%s::text[]) AS p ORDER BY p",
        (store_id, sorted({p or "" for p in persons})),
    )
