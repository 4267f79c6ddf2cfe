"""Saving a memory item: validation, provenance, the save policy, the per-turn budget, then a
plain insert or dedup (api/dedup.py). Memory.save and Memory.save_with_dedup call it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from memory_pipelines.api.dedup import save_deduplicated
from memory_pipelines.api.dedup_near import Provenance
from memory_pipelines.core import policy
from memory_pipelines.core.inputs import id_field, record_id
from memory_pipelines.core.records import (
    ItemInput,
    optional_int,
    show,
    text_field,
    trust_for,
    validate_item,
)
from memory_pipelines.core.settings import StoreSettings
from memory_pipelines.core.skill import memory_skill
from memory_pipelines.core.types import SaveResult, Turn
from memory_pipelines.core.vocabulary import ORIGINS
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import item_reads, visibility
from memory_pipelines.store import items as items_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database

LOW_CONFIDENCE = policy.LOW_CONFIDENCE
MAX_SEQ = 2**31 - 1  # seq is an integer column


def save_item(
    db: Database,
    store_id: str,
    embedder: Embedder,
    models: Models,
    item: dict[str, Any],
    *,
    dedup: bool,
    chat: str | None = None,
    turn_seq: int | None = None,
    from_seq: int | None = None,
    to_seq: int | None = None,
    origin: str | None = None,
    written_by: str = "",
    key_id: str | None = None,
    model: str | None = None,
    fed_by: Sequence[int] = (),
    request_id: str | None = None,
) -> SaveResult:
    """Validate an item, apply the save policy and write it (with dedup: the judge decides
    merge, supersede or create against the person's nearest items); see Memory.save for the
    provenance keywords and what comes back. Nothing is written when a field is wrong."""
    parsed = validate_item(item)
    id_field("key_id", key_id, nullable=True)
    id_field("chat", chat, nullable=True)
    # Every metered call names what it served: the caller's request (the HTTP API passes
    # its own), or a fresh id for this one save.
    text_field("request_id", request_id, max_len=200, nullable=True, one_line=True)
    request_id = request_id or f"request:{uuid.uuid4().hex}"
    turn_seq, from_seq, to_seq = (
        optional_int(name, value, 1, MAX_SEQ)
        for name, value in (("turn_seq", turn_seq), ("from_seq", from_seq), ("to_seq", to_seq))
    )
    text_field("written_by", written_by, max_len=200, one_line=True)
    text_field("model", model, max_len=200, nullable=True, one_line=True)
    if isinstance(fed_by, str | bytes) or not isinstance(fed_by, Sequence):
        raise ValidationError("fed_by", f"must be a list of item ids, got {show(fed_by)}")
    if origin is not None and (not isinstance(origin, str) or origin not in ORIGINS):
        raise ValidationError("origin", f"must be one of {', '.join(ORIGINS)}, got {show(origin)}")
    if chat is None:  # a turn's place means nothing without its conversation
        for name, value in (("turn_seq", turn_seq), ("from_seq", from_seq), ("to_seq", to_seq)):
            if value is not None:
                raise ValidationError(name, "needs chat: the conversation the turn is in")
    owner = None  # the chat's person (None: a shared chat, or no chat)
    if chat is not None:
        with db.connection() as conn:
            owner = turns_db.get_chat(conn, store_id, chat).person_id
        parsed = _person_in_chat(parsed, "person" in item, owner, chat)
    origin = origin or ("derived" if chat is not None else "explicit")
    if origin == "derived" and (chat is None or turn_seq is None):
        raise ValidationError(
            "turn_seq", "a derived save needs the chat and turn_seq it is made in"
        )
    fed = [record_id("fed_by", f) for f in fed_by]
    recent: list[Turn] = []
    with db.connection() as conn:
        # Every field is checked before the policy, so a malformed item is always an error.
        _check_references(conn, store_id, parsed, fed)
        chat_id = turns_db.get_chat(conn, store_id, chat).chat_id if chat else None
        first = from_seq if from_seq is not None else turn_seq
        if chat_id is not None:
            recent = turns_db.recent_turns(conn, chat_id, first, 3)
            if parsed.valid_from is None and first is not None:
                # A fact said in a turn became true when it was said, not when it was saved.
                parsed = replace(parsed, valid_from=turns_db.turn_time(conn, chat_id, first))
        in_history = turns_db.in_history(conn, store_id, parsed.context, parsed.person)
    reason = (
        "already_in_history"
        if in_history
        else _policy_skip(embedder, parsed.context, parsed.confidence, recent, parsed.category)
    )
    if reason:
        return SaveResult(saved=False, skipped=reason)
    embedding = embedder.embed_one(parsed.context)
    try:
        with db.transaction() as conn:
            _check_references(conn, store_id, parsed, fed)
            prov = Provenance(
                origin=origin,
                trusted=trust_for(origin, item_reads.trust_of(conn, store_id, fed)),
                written_by=written_by,
                key_id=key_id,
                chat_id=chat_id,
                from_seq=first,
                to_seq=to_seq if to_seq is not None else first,
                model=model,
                fed_by=fed,
            )
            if chat_id is not None and turn_seq is not None:
                budget = stores_db.get_settings(conn, store_id).save_policy.budget_per_turn
                # a person's chat is one budget, shared saves made there too; a shared
                # chat's is per person, so nobody's saves are counted against another's
                whose = parsed.person or owner
                if not turns_db.take_budget(conn, chat_id, turn_seq, budget, whose):
                    raise _Skip("budget")
            if dedup:
                result = save_deduplicated(conn, store_id, parsed, embedding, models, prov)
                record_calls(conn, store_id, models.drain(), request_id)
                return result
            saved = items_db.insert_item(
                conn,
                store_id,
                parsed,
                embedding,
                origin=prov.origin,
                trusted=prov.trusted,
                written_by=written_by,
                key_id=key_id,
                chat_id=chat_id,
                from_seq=prov.from_seq,
                to_seq=prov.to_seq,
                model=model,
                fed_by=fed,
            )
    except _Skip as skip:
        return SaveResult(saved=False, skipped=skip.reason)
    return SaveResult(saved=True, id=saved.item_id, item=saved)


def _policy_skip(
    embedder: Embedder, context: str, confidence: int, recent: list[Turn], category: str
) -> str | None:
    if confidence <= LOW_CONFIDENCE:
        return "speculation"
    texts = [f"{r.role}: {r.text}" for r in recent]
    # The same cosine the extractor's policy uses (one implementation, in models/local).
    similarity = LocalBackend(embedder).similarity
    return policy.skip_reason_for_item(context, texts, similarity=similarity, category=category)


def _check_references(conn: Conn, store_id: str, item: ItemInput, fed: list[int]) -> None:
    """The person exists, and every record the item points to (edges, fed_by) is of this
    store and readable by whoever the item is for: a shared item never names a person's
    record, and a person's item never names another person's."""
    person = item.person
    stores_db.require_person(conn, store_id, person)
    whom = "shared records" if person is None else f"{person!r}"
    refs = [(e.kind, e.target) for e in item.edges] + [("item", i) for i in fed]
    seen = visibility.visible(conn, store_id, person, refs)
    for i, e in enumerate(item.edges):
        if (e.kind, e.target) not in seen:
            raise ValidationError(
                f"edges[{i}].target",
                f"{e.kind} {e.target} does not exist in store {store_id!r} or is not"
                f" readable by {whom}",
            )
    hidden = sorted(i for i in fed if ("item", i) not in seen)
    if hidden:
        raise ValidationError(
            "fed_by",
            f"items {hidden} do not exist in store {store_id!r} or are not readable by {whom}",
        )


def _person_in_chat(item: ItemInput, named: bool, owner: str | None, chat: str) -> ItemInput:
    """Whom an item saved during a turn is for: the chat's person unless the item says (null
    shares it); never somebody else than the chat's person, whose words it comes from."""
    if not named:
        return replace(item, person=owner)
    if owner is not None and item.person is not None and item.person != owner:
        raise ValidationError(
            "person",
            f"chat {chat!r} is for {owner!r}: an item saved in it is for {owner!r}, or null to"
            f" share it, got {item.person!r}",
        )
    return item


class _Skip(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def skill_text(settings: StoreSettings) -> str:
    """The _memory skill for a store of these settings (core/skill.py): the policy this module
    enforces, with the store's budget per turn and record types."""
    return memory_skill(
        settings.save_policy.budget_per_turn, LOW_CONFIDENCE, settings.extraction.types
    )
