"""Conversations: chats, their turns, the pyramid's chunks, and a chat's boot window."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import computed_field

from memory_pipelines.core.types.base import Record, Result
from memory_pipelines.core.vocabulary import Role


class Chat(Record):
    """A conversation of a store (a row of chats); `person_id` None: shared."""

    chat_id: int
    store_id: str
    external_id: str
    key_id: str | None
    person_id: str | None
    title: str
    created_at: datetime


class Turn(Record):
    """One message of a chat (a row of turns), append-only; `seq` counts from 1 per chat."""

    turn_id: int
    store_id: str
    chat_id: int
    seq: int
    created_at: datetime
    role: Role
    speaker: str
    text: str
    trace_ref: str | None
    external_id: str | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kind(self) -> Literal["turn"]:
        """The record's kind, as refs name it ("turn:7")."""
        return "turn"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> int:
        return self.turn_id


class Chunk(Record):
    """A node of a chat's history pyramid (a row of chunks): level 1 summarises ten turns,
    level n ten chunks of level n-1; `children` are their turn or chunk ids."""

    chunk_id: int
    store_id: str
    chat_id: int
    level: int
    seq: int
    from_seq: int
    to_seq: int
    summary: str
    period_start: datetime
    period_end: datetime
    units_covered: int
    children: list[int]
    model: str
    created_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kind(self) -> Literal["chunk"]:
        """The record's kind, as refs name it ("chunk:3")."""
        return "chunk"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> int:
        return self.chunk_id


class TurnWritten(Result):
    """A turn as written: its id, chat and seq, and whether it is `new` (False: the chat held
    its external id already, and nothing was written)."""

    turn_id: int
    chat_id: int
    seq: int
    new: bool


class BootRecord(Result):
    """One line of a boot window: a raw turn (level 0) or a chunk's summary, with the frame
    that dates it (`line` is frame and text) and what it costs in tokens."""

    kind: Literal["turn", "chunk"]
    id: int
    level: int
    seq: int
    from_seq: int
    to_seq: int
    period_start: datetime
    period_end: datetime
    speaker: str
    text: str
    line: str
    tokens: int
    frame_tokens: int


class BootWindow(Result):
    """A chat's whole history within a token budget, oldest first. `overhead` is frame tokens
    over tokens; `complete`: every turn is represented; `dropped`: oldest records left out
    when even the coarsest view did not fit."""

    chat: str
    budget_tokens: int
    records: list[BootRecord]
    text: str
    tokens: int
    frame_tokens: int
    overhead: float
    complete: bool
    dropped: int
