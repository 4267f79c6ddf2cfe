"""The write path agents call: turns, memory items, history and deletes for one store."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from memory_pipelines.api import boot, documents, feed
from memory_pipelines.api import commitments as commitments_api
from memory_pipelines.api import stores as stores_api
from memory_pipelines.api.saving import save_item, skill_text
from memory_pipelines.api.turns import embed_new_turns
from memory_pipelines.core.inputs import (
    id_field,
    item_filters,
    record_id,
    repeated_external_ids,
    validate_turn,
)
from memory_pipelines.core.records import (
    show,
    text_field,
)
from memory_pipelines.core.types import (
    AddedDocument,
    BootWindow,
    Commitment,
    Event,
    Item,
    ItemVersion,
    SaveResult,
    TurnWritten,
)
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import DEFAULT_MODEL, Embedder, get_embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import item_reads
from memory_pipelines.store import items as items_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store import versions as versions_db
from memory_pipelines.store.db import Database, get_database
from memory_pipelines.store.visibility import EVERYONE, Everyone, Reader


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
        id_field("person", person_id, new=True)
        text_field("name", name, max_len=200, one_line=True)
        with self.db.connection() as conn:
            stores_db.add_person(conn, self.store_id, person_id, name)

    def persons(self) -> list[dict[str, str]]:
        """The store's persons, [{person, name}] by id."""
        with self.db.connection() as conn:
            return stores_db.list_persons(conn, self.store_id)

    def settings(self) -> Any:
        """The store's settings (StoreSettings), defaults where nothing was configured."""
        with self.db.connection() as conn:
            return stores_db.get_settings(conn, self.store_id)

    def skill(self) -> str:
        """The _memory skill for this store: its save policy as an agent is taught it
        (Markdown for the agent's instructions; core/skill.py). The write path enforces it."""
        return skill_text(self.settings())

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
        turn = dict(
            text=text,
            role=role,
            speaker=speaker,
            created_at=created_at,
            trace_ref=trace_ref,
            external_id=external_id,
        )
        validate_turn(turn, "")  # a bad field named as this method's argument ("text")
        return self.write_turns(chat, [turn], person=person, key_id=key_id)[0]

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
        id_field("chat", chat, new=True)
        id_field("person", person, nullable=True)
        id_field("key_id", key_id, nullable=True)
        if not isinstance(embed, bool):
            raise ValidationError("embed", f"must be true or false, got {embed!r}")
        if isinstance(turns, str | bytes | dict) or not isinstance(turns, Sequence):
            raise ValidationError("turns", f"must be a list of turn objects, got {show(turns)}")
        checked = [validate_turn(t, f"turns[{i}].") for i, t in enumerate(turns)]
        twice = repeated_external_ids(checked)
        if twice is not None:
            first, again = twice
            raise ValidationError(
                f"turns[{again}].external_id", f"repeats turns[{first}]: one turn per external id"
            )
        vecs, sentences = (
            embed_new_turns(self.db, self.embedder, self.store_id, chat, checked)
            if embed and checked
            else (None, None)
        )
        with self.db.transaction() as conn:
            stores_db.require_person(conn, self.store_id, person)
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
        same names, split into passages and embedded. Re-adding the same id replaces it, for
        the same person or a shared one's (ValidationError on `external_id` otherwise)."""
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
        return save_item(
            self.db, self.store_id, self.embedder, self.models, item, dedup=False, **provenance
        )

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
        return save_item(
            self.db, self.store_id, self.embedder, self.models, item, dedup=True, **provenance
        )

    # Reads take a `reader`: by default the application itself (EVERYONE: every record of the
    # store); a person, or None for a turn that is for nobody, sees the shared records and
    # their own, with references to anything else taken out (store/visibility.py).

    def get(self, item_id: int, *, reader: Reader = EVERYONE) -> Item:
        """One memory item of this store, whatever its state."""
        record_id("item_id", item_id)
        with self.db.connection() as conn:
            record = items_db.get_item(conn, item_id, store_id=self.store_id)
            if isinstance(reader, Everyone):
                return record
            seen = item_reads.list_items(
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
            return item_reads.list_items(
                conn, self.store_id, reader=reader, **item_filters(filters)
            )

    def history(self, item_id: int, *, reader: Reader = EVERYONE) -> list[ItemVersion]:
        """Every version of a fact, oldest first, including the items it superseded."""
        record_id("item_id", item_id)
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
        record_id("item_id", item_id)
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
