"""Dedup on save: recall the nearest items, let the judge decide, apply merge/supersede/create.

Runs inside the caller's transaction under the per-person lock (store.items.lock_persons), so
two writers saving the same fact at once are serialised: the second sees the first's item and
merges.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from memory_pipelines.api.commitments import close_in
from memory_pipelines.api.dedup_near import (
    NEIGHBOURS,
    DedupPool,
    Provenance,
    nearest,
    other_sentence_of_turn,
    said_by_others,
)
from memory_pipelines.core import judge as local_judge
from memory_pipelines.core.called_off import calls_off
from memory_pipelines.core.fulfilment import promise_kept_whole, promise_moved, reports_done
from memory_pipelines.core.judge import JudgeDecision, JudgeItem
from memory_pipelines.core.merge import merged_fields
from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.types import Item, SaveResult
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.store import items as items_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Conn
from memory_pipelines.store.links import add_link


def _judge_item(item: Item | ItemInput) -> JudgeItem:
    if isinstance(item, ItemInput):
        # a correction extraction keeps as what is true now is judged as it was said, the old
        # value named (core/extract.py): that is how the record it replaces is found
        said = (item.metadata or {}).get("judged_as") if item.source == "machine" else None
        return JudgeItem(
            said if isinstance(said, str) and said else item.context,
            item.category,
            item.confidence,
            item.source,
            None,
            item.owed_to,
        )
    return JudgeItem(
        item.context,
        item.category,
        item.confidence,
        item.source,
        item.valid_from.date().isoformat(),
        item.owed_to,
    )


def decide(
    models: Models,
    item: ItemInput,
    embedding: np.ndarray,
    near: list[tuple[Item, np.ndarray]],
    prov: Provenance | None = None,
) -> JudgeDecision:
    """The judge's decision, with the neighbours shown as 0..n-1, never by database id; `target`
    indexes `near`. Items from another sentence of the candidate's own turn are not shown: they
    are other facts, never the one to merge into or replace."""
    shown = [
        i
        for i, (r, _) in enumerate(near)
        if prov is None or not other_sentence_of_turn(item, prov, r)
    ]
    if not shown:
        why = "nothing similar in the store" if not near else "only other sentences of its turn"
        return JudgeDecision("create", None, why)
    existing = [_judge_item(near[i][0]) for i in shown]
    vecs = np.stack([near[i][1] for i in shown])
    candidate = replace(_judge_item(item), said_by=prov.speaker if prov else None)
    try:
        d = models.judge(candidate, existing, embedding, vecs)
    except Invalid:
        # The answer was dropped (and counted); the offline judge decides instead of guessing.
        d = local_judge.decide(candidate, existing, embedding, vecs)
        d = JudgeDecision(d.action, d.target, f"fallback after invalid answer: {d.reason}")
    d = promise_kept_whole(d, candidate, existing)
    return JudgeDecision(d.action, None if d.target is None else shown[d.target], d.reason)


def save_deduplicated(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    embedding: np.ndarray,
    models: Models,
    prov: Provenance,
    pool: DedupPool | None = None,
) -> SaveResult:
    """Apply the judge's decision in the caller's transaction; returns what happened. A pool
    (for runs of many saves) is searched instead of the table and kept up to date; its
    lock_and_refresh() took the lock at the start of the transaction."""
    if pool is None:
        items_db.lock_persons(conn, store_id, [item.person])
    near = nearest(conn, store_id, item.person, embedding, NEIGHBOURS, pool)
    others = said_by_others(conn, prov, near, None if pool is None else pool.speakers)
    near = [n for n in near if n[0].item_id not in others]
    done = _closed_by(conn, store_id, item, near, prov)
    if not done:
        return _apply(conn, store_id, item, embedding, models, prov, pool, near)
    # A report that a promise was kept, or called off, is a fact of its own, never a
    # restatement of the promise (the same promise saved twice included) nor its new value:
    # the judge sees the other neighbours, and each such commitment is closed.
    closing = {c.item_id for c, _ in done}
    near = [n for n in near if n[0].item_id not in closing]
    saved = _apply(conn, store_id, item, embedding, models, prov, pool, near)
    closed: dict[str, int] = {}
    for commitment, status in done:
        try:
            close_in(
                conn,
                store_id,
                commitment.item_id,
                status,
                prov.written_by or prov.model or "extraction",
                {"reported_in": saved.id or saved.merged_into},
            )
        except ValidationError:  # closed or replaced by another writer since it was read
            continue
        closed.setdefault(status, commitment.item_id)
    return saved.model_copy(update=closed) if closed else saved


def _closed_by(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    near: list[tuple[Item, np.ndarray]],
    prov: Provenance,
) -> list[tuple[Item, str]]:
    """The open commitments among the neighbours, of the candidate's own person exactly (not
    a shared one), that the candidate reports done ("fulfilled", core/fulfilment.py) or calls
    off ("cancelled", core/called_off.py), nearest first (two are the same promise saved
    twice). Not from a statement said in another person's chat than the commitment's: its
    closing would tell the commitment's readers that something was said there. Nor from a
    statement the store does not vouch for (a tool's output, a save from outside): a page
    saying "Ana paid the rent" closes nothing."""
    if item.category == "commitment" or not prov.trusted:
        return []
    out = []
    for other, _ in near:
        if not (
            other.category == "commitment"
            # a shared promise is closed by nobody's own statement: its readers would learn
            # that the person said something
            and other.person_id == item.person
            and other.status == "open"
            and other.state == "current"
        ):
            continue
        if reports_done(other.context, item.context):
            status = "fulfilled"
        elif calls_off(other.context, item.context, other.owed_to):
            status = "cancelled"
        else:
            continue
        if _chat_person(conn, store_id, prov.chat_id, other) is None:
            out.append((other, status))
    return out


def _apply(
    conn: Conn,
    store_id: str,
    item: ItemInput,
    embedding: np.ndarray,
    models: Models,
    prov: Provenance,
    pool: DedupPool | None,
    near: list[tuple[Item, np.ndarray]],
) -> SaveResult:
    """The judge's decision among the neighbours, applied."""
    decision = decide(models, item, embedding, near, prov)
    chosen = near[decision.target][0] if decision.target is not None else None
    if chosen is not None and not items_db.lock_if_live(conn, chosen.item_id):
        # Replaced or deleted since it was read (reflection or maintenance replaces, a delete
        # goes, without the dedup lock): merged into, it would hold the statement out of
        # every recall; superseded, it would be taken from the record that replaced it.
        decision = JudgeDecision(
            "create", None, f"{decision.reason}; but item {chosen.item_id} was replaced"
            " or deleted meanwhile"
        )  # fmt: skip
        chosen = None
    if (
        decision.action == "supersede"
        and chosen is not None
        and chosen.trusted
        and not prov.trusted
    ):
        # A statement the store does not vouch for (a tool's output, a save from outside)
        # replaces no record it vouches for ("Ana's account is now GB29..." from a fetched
        # page): it stands beside it, untrusted, for a person or a trusted statement to settle.
        decision = JudgeDecision(
            "create", None, f"{decision.reason}; but an untrusted statement replaces no trusted"
            f" record (item {chosen.item_id})"
        )  # fmt: skip
        chosen = None
    actor = prov.written_by or prov.model or ""
    if (
        decision.action == "supersede"
        and chosen is not None
        and not calls_off(chosen.context, item.context)
    ):
        item = promise_moved(item, chosen)  # a promise put off is still owed (not called off)
    if decision.action == "merge" and chosen is not None:
        written_in = _chat_person(conn, store_id, prov.chat_id, chosen)
        reason = decision.reason
        merged = merge_into(
            conn, chosen.item_id, item, embedding, actor, reason, written_in, prov.trusted
        )
        if merged and pool:
            pool.vectors.put(chosen.item_id, chosen.person_id, embedding)
        return SaveResult(
            saved=True, deduplicated=True, merged_into=chosen.item_id, reason=decision.reason
        )
    new = items_db.insert_item(
        conn,
        store_id,
        item,
        embedding,
        origin=prov.origin,
        trusted=prov.trusted,
        written_by=prov.written_by,
        key_id=prov.key_id,
        chat_id=prov.chat_id,
        from_seq=prov.from_seq,
        to_seq=prov.to_seq,
        model=prov.model,
        fed_by=prov.fed_by,
        reason=decision.reason,
    )
    if pool is not None:
        pool.vectors.put(new.item_id, item.person, embedding)
    if decision.action == "supersede" and chosen is not None:
        items_db.supersede(
            conn, store_id, chosen.item_id, new.item_id, actor, reason=decision.reason
        )
        if pool is not None:
            pool.vectors.drop(chosen.item_id)
        return SaveResult(
            saved=True, id=new.item_id, superseded=chosen.item_id, reason=decision.reason
        )
    return SaveResult(saved=True, id=new.item_id, reason=decision.reason)


def _chat_person(conn: Conn, store_id: str, chat_id: int | None, into: Item) -> str | None:
    """Whose chat a save that merges into `into` was said in, when a person's other than the
    record's own chat (there, the record's own chat hides who wrote)."""
    if chat_id is None or chat_id == into.chat_id:
        return None
    chat = turns_db.chat_by_id(conn, store_id, chat_id)
    return chat.person_id if chat else None


def merge_into(
    conn: Conn,
    item_id: int,
    cand: ItemInput,
    embedding: np.ndarray,
    actor: str,
    reason: str = "",
    written_in: str | None = None,
    trusted: bool = True,
) -> bool:
    """Evolve an item with a candidate that states the same fact (humble merge); `reason` goes
    into the version row, `written_in` whose chat the candidate was said in (a person's: the
    version's actor is hidden from others). A candidate the store does not vouch for
    (`trusted` False) that changes anything of the item (its words, body, confidence, labels,
    metadata or links: more than a confirmation) makes the item untrusted too: a derived
    record is as trustworthy as the least trustworthy text that fed it. Returns whether its
    text (and so its embedding) changed."""
    old = items_db.get_item(conn, item_id, for_update=True)
    new = merged_fields(old, cand)
    changed = bool(new.pop("text_changed"))
    dropped = new.pop("metadata_dropped")
    took = cand.edges or any(new[k] != getattr(old, k) for k in new)  # more than a confirmation
    new["trusted"] = old.trusted and (trusted or not took)
    items_db.merge_item(
        conn,
        old,
        new,
        embedding if changed else None,
        actor,
        {"metadata": dropped} if dropped else None,
        reason,
        written_in,
    )
    for e in cand.edges:
        add_link(conn, old.store_id, "item", item_id, e.kind, e.target, e.type, model=actor)
    return changed
