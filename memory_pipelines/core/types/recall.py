"""What recall reads and returns: document passages, hits, and the records of its other axes
(by period, neighbours, drill-down), and what auto-recall injects."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import computed_field

from memory_pipelines.core.types.base import Record, Result
from memory_pipelines.core.types.history import Chunk, Turn
from memory_pipelines.core.vocabulary import State


class Passage(Record):
    """One passage of a document (kind basic) or an email (kind email), a row of documents;
    `part` counts the passages of one document from 1."""

    passage_id: int
    store_id: str
    kind: Literal["basic", "email"]
    external_id: str
    part: int
    title: str
    text: str
    sender: str | None
    recipients: list[str]
    person_id: str | None
    created_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> int:
        return self.passage_id

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ref(self) -> str:
        """The passage as refs name it ("document:3", "email:5"); its `kind` is the document's
        (basic or email)."""
        return f"{'email' if self.kind == 'email' else 'document'}:{self.passage_id}"


class Hit(Result):
    """One search result: the record's kind (item, turn, chunk, document or email) and id, its
    score, its display text and time, where it sits in a chat, and the short fields of its
    kind in `extra` (category, confidence, speaker, title, sender, the cosine `cos`, ...)."""

    kind: str
    id: int
    score: float
    text: str
    at: datetime | None = None
    chat_id: int | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    extra: dict[str, Any] = {}

    @property
    def ref(self) -> str:
        """The handle for neighbors() and drill_down(): "kind:id"."""
        return f"{self.kind}:{self.id}"


class PeriodRecord(Result):
    """A record of a period, in time order: an item (at its valid_from, labelled by its
    category), a turn (created_at, its speaker) or a chunk (period_start, L1, L2, ...)."""

    kind: Literal["item", "turn", "chunk"]
    id: int
    at: datetime
    text: str
    label: str


class PeriodPage(Result):
    """A page of by_period: its records in time order and the cursor of the next page (pass
    it as `after`; None on the last page)."""

    records: list[PeriodRecord]
    next: str | None


class Neighbor(Result):
    """A link of a record: `out` of it or `back` into it, its type and confidence, and the
    record at the other end with its name (an item's context, a turn's words, a summary), its
    time (`at`) and, for an item, its state (a link to a replaced wording stays in the graph)."""

    direction: Literal["out", "back"]
    link_type: str
    kind: str
    id: int
    confidence: float
    name: str
    at: datetime | None
    state: State | None


class DrillDown(Result):
    """A record opened one level: a chunk's `children` (chunks, or turns under level 1), a
    turn's `trace_ref` (its run) and the `turn`, an item's turns it came from."""

    ref: str
    level: int | None = None
    trace_ref: str | None = None
    turn: Turn | None = None
    children: list[Turn | Chunk] = []


class AutoRecall(Result):
    """What auto-recall injects before a turn: chat `messages` to prepend (none when nothing
    is relevant), the `records` they carry (one data line each), their `tokens`, and how many
    hits were `skipped` (below_threshold, in_boot_window, over_budget)."""

    messages: list[dict[str, Any]]
    records: list[dict[str, Any]]
    tokens: int
    skipped: dict[str, int]


class AddedDocument(Result):
    """A document or email as stored: its id, kind and how many passages it was split into."""

    id: str
    kind: Literal["basic", "email"]
    passages: int
