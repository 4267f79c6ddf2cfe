"""Turn, document and filter input: every field checked, nothing coerced, the field named.

Pure: no database. The API and the file importers check a whole request (or a whole file)
with these before anything is embedded or written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

from memory_pipelines.core.confidence import least_stored, unit_field
from memory_pipelines.core.passages import split_passages
from memory_pipelines.core.records import (
    blank,
    int_field,
    json_value,
    parse_time,
    show,
    text_field,
)
from memory_pipelines.core.vocabulary import ROLES, STATES
from memory_pipelines.errors import ValidationError

MAX_TURN_CHARS = 100_000
MAX_ID = 200  # chat, external and person ids
TURN_FIELDS = ("text", "role", "speaker", "created_at", "trace_ref", "external_id")

# A document is split into passages and each is embedded before it is stored: a 1 MB text
# took 86 s and 884 MB. 200,000 characters (about 30,000 words, a long report) are 167
# passages: one add took 52 s on two busy cores, peak memory set by the embedding batch rather
# than the text. Longer texts are split by the caller into several documents. The passage
# limit holds texts made of many tiny pieces.
MAX_DOCUMENT_CHARS = 200_000
MAX_PASSAGES = 400
MAX_RECIPIENTS = 100


def id_field(name: str, value: Any, *, nullable: bool = False, new: bool = False) -> Any:
    """An identifier: one line of 1-200 characters (or None when nullable). `new`: an id being
    made (a person, a chat, a document), which may not be "." or ".." (no address can name
    it); one read or matched is taken as stored."""
    value = text_field(name, value, max_len=MAX_ID, nullable=nullable, one_line=True)
    if value is not None and blank(value):
        raise ValidationError(name, f"must be an id of 1-{MAX_ID} characters, got ''")
    if new and value in (".", ".."):  # no address can name it: clients resolve it away
        raise ValidationError(name, f"must not be {value!r}: an address cannot name it")
    return value


MAX_RECORD_ID = 2**63 - 1  # record ids are bigint columns


def record_id(name: str, value: Any) -> int:
    """A record's id: a positive integer that fits a bigint column."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RECORD_ID:
        raise ValidationError(name, f"must be a record id (a positive integer), got {show(value)}")
    return value


@dataclass(frozen=True)
class TurnInput:
    """A turn as a caller writes it, checked by validate_turn."""

    text: str
    role: str = "user"
    speaker: str = ""
    created_at: datetime | None = None
    trace_ref: str | None = None
    external_id: str | None = None


def validate_turn(raw: Any, where: str = "") -> TurnInput:
    """The fields of one turn, checked; `where` prefixes each field's name ("turns[3].")."""
    if not isinstance(raw, dict):
        raise ValidationError(where.rstrip(".") or "turn", "must be an object with text")
    unknown = sorted(set(raw) - set(TURN_FIELDS))
    if unknown:
        raise ValidationError(
            f"{where}{unknown[0]}", f"unknown field; allowed: {', '.join(TURN_FIELDS)}"
        )
    text = text_field(f"{where}text", raw.get("text"), max_len=MAX_TURN_CHARS, required=True)
    role = raw.get("role")
    role = "user" if role is None else role
    if not isinstance(role, str) or role not in ROLES:
        raise ValidationError(
            f"{where}role", f"must be one of {', '.join(ROLES)}, got {show(role)}"
        )
    speaker = text_field(
        f"{where}speaker", raw.get("speaker"), max_len=MAX_ID, nullable=True, one_line=True
    )
    return TurnInput(
        text=text,
        role=role,
        speaker=speaker or "",
        created_at=parse_time(f"{where}created_at", raw.get("created_at")),
        trace_ref=text_field(
            f"{where}trace_ref", raw.get("trace_ref"), max_len=1000, nullable=True
        ),
        external_id=id_field(f"{where}external_id", raw.get("external_id"), nullable=True),
    )


def repeated_external_ids(turns: list[TurnInput]) -> tuple[int, int] | None:
    """The positions (first, again) of an external id given twice in one write, if any: the
    chat keeps one turn per external id, so the second could only fail or be lost."""
    seen: dict[str, int] = {}
    for i, t in enumerate(turns):
        ext = t.external_id
        if ext is None:
            continue
        if ext in seen:
            return seen[ext], i
        seen[ext] = i
    return None


@dataclass(frozen=True)
class DocumentInput:
    external_id: str
    kind: Literal["basic", "email"]
    title: str
    passages: list[str]
    sender: str | None
    recipients: list[str]
    person: str | None
    created_at: datetime | None


def validate_document(
    external_id: Any,
    text: Any,
    *,
    kind: Any = "basic",
    title: Any = "",
    sender: Any = None,
    recipients: Any = (),
    person: Any = None,
    created_at: Any = None,
    where: str = "",
) -> DocumentInput:
    """A document or email checked whole and split into passages, before any embedding;
    `where` prefixes each field's name (a file's "line 12: ")."""
    if kind not in ("basic", "email"):
        raise ValidationError(f"{where}kind", f"must be basic or email, got {show(kind)}")
    external_id = id_field(f"{where}id", external_id, new=True)
    text = text_field(f"{where}text", text, max_len=MAX_DOCUMENT_CHARS, required=True)
    title = text_field(f"{where}title", title, max_len=500, one_line=True)
    sender = text_field(f"{where}sender", sender, max_len=320, nullable=True, one_line=True)
    if not isinstance(recipients, list | tuple):
        raise ValidationError(
            f"{where}recipients", f"must be a list of addresses, got {show(recipients)}"
        )
    if len(recipients) > MAX_RECIPIENTS:
        raise ValidationError(
            f"{where}recipients", f"at most {MAX_RECIPIENTS} entries, got {len(recipients)}"
        )
    for i, r in enumerate(recipients):
        text_field(f"{where}recipients[{i}]", r, max_len=320, required=True, one_line=True)
    passages = split_passages(text)
    if len(passages) > MAX_PASSAGES:
        raise ValidationError(
            f"{where}text", f"splits into at most {MAX_PASSAGES} passages, got {len(passages)}"
        )
    return DocumentInput(
        external_id=external_id,
        kind=cast(Literal["basic", "email"], kind),
        title=title,
        passages=passages,
        sender=sender,
        recipients=list(recipients),
        person=id_field(f"{where}person", person, nullable=True),
        created_at=parse_time(f"{where}created_at", created_at),
    )


# A line of an ingest-docs file: each field and the other name it may go by (an email export's).
DOCUMENT_LINE_FIELDS = {
    "id": (),
    "text": ("body",),
    "title": ("subject",),
    "sender": ("from",),
    "to": (),
    "created_at": ("sent_at",),
    "person": (),
}


def document_from_line(obj: Any, kind: str, where: str) -> DocumentInput:
    """One JSON Lines record of documents or emails, checked (see DOCUMENT_LINE_FIELDS)."""
    if not isinstance(obj, dict):
        raise ValidationError(where.rstrip(". ") or "document", "must be a JSON object")
    allowed = [name for main, alias in DOCUMENT_LINE_FIELDS.items() for name in (main, *alias)]
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise ValidationError(
            f"{where}{unknown[0]}", f"unknown field; allowed: {', '.join(allowed)}"
        )

    used = {main: main for main in DOCUMENT_LINE_FIELDS}  # the name each field has in the file

    def get(main: str, default: Any) -> Any:
        for name in (main, *DOCUMENT_LINE_FIELDS[main]):
            if obj.get(name) is not None:
                used[main] = name
                return obj[name]
        return default

    args = {p: get(p, d) for p, d in (("id", None), ("text", ""), ("title", ""), ("sender", None))}
    try:
        return validate_document(
            args["id"],
            args["text"],
            kind=kind,
            title=args["title"],
            sender=args["sender"],
            recipients=get("to", []),
            person=get("person", None),
            created_at=get("created_at", None),
            where=where,
        )
    except ValidationError as exc:  # name the field as the file does ("to", not "recipients")
        head, sep, rest = exc.field.removeprefix(where).partition("[")
        name = used.get("to" if head == "recipients" else head)
        if name is None:
            raise
        raise ValidationError(f"{where}{name}{sep}{rest}", exc.message) from None


ITEM_FILTERS = ("state", "category", "person", "min_confidence", "metadata", "limit")


def item_filters(filters: dict[str, Any]) -> dict[str, Any]:
    """Memory.items()' filters checked, so a bad one is named instead of reaching the driver."""
    unknown = sorted(set(filters) - set(ITEM_FILTERS))
    if unknown:
        raise ValidationError(unknown[0], f"unknown filter; allowed: {', '.join(ITEM_FILTERS)}")
    state = filters.get("state", "current")
    if state is not None and (not isinstance(state, str) or state not in STATES):
        raise ValidationError("state", f"must be one of {', '.join(STATES)} or None (all)")
    out = dict(filters)
    out["category"] = text_field("category", filters.get("category"), max_len=40, nullable=True)
    out["person"] = id_field("person", filters.get("person"), nullable=True)
    # 0-1 as the console's Records filter says; stored confidence is 1-10 (core/confidence.py)
    unit = unit_field("min_confidence", filters.get("min_confidence"))
    out["min_confidence"] = None if unit is None else least_stored(unit)
    metadata = filters.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise ValidationError(
            "metadata", f"must be an object of key -> value, got {show(metadata)}"
        )
    out["metadata"] = json_value("metadata", metadata)
    out["limit"] = int_field("limit", filters.get("limit", 100), 1, 5000)
    return out
