"""How recall reads what names a record: a ref (a hit, "kind:id", a (kind, id) pair or a memory
item's id) and a by_period cursor ("at|kind|id"). A clear ValidationError naming the field for
anything else, never an exception of Python's own (an id past a bigint, digits int() refuses)."""

from __future__ import annotations

from datetime import datetime

from memory_pipelines.core.records import parse_time
from memory_pipelines.core.types import Hit
from memory_pipelines.errors import ValidationError

Ref = Hit | str | tuple[str, int] | int  # an int is a memory item's id (the spec's r.neighbors(id))
KINDS = ("item", "turn", "chunk", "chat", "document", "email")


def parse_ref(ref: Ref) -> tuple[str, int]:
    """(kind, id) from a Hit, a "kind:id" string, a tuple or a memory item's id; a clear
    error otherwise."""
    if isinstance(ref, Hit):
        return ref.kind, ref.id
    if isinstance(ref, int) and not isinstance(ref, bool):
        ref = ("item", ref)
    elif isinstance(ref, str) and record_id(ref) is not None:
        ref = ("item", int(ref))  # "42", as a path over HTTP writes an item's id
    if isinstance(ref, str) and ":" in ref:
        kind, _, num = ref.partition(":")
        if record_id(num) is not None:
            ref = (kind, int(num))
    if (
        isinstance(ref, tuple)
        and len(ref) == 2
        and ref[0] in KINDS
        and isinstance(ref[1], int)
        and not isinstance(ref[1], bool)
        and 0 < ref[1] < 2**63  # ids are bigint
    ):
        return ref[0], ref[1]
    raise ValidationError(
        "ref",
        f"must be a hit, an item id or 'kind:id' with kind one of {', '.join(KINDS)}, got {ref!r}",
    )


def record_id(text: str) -> int | None:
    """A record id written in ASCII digits, within a bigint's range (ids are 1 .. 2**63 - 1);
    None otherwise ("²" is a digit to str.isdigit, and int() of 5,000 digits raises)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 19):
        return None
    value = int(text)
    return value if 0 < value < 2**63 else None


def period_key(after: str | None) -> tuple[datetime, str, int] | None:
    """The (at, kind, id) a by_period cursor names."""
    if after is None:
        return None
    parts = after.split("|") if isinstance(after, str) else []
    at = parse_time("after", parts[0]) if len(parts) == 3 else None
    rid = record_id(parts[2]) if at is not None else None
    if at is None or parts[1] not in KINDS or rid is None:
        raise ValidationError("after", f"must be the `next` of a by_period page, got {after!r}")
    return at, parts[1], rid
