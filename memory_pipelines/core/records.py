"""Memory item input: validation of every field, and the trust rule for origins.

Pure: no database. Checks that need the store (the person exists) happen in the API before any
write, so a failed save writes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

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

FIELDS = (
    "category",
    "context",
    "body",
    "confidence",
    "importance",
    "tags",
    "entities",
    "keywords",
    "edges",
    "valid_from",
    "person",
    "source",
    "status",
    "due_at",
    "owed_to",
    "metadata",
)


@dataclass(frozen=True)
class Edge:
    type: str
    kind: str
    id: int


@dataclass
class ItemInput:
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


def _int(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(name, f"must be an integer {lo}-{hi}, got {value!r}")
    if not lo <= value <= hi:
        raise ValidationError(name, f"must be {lo}-{hi}, got {value}")
    return value


def _strings(name: str, value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError(name, f"must be a list of strings, got {value!r}")
    if len(value) > MAX_LIST:
        raise ValidationError(name, f"at most {MAX_LIST} entries, got {len(value)}")
    out: list[str] = []
    for v in value:
        v = v.strip()
        if not v or "\n" in v or len(v) > 100:
            raise ValidationError(name, f"entries must be one line of 1-100 characters, got {v!r}")
        if v not in out:
            out.append(v)
    return out


def parse_time(name: str, value: Any) -> datetime | None:
    """ISO date or datetime (naive means UTC), or None."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(
                name, f"must be an ISO date or datetime like 2024-05-01, got {value!r}"
            ) from None
    else:
        raise ValidationError(name, f"must be an ISO date or datetime, got {value!r}")
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


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
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise ValidationError(f"edges[{i}].target", f"must be a record id, got {target!r}")
        out.append(Edge(type=etype, kind=kind, id=target))
    return out


def validate_item(raw: Any) -> ItemInput:
    """Check every field of a memory item; raise ValidationError naming the first bad one."""
    if not isinstance(raw, dict):
        raise ValidationError("item", f"must be an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise ValidationError(unknown[0], f"unknown field; allowed: {', '.join(FIELDS)}")
    category = raw.get("category")
    if not category:
        raise ValidationError("category", "is required (a slug such as preference, decision)")
    if not isinstance(category, str) or not CATEGORY_RE.match(category):
        raise ValidationError(
            "category",
            f"must be a slug: lowercase letters, digits, '-' or '_', 1-40 long, got {category!r}",
        )
    context = raw.get("context")
    if not isinstance(context, str) or not context.strip():
        raise ValidationError("context", "is required: a one-line fact")
    context = context.strip()
    if "\n" in context or "\r" in context:
        raise ValidationError("context", "must be one line (no line breaks)")
    if len(context) > MAX_CONTEXT:
        raise ValidationError(
            "context", f"must be at most {MAX_CONTEXT} characters, got {len(context)}"
        )
    body = raw.get("body") or ""
    if not isinstance(body, str) or len(body) > MAX_BODY:
        raise ValidationError("body", f"must be text of at most {MAX_BODY} characters")
    confidence = _int("confidence", raw.get("confidence", 5), 1, 10)
    importance = raw.get("importance")
    if importance is not None:
        importance = _int("importance", importance, 1, 10)
    source = raw.get("source", "user")
    if source not in SOURCES:
        raise ValidationError("source", f"must be one of {', '.join(SOURCES)}, got {source!r}")
    person = raw.get("person")
    if person is not None and (not isinstance(person, str) or not person.strip()):
        raise ValidationError(
            "person", f"must be a person id of this store or null, got {person!r}"
        )
    metadata = raw.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise ValidationError("metadata", "must be an object of key -> value")
    status = raw.get("status")
    due_at = parse_time("due_at", raw.get("due_at"))
    owed_to = raw.get("owed_to")
    if category == "commitment":
        status = status or "open"
        if status not in COMMITMENT_STATUSES:
            raise ValidationError(
                "status", f"must be one of {', '.join(COMMITMENT_STATUSES)}, got {status!r}"
            )
        if owed_to is not None and not isinstance(owed_to, str):
            raise ValidationError("owed_to", f"must be a name, got {owed_to!r}")
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
