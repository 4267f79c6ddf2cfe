"""The Records list and one record's page, as the console and the HTTP API show them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from memory_pipelines.core.types.base import Result
from memory_pipelines.core.types.items import Item, ItemVersion


class WrittenBy(Result):
    """Who wrote a record: the key (written through the API), the model above the key whose
    conversation it came from (derived during a turn), or the application itself (a job, the
    command line, the Python API without a key)."""

    kind: Literal["key", "model", "application"]
    key_id: str | None = Field(
        description="the key that wrote it, or the key whose conversation it was derived in"
    )
    model: str | None = Field(None, description="the model that derived it")
    name: str = Field(description="the writer in words, e.g. `key 3f2a...` or `the model above…`")


class ListedRecord(Item):
    """A record as a list shows it: the record, who wrote it, and its confidence as this reader
    reads it (0-1: the stored confidence, halved per half-life of its type since Updated, the
    reading key's decay per type first, the store's for the rest)."""

    written: WrittenBy
    confidence_as_read: float = Field(ge=0, le=1)


class RecordPage(Result):
    """One page of the Records list, newest change first. `total` counts every record the
    filters match (not only this page); `next` is the cursor of the following page (pass it as
    `after`), None on the last page: a list is never cut short without saying so."""

    records: list[ListedRecord]
    total: int
    next: str | None


class Feeder(Result):
    """An item that fed a derived record: its id and its own trust (what it said is read in the
    conversation, not here)."""

    item_id: int
    trusted: bool


class TrustOrigin(Result):
    """The Trust and origin card: who added the record and whether the store vouches for it.
    For a derived record, the model, the conversation and every item that fed it."""

    origin: Literal["explicit", "derived", "outside"]
    trusted: bool
    written: WrittenBy
    model: str | None
    chat_id: int | None
    chat: str | None = Field(description="the conversation's id as its application named it")
    from_seq: int | None
    to_seq: int | None
    fed_by: list[Feeder]


class ReadBy(Result):
    """One read of a record (a row of read_audit): who, when, through what."""

    audit_id: int
    at: datetime
    key_id: str | None
    account_id: int | None
    actor: str
    endpoint: str


class RecordLife(Result):
    """One record with its life: the record (labels, state, valid from/until, last confirmed
    and recalled, recall count, commitment fields are its fields), the record that replaced it
    and those it contradicts (ids: open them to read them), its trust and origin, and who read
    it (newest first, this read included)."""

    record: ListedRecord
    still_valid: bool = Field(description="current: valid until nothing replaces it")
    replaced_by: int | None
    contradicts: list[int]
    trust: TrustOrigin
    readers: list[ReadBy]
    readers_total: int


class NamedRecord(Result):
    """A record another record's page names (the one that replaced it, one it contradicts):
    its id, its one-line wording and its state."""

    item_id: int
    context: str
    state: Literal["current", "superseded", "archived"]


class RecordView(Result):
    """A record's whole page (the console's): its life, every version of its fact oldest
    first, the records it names with their wording, and its type's half-life in days as the
    reader's decay has it (None: the type never decays)."""

    life: RecordLife
    history: list[ItemVersion]
    named: list[NamedRecord]
    half_life_days: float | None
