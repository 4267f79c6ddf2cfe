"""Request and response bodies of the HTTP API (the spec's words for fields)."""

from __future__ import annotations

import dataclasses
import typing
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    create_model,
    field_validator,
)
from pydantic_core import PydanticCustomError

from memory_pipelines.core.boot import DEFAULT_BUDGET
from memory_pipelines.core.inputs import MAX_TURN_CHARS
from memory_pipelines.core.settings import CARDS
from memory_pipelines.core.types import Hit, ItemVersion, TurnWritten
from memory_pipelines.core.vocabulary import CommitmentStatus, LinkType, ObjectKind, Origin, Source

MAX_TURNS_PER_REQUEST = 500


class Body(BaseModel):
    """A request body: an unknown field is an error naming it, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


def shared_only(body: BaseModel) -> bool:
    """Whether a body that reads as a person sent `"person": null`: the shared records only,
    whatever one person the key is limited to (left out, it reads as that person)."""
    return "person" in body.model_fields_set and getattr(body, "person", None) is None


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


# A time a caller gives: ISO text, read by core/records.parse_time as the Python API reads it (a
# date or a datetime, naive meaning UTC; a number refused, naming the field). pydantic's lax
# datetime read 1700000000 as a Unix time and -1e12 as 1938.
IsoTime = Annotated[
    StrictStr, WithJsonSchema({"type": "string", "format": "date-time", "example": "2024-05-01"})
]


class TurnIn(Body):
    text: str = Field(min_length=1, max_length=MAX_TURN_CHARS, description="the message text")
    role: Literal["user", "assistant", "system", "tool"] = "user"
    speaker: str = Field("", max_length=200, description="who said it, e.g. a first name")
    created_at: IsoTime | None = Field(None, description="when it was said (default: now)")
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


# -- settings ---------------------------------------------------------------------------------


def _strict(kind: Any) -> Any:
    """The type with every scalar in it strict, inside a dict or a list too (a lax
    dict[str, float] read true as 1.0 and "5" as 5.0): JSON's number, string and boolean only
    as themselves, an integer also where a float goes."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is dict:  # StrictFloat takes a JSON integer too, and names the key alone
        value = StrictFloat if args[1] is float else _strict(args[1])
        return dict[_strict(args[0]), value]  # type: ignore[misc]
    if origin is list:
        return list[_strict(args[0])]  # type: ignore[misc]
    if kind is float:
        return StrictFloat | StrictInt
    return {bool: StrictBool, int: StrictInt, str: StrictStr}.get(kind, kind)


def _card_model(card: str, cls: type, *, change: bool) -> type[BaseModel]:
    """A card's fields as a typed model (every field optional in a change: a field not sent
    keeps its value). Types only; bounds and allowed values are core/settings.py's, which
    names a bad value as card.field."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        if typing.get_origin(kind) is tuple:
            kind = list[str]
        strict = _strict(kind)
        fields[f.name] = (strict | None, None) if change else (strict, ...)
    name = "".join(w.title() for w in card.split("_")) + ("Change" if change else "Card")
    base = Body if change else BaseModel
    return create_model(name, __base__=base, **fields)


_CARD_OUT = {card: _card_model(card, cls, change=False) for card, cls in CARDS.items()}
_CARD_IN = {card: _card_model(card, cls, change=True) for card, cls in CARDS.items()}

if typing.TYPE_CHECKING:
    Settings = BaseModel
    SettingsChange = Body
else:
    Settings = create_model(
        "Settings",
        __doc__="Every settings card of a store (the defaults where nothing was configured).",
        **{card: (model, ...) for card, model in _CARD_OUT.items()},
        trust_envelope=(bool, ...),
    )
    SettingsChange = create_model(
        "SettingsChange",
        __base__=Body,
        __doc__="The cards to change, and in each only the fields to change (the others keep "
        "their values); trust_envelope is a card of one value. All or nothing: a bad value is "
        "a 422 naming card.field and nothing is saved.",
        **{card: (model | None, None) for card, model in _CARD_IN.items()},
        trust_envelope=(StrictBool | None, None),
    )


# -- records ----------------------------------------------------------------------------------


class EdgeIn(Body):
    type: LinkType
    kind: ObjectKind = "item"
    target: StrictInt = Field(description="the id of the record it links to")


class SaveIn(Body):
    """A memory item to save (the spec's fields; `validFrom`, `dueAt`, `owedTo` are read as
    valid_from, due_at, owed_to) and where it comes from. With `chat` and `turn_seq` the save is
    made during that turn (origin derived: as trusted as the least trusted item in `fed_by`);
    without, it is written explicitly with this key (trusted), or `origin: outside`."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    category: StrictStr = Field(description="the record's type: a slug such as preference")
    context: StrictStr = Field(description="the one-line fact")
    body: StrictStr | None = None
    confidence: StrictInt = Field(5, description="1-10; user-stated facts outrank inferred ones")
    importance: StrictInt | None = Field(None, description="1-10")
    tags: list[StrictStr] = []
    labels: list[StrictStr] = Field([], description="set now, read-only afterwards")
    entities: list[StrictStr] = []
    keywords: list[StrictStr] = []
    edges: list[EdgeIn] = []
    metadata: dict[str, Any] = {}
    valid_from: IsoTime | None = Field(None, alias="validFrom")
    person: StrictStr | None = Field(None, description="whom it is for; null: shared")
    source: Source = "user"
    status: CommitmentStatus | None = Field(None, description="a commitment's (default open)")
    due_at: IsoTime | None = Field(None, alias="dueAt")
    owed_to: StrictStr | None = Field(None, alias="owedTo")
    chat: StrictStr | None = Field(None, description="the conversation the save is made in")
    turn_seq: StrictInt | None = Field(None, description="the turn the save is made in")
    from_seq: StrictInt | None = None
    to_seq: StrictInt | None = None
    fed_by: list[StrictInt] = Field([], description="ids of the items that fed it")
    origin: Origin | None = None
    model: StrictStr | None = Field(None, description="the model that derived it")

    def fields(self) -> dict[str, Any]:
        """What was sent, in the names Memory.save takes."""
        out = self.model_dump(exclude_unset=True, by_alias=False)
        if "edges" in out:
            out["edges"] = [e.model_dump() for e in self.edges]
        return out


class ItemHistory(BaseModel):
    """Every version of a fact, oldest first."""

    versions: list[ItemVersion]


# -- recall -----------------------------------------------------------------------------------


class SearchIn(Body):
    query: StrictStr = Field(min_length=1, max_length=10_000)
    scopes: list[Literal["agent", "history", "basic", "email"]] = Field(
        ["agent", "history"],
        min_length=1,
        description="agent: memory items; history: turns "
        "and chunks; basic: documents; email: emails",
    )
    k: StrictInt = Field(10, ge=1, le=200)
    person: StrictStr | None = Field(
        None,
        description="search as this person (theirs and the shared); null: the shared "
        "only; left out: the one person a key is limited to, else the shared only",
    )


class Hits(BaseModel):
    hits: list[Hit]


class AutoRecallIn(Body):
    chat: StrictStr = Field(min_length=1, max_length=200)
    user_message: StrictStr = Field(max_length=10_000)
    person: StrictStr | None = Field(
        None,
        description="whom the turn is for (their records and the shared); null: the shared "
        "only; left out: the one person a key is limited to, else the shared only. In a "
        "shared chat the open commitments carried are the shared ones",
    )
    budget_tokens: StrictInt = Field(400, ge=1, le=100_000)
    boot_budget_tokens: StrictInt = Field(
        DEFAULT_BUDGET,
        ge=1,
        le=100_000,
        description="the agent's boot window (its budget): hits already in it are skipped",
    )
    turn_seq: StrictInt | None = Field(None, ge=1, le=2**31 - 1)


def answer(model: BaseModel, status: int = 200) -> Response:
    """A typed result as the response, serialised once (a route's `response_model` documents
    it; returning the model itself had FastAPI validate it again, which cost more than the
    read for a page of records)."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")
