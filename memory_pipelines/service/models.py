"""Request and response bodies of the HTTP API (the spec's words for fields)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from memory_pipelines.core.inputs import MAX_TURN_CHARS
from memory_pipelines.core.types import TurnWritten

MAX_TURNS_PER_REQUEST = 500


class Body(BaseModel):
    """A request body: an unknown field is an error naming it, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class StoreOut(BaseModel):
    store: str
    name: str
    organisation: str
    default_settings: bool = Field(description="nothing configured: the store runs on defaults")
    extraction: bool = Field(description="extraction from conversations is on")
    maintenance: bool = Field(description="the maintenance pass is on")
    last_maintenance: datetime | None = Field(description="when maintenance last ran")
    created_at: datetime


class StoreList(BaseModel):
    stores: list[StoreOut]


class TurnIn(Body):
    text: str = Field(min_length=1, max_length=MAX_TURN_CHARS, description="the message text")
    role: Literal["user", "assistant", "system", "tool"] = "user"
    speaker: str = Field("", max_length=200, description="who said it, e.g. a first name")
    created_at: datetime | None = Field(None, description="when it was said (default: now)")
    external_id: str | None = Field(
        None, min_length=1, max_length=200, description="a turn already written is skipped"
    )
    trace_ref: str | None = Field(None, max_length=500)

    @field_validator("text")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        if not text.strip():
            raise PydanticCustomError("blank", "must contain text, not only spaces")
        return text


class TurnsIn(Body):
    chat: str = Field(min_length=1, max_length=200, description="the conversation id")
    person: str | None = Field(None, description="whose conversation (a person of the store)")
    turns: list[TurnIn] = Field(min_length=1, max_length=MAX_TURNS_PER_REQUEST)


class TurnsWritten(BaseModel):
    chat: str
    turns: list[TurnWritten]
