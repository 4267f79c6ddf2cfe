"""Dedup on save: recall the nearest items, let the judge decide, apply merge/supersede/create.

Runs inside the caller's transaction under an advisory lock per (store, person), so two writers
saving the same fact at once are serialised: the second sees the first's item and merges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from memory_pipelines.core.judge import JudgeDecision, JudgeItem
from memory_pipelines.core.merge import merged_fields
from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.vector_pool import VectorPool
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Conn, as_array

NEIGHBOURS = 6


@dataclass
class Provenance:
    origin: str
    trusted: bool
    written_by: str = ""
    chat_id: int | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    model: str | None = None
    fed_by: list[int] = field(default_factory=list)


# A candidate is judged against records of its own person only (shared against shared): a
# merge or supersede across persons would show one person's words to another, or take a shared
# fact away from everybody.
_REACHABLE = (
    "store_id = %(s)s AND state IN ('current', 'archived') AND person_id IS NOT DISTINCT FROM %(p)s"
)


def nearest(
    conn: Conn,
    store_id: str,
    person: str | None,
    embedding: np.ndarray,
    k: int,
    pool: DedupPool | None = None,
) -> list[dict[str, Any]]:
    """The k current (or archived) items closest to the embedding among the person's own (the
    shared ones for a shared candidate), closest first. The search is exact, so it needs
    no help from words: the k closest are the k closest. With a pool it is done in memory and
    only the chosen rows are read (and checked to be still current)."""
    if pool is None:
        where, order, ids = _REACHABLE, "embedding <=> %(e)s", []
    else:
        where, order = f"item_id = ANY(%(ids)s) AND {_REACHABLE}", "cos DESC"
        ids = pool.vectors.nearest(person, embedding, k)
    rows = (
        conn.cursor(binary=True)
        .execute(
            "SELECT item_id, person_id, category, context, confidence, source, valid_from,"
            f" embedding, 1 - (embedding <=> %(e)s) AS cos FROM agent_memory_items WHERE {where}"
            f" ORDER BY {order} LIMIT %(k)s",
            {"s": store_id, "p": person, "e": embedding, "k": k, "ids": ids},
        )
        .fetchall()
    )
    return [dict(r) for r in rows]


class DedupPool:
    """A store's item vectors in memory for a run of many saves (core/vector_pool.py). The
    run's own saves update it as they happen; `refresh()`, called at the start of each
    transaction, takes in what other writers changed since, from the change feed (every create,
    merge, supersede, archive, restore and delete is an event there)."""

    def __init__(self, conn: Conn, store_id: str, dim: int) -> None:
        self.store_id = store_id
        self.vectors = VectorPool(dim)
        self.seen = self._last_event(conn)
        for r in conn.cursor(binary=True).execute(
            "SELECT item_id, person_id, embedding FROM agent_memory_items WHERE store_id = %s"
            " AND state IN ('current', 'archived') AND embedding IS NOT NULL",
            (store_id,),
        ):
            self.vectors.put(r["item_id"], r["person_id"], as_array(r["embedding"]))

    def _last_event(self, conn: Conn) -> int:
        row = conn.execute(
            "SELECT coalesce(max(event_id), 0) AS last FROM events WHERE store_id = %s",
            (self.store_id,),
        ).fetchone()
        return int(row["last"]) if row else 0

    def lock_and_refresh(self, conn: Conn, persons: Iterable[str | None]) -> None:
        """At the start of a transaction: take the dedup locks of these persons (in one order,
        so two runs cannot deadlock), then take in what other writers committed since the last
        refresh. Saves through this pool in the transaction then skip their own lock."""
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(p))"
            " FROM unnest(%s::text[]) AS p ORDER BY p",
            (self.store_id, sorted({p or "" for p in persons})),
        )
        self.refresh(conn)

    def refresh(self, conn: Conn) -> None:
        last = self._last_event(conn)
        if last == self.seen:
            return
        for r in conn.cursor(binary=True).execute(
            "SELECT c.item_id, i.person_id, i.embedding, i.state FROM (SELECT DISTINCT item_id"
            "   FROM events WHERE store_id = %s AND event_id > %s AND event_id <= %s"
            "   AND item_id IS NOT NULL) c LEFT JOIN agent_memory_items i USING (item_id)",
            (self.store_id, self.seen, last),
        ):
            self._track(r["item_id"], r["state"], r["person_id"], r["embedding"])
        self.seen = last

    def _track(self, item_id: int, state: str | None, person: str | None, vec: Any) -> None:
        if state in ("current", "archived") and vec is not None:
            self.vectors.put(item_id, person, as_array(vec))
        else:
            self.vectors.drop(item_id)


def _judge_item(row: dict[str, Any] | ItemInput) -> JudgeItem:
    if isinstance(row, ItemInput):
        return JudgeItem(row.context, row.category, row.confidence, row.source, None)
    when: datetime = row["valid_from"]
    return JudgeItem(
        row["context"], row["category"], row["confidence"], row["source"], when.date().isoformat()
    )


def decide(
    models: Models, item: ItemInput, embedding: np.ndarray, near: list[dict[str, Any]]
) -> JudgeDecision:
    """The judge's decision, with the neighbours shown as 0..n-1, never by database id."""
    if not near:
        return JudgeDecision("create", None, "nothing similar in the store")
    existing = [_judge_item(r) for r in near]
    vecs = np.stack([as_array(r["embedding"]) for r in near])
    try:
        return models.judge(_judge_item(item), existing, embedding, vecs)
    except Invalid:
        # The answer was dropped (and counted); the offline judge decides instead of guessing.
        from memory_pipelines.core import judge as local_judge

        d = local_judge.decide(_judge_item(item), existing, embedding, vecs)
        return JudgeDecision(d.action, d.target, f"fallback after invalid answer: {d.reason}")


def save_deduplicated(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    embedding: np.ndarray,
    models: Models,
    prov: Provenance,
    pool: DedupPool | None = None,
) -> dict[str, Any]:
    """Apply the judge's decision in the caller's transaction; returns what happened. A pool
    (for runs of many saves) is searched instead of the table and kept up to date; its
    lock_and_refresh() took the lock at the start of the transaction."""
    if pool is None:
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(coalesce(%s, '')))",
            (store_id, item.person),
        )
    near = nearest(conn, store_id, item.person, embedding, NEIGHBOURS, pool)
    decision = decide(models, item, embedding, near)
    chosen = near[decision.target] if decision.target is not None else None
    target = chosen["item_id"] if chosen else None
    if decision.action == "merge" and chosen and target is not None:
        if merge_into(conn, target, item, embedding, prov.written_by or prov.model or "") and pool:
            pool.vectors.put(target, chosen["person_id"], embedding)
        return {"deduplicated": True, "mergedInto": target, "reason": decision.reason}
    new_id = items_db.insert_item(
        conn,
        store_id,
        item,
        embedding,
        origin=prov.origin,
        trusted=prov.trusted,
        written_by=prov.written_by,
        chat_id=prov.chat_id,
        from_seq=prov.from_seq,
        to_seq=prov.to_seq,
        model=prov.model,
        fed_by=prov.fed_by,
    )
    if pool is not None:
        pool.vectors.put(new_id, item.person, embedding)
    if decision.action == "supersede" and target is not None:
        supersede(conn, store_id, target, new_id, prov.written_by or prov.model or "")
        if pool is not None:
            pool.vectors.drop(target)
        return {"id": new_id, "superseded": target, "reason": decision.reason}
    return {"id": new_id, "reason": decision.reason}


def merge_into(
    conn: Conn, item_id: int, cand: ItemInput, embedding: np.ndarray, actor: str
) -> bool:
    """Evolve an item with a candidate that states the same fact (humble merge). Returns whether
    its text (and so its embedding) changed."""
    old = items_db.get_item(conn, item_id, for_update=True)
    new = merged_fields(old, cand)
    record = conn.execute(
        "UPDATE agent_memory_items SET context = %(context)s, body = %(body)s,"
        " source = %(source)s, confidence = %(confidence)s, tags = %(tags)s,"
        " entities = %(entities)s, keywords = %(keywords)s, edges = %(edges)s,"
        " metadata = %(metadata)s, importance = %(importance)s, confirm_count = confirm_count + 1,"
        " last_confirmed_at = now(), updated_at = now(),"
        " embedding = CASE WHEN %(text_changed)s THEN %(embedding)s ELSE embedding END,"
        " state = CASE WHEN state = 'archived' THEN 'current' ELSE state END"
        f" WHERE item_id = %(id)s RETURNING {items_db.SELECT_RECORD}",
        {
            **new,
            "edges": Jsonb(new["edges"]),
            "metadata": Jsonb(new["metadata"]),
            "embedding": embedding,
            "id": item_id,
        },
    ).fetchone()
    for e in cand.edges:
        items_db.add_link(conn, old["store_id"], "item", item_id, e.kind, e.id, e.type, model=actor)
    snapshot = dict(record) if record else None
    if snapshot is not None and new["metadata_dropped"]:  # the candidate's values not kept
        snapshot["dropped"] = {"metadata": new["metadata_dropped"]}
    items_db.write_version(conn, item_id, "merge", actor, snapshot)
    items_db.record_event(conn, old["store_id"], "merge", item_id, actor)
    if old["state"] == "archived":
        items_db.record_event(conn, old["store_id"], "restore", item_id, actor)
    return bool(new["text_changed"])


def supersede(conn: Conn, store_id: str, old_id: int, new_id: int, actor: str) -> None:
    """Retire the old item in favour of the new one; its wording stays in the history."""
    conn.execute(
        "UPDATE agent_memory_items o SET state = 'superseded', superseded_by = %s,"
        " valid_until = greatest(n.valid_from, o.valid_from), updated_at = now()"
        " FROM agent_memory_items n WHERE o.item_id = %s AND n.item_id = %s",
        (new_id, old_id, new_id),
    )
    items_db.add_link(conn, store_id, "item", new_id, "item", old_id, "supersedes", model=actor)
    items_db.write_version(conn, old_id, "superseded", actor)
    items_db.record_event(conn, store_id, "supersede", old_id, actor, {"by": new_id})
