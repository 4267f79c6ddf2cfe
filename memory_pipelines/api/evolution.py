"""evolution@v1 over a store: each linked item's tags and entities refreshed from its neighbours.

`plan` reads the current items and the links between them (no writes); `apply` writes in the
caller's transaction, re-reading each item under lock, through store.items.update_item: a
version row (change `evolve`) and an `evolve` event per item changed. updated_at is not moved:
a refresh is not new evidence, so it neither restarts decay's idle clock nor counts as a use.
Nothing is ever removed and no context or body is rewritten (see core/evolution.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from memory_pipelines.core.evolution import Node, Refresh, merged, refresh
from memory_pipelines.errors import NotFound
from memory_pipelines.store import items as items_db
from memory_pipelines.store import neighbours as neighbours_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.given_labels import given_payload, held_labels

EVOLVER = "evolution@v1"
Log = Callable[[str], None]


def plan(conn: Conn, store_id: str) -> tuple[list[Refresh], dict[str, Any]]:
    """The refresh of every current item that has linked neighbours and something to learn."""
    rows = neighbours_db.current_items(conn, store_id)
    nodes = {
        int(r["item_id"]): Node(
            id=int(r["item_id"]),
            person=r["person_id"],
            text=f"{r['context']} {r['body']}",
            tags=tuple(r["tags"]),
            entities=tuple(r["entities"]),
        )
        for r in rows
    }
    adjacent: dict[int, set[int]] = defaultdict(set)
    for a, b, _ in neighbours_db.item_links(conn, store_id):
        if a in nodes and b in nodes and a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)
    changes = [
        r
        for item_id in sorted(adjacent)
        if (r := refresh(nodes[item_id], [nodes[n] for n in sorted(adjacent[item_id])]))
    ]
    return changes, {"items_read": len(nodes), "items_linked": len(adjacent)}


def apply(conn: Conn, store_id: str, changes: list[Refresh], run_id: str = "") -> dict[str, int]:
    """Write the refreshes in the caller's transaction; returns the counts."""
    counts = {"items_evolved": 0, "tags_added": 0, "entities_added": 0}
    # Its items' persons first, as a dedup window takes them: the window locks records in
    # the judge's order, this pass in id order, and crossing they would deadlock.
    items_db.lock_persons_of(conn, store_id, [ch.item_id for ch in changes])
    # A record deleted since the plan read it gives nothing: its label would outlive it here,
    # naming a giver no later delete could take it back for.
    held = held_labels(
        conn, {i for ch in changes for m in ch.given.values() for ids in m.values() for i in ids}
    )
    changes = [_still_given(ch, held) for ch in changes]
    for ch in changes:
        try:
            item = items_db.get_item(conn, ch.item_id, store_id=store_id, for_update=True)
        except NotFound:
            continue  # deleted since it was read
        if item.state != "current":
            continue
        tags = merged(item.tags, ch.tags)
        entities = merged(item.entities, ch.entities)
        added_tags = tags[len(item.tags) :]
        added_entities = entities[len(item.entities) :]
        if not added_tags and not added_entities:
            continue
        items_db.update_item(
            conn,
            ch.item_id,
            "evolve",
            EVOLVER,
            {"tags": tags, "entities": entities},
            touch=False,
            payload={
                "tags": added_tags,
                "entities": added_entities,
                "run_id": run_id,
                **given_payload(
                    {
                        "tags": {t: ch.given.get("tags", {}).get(t, ()) for t in added_tags},
                        "entities": {
                            e: ch.given.get("entities", {}).get(e, ()) for e in added_entities
                        },
                    }
                ),
            },
        )
        counts["items_evolved"] += 1
        counts["tags_added"] += len(added_tags)
        counts["entities_added"] += len(added_entities)
    return counts


def _still_given(ch: Refresh, held: dict[int, set[str]]) -> Refresh:
    """The refresh without labels whose givers hold them no more (deleted since the plan).
    A refresh made without givers (by hand) is taken as it is."""
    if not ch.given:
        return ch

    def kept(field: str, labels: tuple[str, ...]) -> tuple[str, ...]:
        by = ch.given.get(field, {})
        return tuple(v for v in labels if any(v.lower() in held.get(i, ()) for i in by.get(v, ())))

    return replace(ch, tags=kept("tags", ch.tags), entities=kept("entities", ch.entities))


def evolve(db: Database, store_id: str, run_id: str = "", log: Log | None = None) -> dict[str, Any]:
    """One evolution pass over the store: plan on a connection, write in one transaction."""
    with db.connection() as conn:
        changes, stats = plan(conn, store_id)
    with db.transaction() as conn:
        counts = apply(conn, store_id, changes, run_id)
    if log:
        log(
            f"store {store_id}: {counts['items_evolved']} of {stats['items_linked']} linked items"
            f" evolved (+{counts['tags_added']} tags, +{counts['entities_added']} entities)"
        )
    return {**stats, **counts}
