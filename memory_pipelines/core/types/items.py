"""Memory items, their versions, the change feed's events and commitments."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field, computed_field

from memory_pipelines.core.types.base import Record, Result
from memory_pipelines.core.vocabulary import (
    CommitmentStatus,
    LinkType,
    ObjectKind,
    Origin,
    Source,
    State,
)


class Edge(Record):
    """A typed link an item names: `type` from the link vocabulary, to the record `kind:target`
    (stored in the item's `edges` and as a row of `links`)."""

    type: LinkType
    kind: ObjectKind = "item"
    target: int


class Item(Record):
    """A memory item (a row of agent_memory_items): one distilled fact, its provenance, its
    place in time (valid_from .. valid_until) and in the store's history (state, superseded_by),
    and how it was used. `person_id` None means shared with every turn of the store."""

    item_id: int
    store_id: str
    person_id: str | None
    category: str
    context: str
    body: str
    confidence: int
    importance: int | None
    tags: list[str]
    # Set when written, read-only afterwards (versions written before labels existed lack it).
    labels: list[str] = []
    entities: list[str]
    keywords: list[str]
    edges: list[Edge]
    metadata: dict[str, Any]
    valid_from: datetime
    valid_until: datetime | None
    state: State
    superseded_by: int | None
    contested: bool
    contested_with: list[int]
    source: Source
    origin: Origin
    trusted: bool
    written_by: str
    # The API key that wrote it (None: the application, a job or the command line).
    key_id: str | None = None
    chat_id: int | None
    from_seq: int | None
    to_seq: int | None
    model: str | None
    fed_by: list[int]
    status: CommitmentStatus | None
    due_at: datetime | None
    owed_to: str | None
    # How often and when search returned it; None on a shared record read by a key limited
    # to one person (store/visibility.others_recalls: every person's searches count).
    access_count: int | None
    last_recalled_at: datetime | None
    last_confirmed_at: datetime | None
    confirm_count: int
    created_at: datetime
    updated_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kind(self) -> Literal["item"]:
        """The record's kind, as refs name it ("item:42")."""
        return "item"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> int:
        return self.item_id


class ItemSnapshot(Item):
    """An item as one of its versions recorded it; a merge also records the candidate's
    metadata values the item's own overrode (`dropped`), and a change the dedup judge decided
    records why (`reason`: "the list grew", "same fact (cos 0.81)", ...)."""

    dropped: dict[str, Any] | None = None
    reason: str | None = None


class ItemVersion(Record):
    """One version of an item (a row of item_versions): what changed it, who, when, and the
    whole item after the change."""

    item_id: int
    version: int
    change: str
    actor: str
    changed_at: datetime
    snapshot: ItemSnapshot


class Event(Record):
    """One event of a store's change feed (create, merge, supersede, archive, restore, delete,
    contest, fulfil, cancel, evolve, overdue, activate, ...), in event_id order."""

    event_id: int
    store_id: str
    kind: str
    item_id: int | None
    actor: str
    payload: dict[str, Any]
    created_at: datetime


class Commitment(Record):
    """A commitment as the `commitments` view shows it: what was promised, to whom, by when."""

    item_id: int
    store_id: str
    person_id: str | None
    context: str
    status: CommitmentStatus
    due_at: datetime | None
    owed_to: str | None
    confidence: int
    state: State
    overdue: bool
    created_at: datetime
    updated_at: datetime


class SaveResult(Result):
    """What a save did. `saved` False: the save policy skipped it (`skipped` says why: greeting,
    meta_chatter, restatement, already_in_history, speculation, budget). Saved: the new item's
    `id` (and the `item` itself from `save`), the item it `superseded`, or, when the fact was
    known already, `deduplicated` with the item it was merged into (`mergedInto` in JSON). With
    dedup, `reason` is the judge's, and `fulfilled` the open commitment of the same person the
    saved statement reports done ("Maya paid Tom back" fulfils "Maya will pay Tom back"):
    it is marked fulfilled in the same transaction (core/fulfilment.py); `cancelled` the one
    it calls off ("Forget the receipts" cancels "Tomas will get the receipts to Mr. Thornton",
    core/called_off.py). To a key that may
    write the person's memory but not read it, only `saved` (and a skip in the statement's own
    words): api/writes.save."""

    model_config = ConfigDict(frozen=True, serialize_by_alias=True)

    saved: bool
    id: int | None = None
    item: Item | None = None
    skipped: str | None = None
    deduplicated: bool = False
    merged_into: int | None = Field(default=None, serialization_alias="mergedInto")
    superseded: int | None = None
    reason: str | None = None
    fulfilled: int | None = None
    cancelled: int | None = None
