"""Memory item input: validation of every field, and the trust rule for origins.

Pure: no database. Checks that need the store (the person exists) happen in the API before any
write, so a failed save writes nothing.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field, fields
from datetime import UTC, date, datetime
from typing import Any

from memory_pipelines.core.types import Edge
from memory_pipelines.core.vocabulary import (
    COMMITMENT_STATUSES,
    LINK_TYPES,
    OBJECT_KINDS,
    ORIGINS,
    SOURCES,
)
from memory_pipelines.errors import ValidationError

CATEGORY_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
MAX_CONTEXT = 300
MAX_BODY = 20_000
MAX_LIST = 50
MAX_METADATA_CHARS = 10_000  # as JSON
MAX_JSON_DEPTH = 10
# Dates any record may carry. Postgres holds more, but every date is read back into Python
# (years 1-9999), shifted by time zones and windows: `9999-12-31T23:59:59-12:00` is year 10000 in
# UTC, which no reader could load, and one such turn broke every search of its store. A year
# outside 1000-2999 is a typo or an attack, not a memory.
EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)


@dataclass
class ItemInput:
    """A memory item as a caller writes it, checked by validate_item (its fields are the ones a
    caller may give; the store adds the rest of an Item)."""

    category: str
    context: str
    body: str = ""
    confidence: int = 5
    importance: int | None = None
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    valid_from: datetime | None = None
    person: str | None = None
    source: str = "user"
    status: str | None = None
    due_at: datetime | None = None
    owed_to: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)  # set when written, read-only afterwards


FIELDS = tuple(f.name for f in fields(ItemInput))


def show(value: Any, limit: int = 60) -> str:
    """A value as an error message quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-1]}"


def int_field(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(name, f"must be an integer {lo}-{hi}, got {show(value)}")
    if not lo <= value <= hi:
        raise ValidationError(name, f"must be {lo}-{hi}, got {value}")
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(name: str, value: str) -> str:
    """Refuse what no text column can take: NUL (Postgres cannot store it) and lone surrogates
    (not Unicode: neither UTF-8 nor the tokenizer can encode them)."""
    if "\x00" in value:
        raise ValidationError(name, "must not contain NUL characters (\\x00)")
    if _SURROGATE.search(value):
        raise ValidationError(
            name, "must be valid Unicode: it holds a lone surrogate (U+D800-DFFF)"
        )
    return value


def blank(value: str) -> bool:
    """Whether the text shows nothing: only spaces, invisible format characters (zero-width
    spaces, direction marks, a soft hyphen, a byte-order mark) and control characters."""
    return all(c.isspace() or unicodedata.category(c) in ("Cf", "Cc") for c in value)


def text_field(
    name: str,
    value: Any,
    *,
    max_len: int,
    required: bool = False,
    nullable: bool = False,
    one_line: bool = False,
) -> Any:
    """A string field, checked and never coerced: a number or a list is an error, not text."""
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        kind = "a string or null" if nullable else "a string"
        raise ValidationError(name, f"must be {kind}, got {type(value).__name__} {show(value)}")
    clean_text(name, value)
    if required and blank(value):
        raise ValidationError(name, "is required: text that shows something (not only blanks)")
    if len(value) > max_len:
        raise ValidationError(name, f"must be at most {max_len} characters, got {len(value)}")
    if one_line and ("\n" in value or "\r" in value):
        raise ValidationError(name, "must be one line (no line breaks)")
    return value


def optional_int(name: str, value: Any, lo: int, hi: int) -> int | None:
    return None if value is None else int_field(name, value, lo, hi)


def json_value(name: str, value: Any, depth: int = 0) -> Any:
    """A value jsonb can hold as given: objects with string keys, lists, text, finite numbers,
    booleans and null (a set, a date or NaN would be changed or refused by the driver)."""
    if depth > MAX_JSON_DEPTH:
        raise ValidationError(name, f"nests deeper than {MAX_JSON_DEPTH} levels")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(name, f"must be a finite number, got {value!r}")
        return value
    if isinstance(value, str):
        return clean_text(name, value)
    if isinstance(value, list):
        return [json_value(f"{name}[{i}]", v, depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise ValidationError(name, f"keys must be strings, got {show(k)}")
            clean_text(f"{name} key", k)
        return {k: json_value(f"{name}.{k}", v, depth + 1) for k, v in value.items()}
    raise ValidationError(
        name,
        f"must hold only JSON values (object, list, text, number, true/false, null), "
        f"got {type(value).__name__} {show(value)}",
    )


def _strings(name: str, value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError(name, f"must be a list of strings, got {show(value)}")
    if len(value) > MAX_LIST:
        raise ValidationError(name, f"at most {MAX_LIST} entries, got {len(value)}")
    out: list[str] = []
    for v in value:
        v = clean_text(name, v).strip()
        if not v or "\n" in v or len(v) > 100:
            raise ValidationError(
                name, f"entries must be one line of 1-100 characters, got {show(v)}"
            )
        if v not in out:
            out.append(v)
    return out


def parse_time(name: str, value: Any) -> datetime | None:
    """ISO date or datetime (naive means UTC), or None: the one parser of every date a caller
    gives. Refuses dates outside EARLIEST..LATEST (see there), naming the field."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            if "\x00" in value:  # fromisoformat takes a trailing NUL
                raise ValueError(value)
            dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(
                name, f"must be an ISO date or datetime like 2024-05-01, got {show(value)}"
            ) from None
    else:
        raise ValidationError(name, f"must be an ISO date or datetime, got {show(value)}")
    dt = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    if not EARLIEST <= dt < LATEST:  # compared in UTC, without converting (that could overflow)
        raise ValidationError(
            name,
            f"must be from {EARLIEST:%Y-%m-%d} to before {LATEST:%Y-%m-%d} in UTC,"
            f" got {show(value)}",
        )
    return dt


def _edges(value: Any) -> list[Edge]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValidationError("edges", "must be a list of {type, target} objects")
    out = []
    for i, e in enumerate(value):
        if not isinstance(e, dict):
            raise ValidationError(f"edges[{i}]", "must be an object {type, target, kind}")
        etype = e.get("type")
        if etype not in LINK_TYPES:
            raise ValidationError(
                f"edges[{i}].type", f"must be one of {', '.join(LINK_TYPES)}, got {etype!r}"
            )
        kind = e.get("kind", "item")
        if kind not in OBJECT_KINDS:
            raise ValidationError(
                f"edges[{i}].kind", f"must be one of {', '.join(OBJECT_KINDS)}, got {kind!r}"
            )
        target = e.get("target")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 < target < 2**63:
            raise ValidationError(f"edges[{i}].target", f"must be a record id, got {target!r}")
        out.append(Edge(type=etype, kind=kind, target=target))
    return out


# The spec's own names for fields (agent-memory-and-recall.md writes `validFrom`).
SPEC_NAMES = {"validFrom": "valid_from", "dueAt": "due_at", "owedTo": "owed_to"}


def spec_names(raw: dict[str, Any]) -> dict[str, Any]:
    """The item with the spec's camelCase names read as ours; both spellings at once is an
    error, since one of them would be silently lost."""
    out = dict(raw)
    for spec, ours in SPEC_NAMES.items():
        if spec in out:
            if ours in out:
                raise ValidationError(spec, f"give {spec} or {ours}, not both")
            out[ours] = out.pop(spec)
    return out


def validate_item(raw: Any) -> ItemInput:
    """Check every field of a memory item; raise ValidationError naming the first bad one."""
    if not isinstance(raw, dict):
        raise ValidationError("item", f"must be an object, got {type(raw).__name__}")
    raw = spec_names(raw)
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise ValidationError(unknown[0], f"unknown field; allowed: {', '.join(FIELDS)}")
    category = raw.get("category")
    if not category:
        raise ValidationError("category", "is required (a slug such as preference, decision)")
    if not isinstance(category, str) or not CATEGORY_RE.fullmatch(category):
        raise ValidationError(
            "category",
            "must be a slug: lowercase letters, digits, '-' or '_', 1-40 long,"
            f" got {show(category)}",
        )
    context = text_field("context", raw.get("context"), max_len=MAX_BODY, required=True)
    context = context.strip()
    if "\n" in context or "\r" in context:
        raise ValidationError("context", "must be one line (no line breaks)")
    if len(context) > MAX_CONTEXT:
        raise ValidationError(
            "context", f"must be at most {MAX_CONTEXT} characters, got {len(context)}"
        )
    body = text_field("body", raw.get("body", ""), max_len=MAX_BODY, nullable=True) or ""
    confidence = int_field("confidence", raw.get("confidence", 5), 1, 10)
    importance = optional_int("importance", raw.get("importance"), 1, 10)
    source = raw.get("source", "user")
    if not isinstance(source, str) or source not in SOURCES:
        raise ValidationError("source", f"must be one of {', '.join(SOURCES)}, got {show(source)}")
    person = text_field("person", raw.get("person"), max_len=100, nullable=True)
    if person is not None and not person.strip():
        raise ValidationError("person", "must be a person id of this store or null, got ''")
    metadata = raw.get("metadata")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise ValidationError(
            "metadata", f"must be an object of key -> value, got {show(metadata)}"
        )
    metadata = json_value("metadata", metadata)
    if len(json.dumps(metadata)) > MAX_METADATA_CHARS:
        raise ValidationError(
            "metadata", f"must be at most {MAX_METADATA_CHARS} characters as JSON"
        )
    status = raw.get("status")
    due_at = parse_time("due_at", raw.get("due_at"))
    owed_to = text_field("owed_to", raw.get("owed_to"), max_len=200, nullable=True, one_line=True)
    if category == "commitment":
        status = status or "open"
        if not isinstance(status, str) or status not in COMMITMENT_STATUSES:
            raise ValidationError(
                "status", f"must be one of {', '.join(COMMITMENT_STATUSES)}, got {show(status)}"
            )
    elif status is not None or due_at is not None or owed_to is not None:
        field_name = "status" if status is not None else "due_at" if due_at else "owed_to"
        raise ValidationError(field_name, "only a commitment has status, due_at and owed_to")
    return ItemInput(
        category=category,
        context=context,
        body=body,
        confidence=confidence,
        importance=importance,
        tags=_strings("tags", raw.get("tags")),
        labels=_strings("labels", raw.get("labels")),
        entities=_strings("entities", raw.get("entities")),
        keywords=_strings("keywords", raw.get("keywords")),
        edges=_edges(raw.get("edges")),
        valid_from=parse_time("valid_from", raw.get("valid_from")),
        person=person,
        source=source,
        status=status,
        due_at=due_at,
        owed_to=owed_to,
        metadata=metadata,
    )


def trust_for(origin: str, feeding_trust: list[bool]) -> bool:
    """Whether the store vouches for a record written with this origin.

    explicit: an application stored it with a key - trusted. outside: nobody reviewed it - not
    trusted. derived: as trustworthy as the least trustworthy item that fed it.
    """
    if origin not in ORIGINS:
        raise ValidationError("origin", f"must be one of {', '.join(ORIGINS)}, got {origin!r}")
    if origin == "explicit":
        return True
    if origin == "outside":
        return False
    return all(feeding_trust)
