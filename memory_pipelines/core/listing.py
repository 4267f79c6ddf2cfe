"""The Records filters of the console spec, checked; the keyset cursor of a page; and who wrote
a record, in words. Pure: no database.

Filters: one store or all (those the reader may use), state (Current, Superseded, Archived or
All), type, minimum confidence 0-1 (core/confidence.py maps it onto the stored 1-10), metadata
key/value pairs (every pair must match; a pair without a key is ignored), person (records for
that person). Pages run newest change first, keyed on (updated_at, item_id).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory_pipelines.core.confidence import least_stored, unit_field
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.records import CATEGORY_RE, int_field, json_value, show, text_field
from memory_pipelines.core.types.records import WrittenBy
from memory_pipelines.core.vocabulary import STATES
from memory_pipelines.errors import ValidationError

RECORD_STATES: tuple[str, ...] = (*STATES, "all")
DEFAULT_PAGE = 50
MAX_PAGE = 500
MAX_PAIRS = 20

# One metadata pair: its key, and the JSON values that count as a match (a value typed in a
# form or a query string, "3", also matches the number 3 the application may have stored).
Pair = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True)
class RecordFilters:
    """Checked filters of the Records list (`state` None: all states)."""

    store: str | None = None
    state: str | None = "current"
    category: str | None = None
    min_confidence: float | None = None  # 0-1
    metadata: tuple[Pair, ...] = ()
    person: str | None = None
    limit: int = DEFAULT_PAGE
    after: tuple[datetime, int] | None = None

    @property
    def least_stored(self) -> int | None:
        """The smallest stored confidence (1-10) the minimum lets through."""
        return None if self.min_confidence is None else least_stored(self.min_confidence)

    def audit(self) -> dict[str, Any]:
        """The filters as the read audit records them (what was asked, never a secret)."""
        return {
            "store": self.store,
            "state": self.state or "all",
            "type": self.category,
            "min_confidence": self.min_confidence,
            "metadata": [[k, list(v)] for k, v in self.metadata],
            "person": self.person,
            "limit": self.limit,
            "after": encode_cursor(*self.after) if self.after else None,
        }


def record_filters(
    *,
    store: str | None = None,
    state: str | None = "current",
    type: str | None = None,  # noqa: A002 - the spec's word for the filter
    min_confidence: Any = None,
    metadata: Any = None,
    person: str | None = None,
    limit: Any = DEFAULT_PAGE,
    after: str | None = None,
) -> RecordFilters:
    """The Records filters checked, each bad one named with what is allowed. `metadata` is a
    mapping of key -> value or a list of (key, value) pairs (a pair with an empty key is
    ignored, as the console's empty row); `after` is the `next` of an earlier page."""
    if store is not None:
        id_field("store", store)
    state = "all" if state is None else state
    if not isinstance(state, str) or state.lower() not in RECORD_STATES:
        raise ValidationError(
            "state", f"must be one of {', '.join(RECORD_STATES)}, got {show(state)}"
        )
    state = state.lower()
    if type is not None and (not isinstance(type, str) or not CATEGORY_RE.fullmatch(type)):
        raise ValidationError(
            "type", f"must be a record type: a lowercase slug like preference, got {show(type)}"
        )
    return RecordFilters(
        store=store,
        state=None if state == "all" else state,
        category=type,
        min_confidence=unit_field("min_confidence", min_confidence),
        metadata=metadata_pairs(metadata),
        person=id_field("person", person, nullable=True),
        limit=int_field("limit", limit, 1, MAX_PAGE),
        after=_timed(decode_cursor(after)),
    )


def _timed(key: tuple[datetime | None, int] | None) -> tuple[datetime, int] | None:
    if key is None:
        return None
    at, item_id = key
    if at is None:  # decode_cursor gives None only when asked (nullable)
        raise ValidationError("after", "must be the `next` of an earlier page")
    return at, item_id


def metadata_pairs(raw: Any) -> tuple[Pair, ...]:
    """Metadata filters as (key, accepted values) pairs; keyless pairs dropped."""
    if raw is None:
        return ()
    if isinstance(raw, Mapping):
        items: Iterable[Any] = list(raw.items())
    elif isinstance(raw, list | tuple):
        items = raw
    else:
        raise ValidationError("metadata", f"must be key -> value pairs, got {show(raw)}")
    out: list[Pair] = []
    for i, pair in enumerate(items):
        where = f"metadata[{i}]"
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ValidationError(where, f"must be a (key, value) pair, got {show(pair)}")
        key, value = pair
        if key is None or (isinstance(key, str) and not key.strip()):
            continue  # the console's empty row: ignored
        text_field(f"{where}.key", key, max_len=200, required=True, one_line=True)
        value = json_value(f"{where}.value", value)
        out.append((key, _alternatives(value)))
    if len(out) > MAX_PAIRS:
        raise ValidationError("metadata", f"at most {MAX_PAIRS} pairs, got {len(out)}")
    return tuple(out)


def _alternatives(value: Any) -> tuple[Any, ...]:
    """A value typed as text also matches the JSON number, boolean or null it spells."""
    if not isinstance(value, str):
        return (value,)
    try:
        parsed = json.loads(value)
    except ValueError:
        return (value,)
    if isinstance(parsed, float) and not math.isfinite(parsed):
        return (value,)  # "NaN", "Infinity", "1e400": no JSON number, only the text
    if isinstance(parsed, bool | int | float) or parsed is None:
        return (value, parsed)
    return (value,)


def parse_metadata_query(values: Iterable[str]) -> list[tuple[str, str]]:
    """`key=value` texts (a query string's repeated `metadata=`) as pairs; a text without `=`
    is a key whose value is empty."""
    out = []
    for text in values:
        key, _, value = text.partition("=")
        out.append((key, value))
    return out


def encode_cursor(at: datetime | None, item_id: int) -> str:
    """The cursor of the page after the record keyed (at, item_id): the Records list's
    (updated_at, item_id), the commitments' (due_at or None, item_id)."""
    raw = json.dumps([at.isoformat() if at else None, item_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: Any, *, nullable: bool = False) -> tuple[datetime | None, int] | None:
    """The key a cursor of encode_cursor names (its time None only when `nullable`)."""
    if text is None:
        return None
    problem = f"must be the `next` of an earlier page, got {show(text)}"
    if not isinstance(text, str) or len(text) > 200:
        raise ValidationError("after", problem)
    try:
        at, item_id = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        when = None if at is None and nullable else datetime.fromisoformat(at)
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise ValidationError("after", problem) from None
    if (
        isinstance(item_id, bool)
        or not isinstance(item_id, int)
        or not 0 < item_id < 2**63
        or (when is not None and when.tzinfo is None)
        or (isinstance(at, str) and at != at.strip("\x00"))  # fromisoformat takes a NUL after
    ):
        raise ValidationError("after", problem)
    return when, item_id


# Who wrote a record, to a reader who may not see the conversation it was written in
# (store/visibility.redact_item): the key there is the conversation's.
HIDDEN_WRITER = "the key whose conversation it came from"
# Who wrote a record of a store assigned here from another organisation, with its key
FOREIGN_WRITER = "a key of another organisation"


def written_by(
    origin: str,
    key_id: str | None,
    written: str,
    model: str | None,
    chat_key: str | None,
    chat_seen: bool = False,
    chat_foreign: bool = False,
) -> WrittenBy:
    """Who wrote a record, as the Records list says it: a derived record names the model above
    the key whose conversation it came from (`chat_key`; a conversation the reader sees,
    `chat_seen`, written with no key was the application's; one of a key of another
    organisation, `chat_foreign`, not named); one written through the API its key; anything
    else the application (a job, the command line) by the name it gave."""
    if origin == "derived":
        keyless = "the application" if chat_seen else HIDDEN_WRITER
        above = f"key {chat_key}" if chat_key else FOREIGN_WRITER if chat_foreign else keyless
        return WrittenBy(
            kind="model", key_id=chat_key, model=model, name=f"the model above {above}"
        )
    if key_id is not None or written in (HIDDEN_WRITER, FOREIGN_WRITER):
        name = f"key {key_id}" if key_id is not None else written
        return WrittenBy(kind="key", key_id=key_id, model=None, name=name)
    return WrittenBy(
        kind="application", key_id=None, model=model, name=written or "the application"
    )
