"""reflection@v1 over a store: never-recalled clusters synthesised into insight items.

`plan` reads and asks the model (no writes, no locks); `apply` writes in the caller's
transaction, after checking again under lock that every member is still current and never
recalled and that no insight of the same members exists. Each insight goes through the normal
insert path (a version row and a `create` event), with origin derived, source machine, fed_by
listing every member, and a part_of link from each member to it. A cluster that grew past the
members of an existing insight replaces it (supersede), so one live insight covers a cluster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from memory_pipelines.api.maintenance import contradiction_pass
from memory_pipelines.core.records import validate_item
from memory_pipelines.core.reflection import (
    SUMMARY_WORDS,
    Member,
    build_graph,
    clusters,
    cohesion,
    decide,
    insight_item,
)
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store import neighbours as neighbours_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database, as_array
from memory_pipelines.store.links import add_link

REFLECTOR = "reflection@v1"
MAX_ITEMS = 3000  # newest never-recalled items of a person read per run; their matrix is n x n
Log = Callable[[str], None]


@dataclass
class Planned:
    """A cluster that needs an insight: its members, the model's summary, their cohesion."""

    members: list[Member]
    summary: str
    cohesion: float


def plan(
    conn: Conn, store_id: str, models: Models, max_items: int = MAX_ITEMS
) -> tuple[list[Planned], dict[str, Any], list[list[int]]]:
    """The clusters that need an insight, each summarised by the model; the counts; and the
    clusters whose insight was made before (their members' ids). Each person's records (and
    the shared ones) are clustered on their own, the newest `max_items` of each: what one
    person writes changes nothing of another's insights, nor crowds them out."""
    links = neighbours_db.item_links(conn, store_id)
    existing = neighbours_db.insights(conn, store_id, REFLECTOR)
    plans: list[Planned] = []
    made: list[list[int]] = []
    stats = dict.fromkeys(
        ("never_recalled", "persons_capped", "graph_edges", "clusters", "clusters_too_big"), 0
    )
    for person in neighbours_db.persons_unrecalled(conn, store_id):
        rows = neighbours_db.current_items(
            conn, store_id, never_recalled=True, limit=max_items, of=(person,)
        )
        members = {int(r["item_id"]): _member(r) for r in rows}
        graph = build_graph(list(members.values()), links)
        found, too_big = clusters(graph)
        stats["never_recalled"] += len(rows)
        stats["persons_capped"] += len(rows) >= max_items
        stats["graph_edges"] += graph.number_of_edges()
        stats["clusters"] += len(found)
        stats["clusters_too_big"] += too_big
        for ids in found:
            if decide(ids, existing)[0] == "skip":
                made.append(sorted(ids))
                continue
            group = [members[i] for i in ids]
            vecs = np.stack([m.embedding for m in group if m.embedding is not None])
            summary = models.summarise([m.context for m in group], vecs, SUMMARY_WORDS)
            plans.append(Planned(group, summary, cohesion(group)))
    return plans, {**stats, "read_capped": stats["persons_capped"] > 0,
                   "clusters_already_made": len(made)}, made  # fmt: skip


def _member(r: dict[str, Any]) -> Member:
    return Member(
        id=int(r["item_id"]),
        person=r["person_id"],
        context=r["context"],
        confidence=int(r["confidence"]),
        trusted=bool(r["trusted"]),
        tags=tuple(r["tags"]),
        entities=tuple(r["entities"]),
        embedding=as_array(r["embedding"]),
    )


def apply(
    conn: Conn,
    store_id: str,
    plans: list[Planned],
    embedder: Embedder,
    model: str,
    run_id: str = "",
) -> dict[str, int]:
    """Write the planned insights in the caller's transaction; returns the counts."""
    counts = dict.fromkeys(
        ("insights_created", "insights_superseded", "part_of_links", "clusters_changed"), 0
    )
    if not plans:
        return counts
    # One reflection writer per store at a time, so two runs cannot make the same insight.
    neighbours_db.lock_reflection(conn, store_id)
    # The members' persons before their rows, as every writer of several records takes them.
    items_db.lock_persons_of(conn, store_id, [m.id for p in plans for m in p.members])
    existing = neighbours_db.insights(conn, store_id, REFLECTOR)
    drafts = [insight_item(p.members, p.summary) for p in plans]
    vecs = embedder.embed([fields["context"] for fields, _ in drafts])
    for p, (fields, trusted), vec in zip(plans, drafts, vecs, strict=True):
        ids = [m.id for m in p.members]
        read = {m.id: m.context for m in p.members}
        if neighbours_db.lock_unrecalled(conn, store_id, read) != set(ids):
            counts["clusters_changed"] += 1  # a member was recalled, reworded, replaced or gone
            continue
        action, target = decide(ids, existing)
        if action == "skip":
            continue
        fields["metadata"]["cohesion"] = round(p.cohesion, 3)
        new_id = items_db.insert_item(
            conn,
            store_id,
            validate_item(fields),
            vec,
            origin="derived",
            trusted=trusted,
            written_by=REFLECTOR,
            model=model,
            fed_by=ids,
        ).item_id
        for member in ids:
            add_link(
                conn,
                store_id,
                "item",
                member,
                "item",
                new_id,
                "part_of",
                model=model,
                run_id=run_id,
            )
        counts["part_of_links"] += len(ids)
        counts["insights_created"] += 1
        if action == "supersede" and target is not None:
            items_db.supersede(conn, store_id, target, new_id, REFLECTOR)
            counts["insights_superseded"] += 1
            existing = [(i, "superseded" if i == target else s, f) for i, s, f in existing]
        existing.append((new_id, "current", ids))
    return counts


def reflect(
    db: Database,
    store_id: str,
    models: Models,
    embedder: Embedder,
    run_id: str = "",
    log: Log | None = None,
) -> dict[str, Any]:
    """One reflection pass over the store: plan on a connection (the model is asked outside
    any transaction), then write every insight, link and model call in one transaction; then
    flag the contradictions among the members of each cluster summarised (maintenance's
    contradiction judge, on those pairs only; a pair already judged in its present wording is
    not asked again)."""
    with db.connection() as conn:
        plans, stats, made = plan(conn, store_id, models)
    calls = models.drain()
    with db.transaction() as conn:
        counts = apply(conn, store_id, plans, embedder, models.backend.model, run_id)
        record_calls(conn, store_id, calls, run_id)
    # The pairs of every cluster found, its insight made now or before: a run killed after
    # writing its insights (or past the pass's budget of judgements) left some unasked, and
    # nothing else offers them again. A pair judged in its present wording is not asked again.
    clusters = [[m.id for m in p.members] for p in plans] + made
    pairs = [(a, b) for ids in clusters for n, a in enumerate(ids) for b in ids[n + 1 :]]
    judged = (
        contradiction_pass(db, store_id, models, run_id, log or (lambda _: None), among=pairs)
        if pairs
        else {"contested": 0, "judged": 0}
    )
    if log:
        log(
            f"store {store_id}: {stats['clusters']} clusters among {stats['never_recalled']}"
            f" never-recalled items, {counts['insights_created']} insights written,"
            f" {stats['clusters_already_made']} already made, {judged['contested']}"
            " contradictions flagged among their members"
        )
    return {
        **stats,
        **counts,
        "contradictions_flagged": judged["contested"],
        "model_calls": len(calls) + judged["judged"],
    }
