"""The write path agents call: turns, memory items, history and deletes for one store."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from memory_pipelines.api import boot, documents, feed
from memory_pipelines.api import commitments as commitments_api
from memory_pipelines.api import stores as stores_api
from memory_pipelines.api.dedup import Provenance, save_deduplicated
from memory_pipelines.api.turns import embed_turns
from memory_pipelines.core import policy
from memory_pipelines.core.inputs import (
    id_field,
    item_filters,
    repeated_external_ids,
    validate_turn,
)
from memory_pipelines.core.records import (
    ItemInput,
    optional_int,
    show,
    text_field,
    trust_for,
    validate_item,
)
from memory_pipelines.core.types import (
    AddedDocument,
    BootWindow,
    Commitment,
    Event,
    Item,
    ItemVersion,
    SaveResult,
    Turn,
    TurnWritten,
)
from memory_pipelines.core.vocabulary import ORIGINS
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import DEFAULT_MODEL, Embedder, get_embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import items as items_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store import versions as versions_db
from memory_pipelines.store import visibility
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database, get_database
from memory_pipelines.store.visibility import EVERYONE, Everyone, Reader

LOW_CONFIDENCE = 2  # at or below: low-confidence speculation, skipped by the save policy
MAX_SEQ = 2**31 - 1  # seq is an integer column
MAX_ID_VALUE = 2**63 - 1  # ids are bigint columns


class Memory:
    """Memory of one store: write turns, save items, read an item's history, delete.

    `Memory("acme")` uses MEMORY_PG_DSN (or the embedded server) and the default embedder, and
    creates the store on first use; with `create=False` a store that does not exist is NotFound
    (readers must not create what they read).
    """

    def __init__(
        self,
        store_id: str,
        *,
        db: Database | None = None,
        embedder: Embedder | None = None,
        dsn: str | None = None,
        model: str = DEFAULT_MODEL,
        models: Models | None = None,
        create: bool = True,
    ) -> None:
        self.store_id = store_id
        self._models = models
        self.db = db or get_database(dsn)
        self._embedder = embedder
        self._model = model
        with self.db.connection() as conn:
            if create:
                stores_db.ensure_store(conn, store_id)
            else:
                stores_db.require_store(conn, store_id)

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self._model)
        return self._embedder

    @property
    def models(self) -> Models:
        """The judge/extractor backend (the offline `local` one unless given)."""
        if self._models is None:
            self._models = Models(LocalBackend(self.embedder))
        return self._models

    # -- persons and settings -------------------------------------------------------------

    def add_person(self, person_id: str, name: str = "") -> None:
        """Register a person of this store (records can then be written for them)."""
        id_field("person", person_id)
        text_field("name", name, max_len=200, one_line=True)
        with self.db.connection() as conn:
            stores_db.add_person(conn, self.store_id, person_id, name)

    def settings(self) -> Any:
        """The store's settings (StoreSettings), defaults where nothing was configured."""
        with self.db.connection() as conn:
            return stores_db.get_settings(conn, self.store_id)

    def configure(self, **cards: Any) -> None:
        """Save settings cards, e.g. configure(extraction={"enabled": False})."""
        with self.db.connection() as conn:
            stores_db.update_settings(conn, self.store_id, cards)

    # -- turns ----------------------------------------------------------------------------

    def write_turn(
        self,
        chat: str,
        text: str,
        *,
        role: str = "user",
        speaker: str = "",
        created_at: datetime | str | None = None,
        trace_ref: str | None = None,
        external_id: str | None = None,
        person: str | None = None,
        key_id: str | None = None,
    ) -> TurnWritten:
        """Append a turn to a chat (created on first use); returns its id, chat, seq and
        whether it is new.

        The turn is embedded as it is written, so recall finds it at once.
        """
        return self.write_turns(
            chat,
            [
                dict(
                    text=text,
                    role=role,
                    speaker=speaker,
                    created_at=created_at,
                    trace_ref=trace_ref,
                    external_id=external_id,
                )
            ],
            person=person,
            key_id=key_id,
        )[0]

    def write_turns(
        self,
        chat: str,
        turns: Sequence[dict[str, Any]],
        *,
        person: str | None = None,
        key_id: str | None = None,
        embed: bool = True,
    ) -> list[TurnWritten]:
        """Append several turns in order, in one transaction, embedded in one batch.

        Turns whose external_id the chat already holds are skipped (a re-ingest writes nothing).
        With embed=False the `turn_embeddings` asset embeds them later.
        """
        id_field("chat", chat)
        id_field("person", person, nullable=True)
        id_field("key_id", key_id, nullable=True)
        if not isinstance(embed, bool):
            raise ValidationError("embed", f"must be true or false, got {embed!r}")
        if isinstance(turns, str | bytes | dict) or not isinstance(turns, Sequence):
            raise ValidationError("turns", f"must be a list of turn objects, got {show(turns)}")
        many = len(turns) > 1
        checked = [validate_turn(t, f"turns[{i}]." if many else "") for i, t in enumerate(turns)]
        twice = repeated_external_ids(checked)
        if twice is not None:
            first, again = twice
            raise ValidationError(
                f"turns[{again}].external_id", f"repeats turns[{first}]: one turn per external id"
            )
        vecs, sentences = (
            embed_turns(self.embedder, [(t.speaker, t.text) for t in checked])
            if embed and checked
            else (None, None)
        )
        with self.db.transaction() as conn:
            if person is not None and not stores_db.person_exists(conn, self.store_id, person):
                raise ValidationError("person", f"{person!r} is not a person of this store")
            chat_id = turns_db.ensure_chat(
                conn, self.store_id, chat, key_id=key_id, person_id=person
            )
            ids = turns_db.append_turns(conn, self.store_id, chat_id, checked, vecs, sentences)
        return [
            TurnWritten(turn_id=tid, chat_id=chat_id, seq=seq, new=new) for tid, seq, new in ids
        ]

    # -- documents and emails --------------------------------------------------------------

    def add_document(
        self,
        external_id: str,
        text: str,
        *,
        kind: str = "basic",
        title: str = "",
        sender: str | None = None,
        recipients: Sequence[str] = (),
        person: str | None = None,
        created_at: datetime | str | None = None,
    ) -> AddedDocument:
        """Store a document (kind `basic`) or an email (kind `email`) for recall's scopes of the
        same names, split into passages and embedded. Re-adding the same id replaces it."""
        return documents.add_document(
            self.db,
            self.embedder,
            self.store_id,
            external_id,
            text,
            kind=kind,
            title=title,
            sender=sender,
            recipients=recipients,
            person=person,
            created_at=created_at,
        )

    # -- items ----------------------------------------------------------------------------

    def save(self, item: dict[str, Any], **provenance: Any) -> SaveResult:
        """Save a memory item under the save policy, without dedup; returns what happened.

        A SaveResult: `saved` with the new item's `id` and the `item`, or `saved` False and
        `skipped` with the reason when the policy skips it (greeting, meta_chatter,
        restatement, already_in_history, speculation, budget). Raises ValidationError naming
        the field when the item is malformed; nothing is written then.

        Provenance keywords: `chat` and `turn_seq` (a save made during a turn is `derived`: as
        trusted as the least trusted item in `fed_by`, and counted against the per-turn
        budget), `from_seq`/`to_seq` (the turns it came from), `origin` (`explicit`, trusted,
        by default without a chat; `outside`, untrusted), `written_by`, `key_id` (the API key
        writing it: the record's "Written by"), `model`, `fed_by`, and `request_id`, which
        names the request the save serves in model_calls (a fresh id
        by default).
        """
        return self._save(item, dedup=False, **provenance)

    def save_with_dedup(
        self, item: dict[str, Any], *, recall: Any = None, **provenance: Any
    ) -> SaveResult:
        """Save with dedup: recall the nearest items and let the judge merge, supersede or create.

        A SaveResult: `saved` with the new item's `id` (and `superseded`, the id of the item it
        replaced), `deduplicated` with `merged_into` (`mergedInto` in JSON) when the fact was
        already known, or `saved` False with `skipped` under the save policy; `reason` is the
        judge's. Takes the same provenance keywords as `save`. `recall` is the spec's call shape
        (`m.save_with_dedup(item, recall=r)`): it must be bound to this store (one bound to
        another store is refused); dedup itself searches the store's items of the item's person.
        """
        if recall is not None and getattr(recall, "store_id", None) != self.store_id:
            raise ValidationError(
                "recall",
                f"must be a Recall bound to store {self.store_id!r}, got one of"
                f" {getattr(recall, 'store_id', recall)!r}",
            )
        return self._save(item, dedup=True, **provenance)

    def _save(
        self,
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
            raise ValidationError(
                "origin", f"must be one of {', '.join(ORIGINS)}, got {show(origin)}"
            )
        if chat is not None:
            with self.db.connection() as conn:
                owner = turns_db.get_chat(conn, self.store_id, chat).person_id
            parsed = _person_in_chat(parsed, "person" in item, owner, chat)
        origin = origin or ("derived" if chat is not None else "explicit")
        if origin == "derived" and (chat is None or turn_seq is None):
            raise ValidationError(
                "turn_seq", "a derived save needs the chat and turn_seq it is made in"
            )
        fed = [_positive_int("fed_by", f) for f in fed_by]
        recent: list[Turn] = []
        with self.db.connection() as conn:
            # Every field is checked before the policy, so a malformed item is always an error.
            self._check_references(conn, parsed, fed)
            chat_id = turns_db.get_chat(conn, self.store_id, chat).chat_id if chat else None
            first = from_seq if from_seq is not None else turn_seq
            if chat_id is not None:
                recent = turns_db.recent_turns(conn, chat_id, first, 3)
                if parsed.valid_from is None and first is not None:
                    # A fact said in a turn became true when it was said, not when it was saved.
                    parsed = replace(parsed, valid_from=turns_db.turn_time(conn, chat_id, first))
            in_history = turns_db.in_history(conn, self.store_id, parsed.context)
        reason = (
            "already_in_history"
            if in_history
            else self._policy_skip(parsed.context, parsed.confidence, recent, parsed.category)
        )
        if reason:
            return SaveResult(saved=False, skipped=reason)
        embedding = self.embedder.embed_one(parsed.context)
        try:
            with self.db.transaction() as conn:
                self._check_references(conn, parsed, fed)
                prov = Provenance(
                    origin=origin,
                    trusted=trust_for(origin, items_db.trust_of(conn, self.store_id, fed)),
                    written_by=written_by,
                    key_id=key_id,
                    chat_id=chat_id,
                    from_seq=first,
                    to_seq=to_seq if to_seq is not None else first,
                    model=model,
                    fed_by=fed,
                )
                if chat_id is not None and turn_seq is not None:
                    budget = stores_db.get_settings(conn, self.store_id).save_policy.budget_per_turn
                    if not turns_db.take_budget(conn, chat_id, turn_seq, budget):
                        raise _Skip("budget")
                if dedup:
                    result = save_deduplicated(
                        conn, self.store_id, parsed, embedding, self.models, prov
                    )
                    record_calls(conn, self.store_id, self.models.drain(), request_id)
                    return result
                saved = items_db.insert_item(
                    conn,
                    self.store_id,
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
        self, context: str, confidence: int, recent: list[Turn], category: str
    ) -> str | None:
        if confidence <= LOW_CONFIDENCE:
            return "speculation"
        texts = [f"{r.role}: {r.text}" for r in recent]
        # The same cosine the extractor's policy uses (one implementation, in models/local).
        similarity = LocalBackend(self.embedder).similarity
        return policy.skip_reason_for_item(context, texts, similarity=similarity, category=category)

    def _check_references(self, conn: Conn, item: ItemInput, fed: list[int]) -> None:
        """The person exists, and every record the item points to (edges, fed_by) is of this
        store and readable by whoever the item is for: a shared item never names a person's
        record, and a person's item never names another person's."""
        person = item.person
        if person is not None and not stores_db.person_exists(conn, self.store_id, person):
            known = stores_db.list_persons(conn, self.store_id)
            raise ValidationError(
                "person",
                f"{person!r} is not a person of store {self.store_id!r}; known: "
                f"{', '.join(known) or 'none'} (add one with add_person), or null for shared",
            )
        whom = "shared records" if person is None else f"{person!r}"
        refs = [(e.kind, e.target) for e in item.edges] + [("item", i) for i in fed]
        seen = visibility.visible(conn, self.store_id, person, refs)
        for i, e in enumerate(item.edges):
            if (e.kind, e.target) not in seen:
                raise ValidationError(
                    f"edges[{i}].target",
                    f"{e.kind} {e.target} does not exist in store {self.store_id!r} or is not"
                    f" readable by {whom}",
                )
        hidden = sorted(i for i in fed if ("item", i) not in seen)
        if hidden:
            raise ValidationError(
                "fed_by",
                f"items {hidden} do not exist in store {self.store_id!r} or are not readable"
                f" by {whom}",
            )

    # Reads take a `reader`: by default the application itself (EVERYONE: every record of the
    # store); a person, or None for a turn that is for nobody, sees the shared records and
    # their own, with references to anything else taken out (store/visibility.py).

    def get(self, item_id: int, *, reader: Reader = EVERYONE) -> Item:
        """One memory item of this store, whatever its state."""
        _positive_int("item_id", item_id)
        with self.db.connection() as conn:
            record = items_db.get_item(conn, item_id, store_id=self.store_id)
            if isinstance(reader, Everyone):
                return record
            seen = items_db.list_items(
                conn, self.store_id, state=None, ids=[item_id], reader=reader
            )
        if not seen:
            raise NotFound(f"memory item {item_id} does not exist in store {self.store_id!r}")
        return seen[0]

    def items(self, *, reader: Reader = EVERYONE, **filters: Any) -> list[Item]:
        """Items filtered by state (default current; None = all), category, person,
        min_confidence (0-1: stored confidence / 10), metadata (every key and value), limit
        (1-5000, default 100), newest change first."""
        with self.db.connection() as conn:
            return items_db.list_items(conn, self.store_id, reader=reader, **item_filters(filters))

    def history(self, item_id: int, *, reader: Reader = EVERYONE) -> list[ItemVersion]:
        """Every version of a fact, oldest first, including the items it superseded."""
        _positive_int("item_id", item_id)
        with self.db.connection() as conn:
            return versions_db.history(conn, self.store_id, item_id, reader)

    def delete_store(self, *, actor: str) -> None:
        """Delete the store with every record, turn and setting of it (a real delete). Refused
        while its extraction is on, as the console says: switch extraction off first. The
        deletion is recorded as a `delete_store` event naming the actor."""
        stores_api.delete_store(
            self.db,
            self.store_id,
            actor=actor,
            how=" (configure(extraction={'enabled': False}))",
        )

    def delete(self, item_id: int, *, actor: str) -> None:
        """Really delete an item with its versions, embedding and links; records who did it."""
        _positive_int("item_id", item_id)
        if not actor:
            raise ValidationError("actor", "is required: who deletes the item")
        text_field("actor", actor, max_len=200, one_line=True)
        with self.db.transaction() as conn:
            items_db.delete_item(conn, self.store_id, item_id, actor)

    # -- commitments and the change feed --------------------------------------------------

    def fulfil(self, item_id: int, actor: str) -> Item:
        """Mark an open commitment fulfilled (version row and event); see api.commitments."""
        return commitments_api.fulfil(self.db, self.store_id, item_id, actor)

    def cancel(self, item_id: int, actor: str) -> Item:
        """Mark an open commitment cancelled (version row and event); see api.commitments."""
        return commitments_api.cancel(self.db, self.store_id, item_id, actor)

    def commitments(self, **filters: Any) -> list[Commitment]:
        """Commitments filtered by status, overdue, person, limit (and seen by `reader`); the
        one due soonest first."""
        allowed = ("status", "overdue", "person", "limit", "reader")
        unknown = sorted(set(filters) - set(allowed))
        if unknown:
            raise ValidationError(unknown[0], f"unknown filter; allowed: {', '.join(allowed)}")
        return commitments_api.list_commitments(self.db, self.store_id, **filters)

    def subscribe(self, after_id: int = 0, **options: Any) -> Iterator[Event]:
        """The store's change feed from after_id on, in event_id order (a `reader` sees
        events about shared records and their own); see api.feed."""
        return feed.subscribe(self.store_id, after_id, db=self.db, **options)

    # -- history --------------------------------------------------------------------------

    def boot_window(
        self, chat: str, budget_tokens: int, *, reader: Reader = EVERYONE
    ) -> BootWindow:
        """A chat's whole history within budget_tokens, oldest first: the newest turns raw,
        older history as level-1 summaries, older still as level 2 and up. See
        api.boot.boot_window for the records and token counts returned."""
        return boot.boot_window(self.db, self.store_id, chat, budget_tokens, self.embedder, reader)


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


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID_VALUE:
        raise ValidationError(name, f"must be a record id (a positive integer), got {show(value)}")
    return value
