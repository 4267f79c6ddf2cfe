"""Who may read what: the one place that decides whether a record, or a reference to one, is
visible to a reader, and that takes out of a record every reference the reader may not see.

A reader is a person of the store, or None for a turn that is for nobody (shared records only).
Memory items and document passages are visible when shared (person NULL) or the reader's; a
chat when shared or the reader's, and turns and chunks with their chat. An id is data too: a
shared item derived during Ana's turn keeps its provenance for Ana, and shows Bob neither her
chat nor her turns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from psycopg import sql
from pydantic import BaseModel

from memory_pipelines.core.listing import HIDDEN_WRITER
from memory_pipelines.store.db import Conn

# A person's chats are read only in that person's recalls; shared chats (NULL) by everybody.
VISIBLE_CHATS = (
    "SELECT chat_id FROM chats WHERE store_id = %(store)s"
    " AND (person_id IS NULL OR person_id = %(person)s)"
)
ITEM_VISIBLE = "(person_id IS NULL OR person_id = %(person)s)"

Ref = tuple[str, int]

# Per kind of record: the query giving which of some ids the reader may see.
_VISIBLE_IDS = {
    kind: sql.SQL(query).format(chats=sql.SQL(VISIBLE_CHATS), person=sql.SQL(ITEM_VISIBLE))
    for kind, query in {
        "item": "SELECT item_id AS id FROM agent_memory_items WHERE store_id = %(store)s"
        " AND item_id = ANY(%(ids)s) AND {person}",
        "chat": "SELECT chat_id AS id FROM chats WHERE chat_id = ANY(%(ids)s)"
        " AND chat_id IN ({chats})",
        "turn": "SELECT turn_id AS id FROM turns WHERE store_id = %(store)s"
        " AND turn_id = ANY(%(ids)s) AND chat_id IN ({chats})",
        "chunk": "SELECT chunk_id AS id FROM chunks WHERE store_id = %(store)s"
        " AND chunk_id = ANY(%(ids)s) AND chat_id IN ({chats})",
        "document": "SELECT passage_id AS id FROM documents WHERE store_id = %(store)s"
        " AND passage_id = ANY(%(ids)s) AND {person}",
    }.items()
}
_VISIBLE_IDS["email"] = _VISIBLE_IDS["document"]


def visible(conn: Conn, store_id: str, person: str | None, refs: Iterable[Ref]) -> set[Ref]:
    """Of these (kind, id) refs, those of this store the reader may see."""
    by_kind: dict[str, set[int]] = {}
    for kind, rid in refs:
        by_kind.setdefault(kind, set()).add(int(rid))
    out: set[Ref] = set()
    for kind, ids in by_kind.items():
        query = _VISIBLE_IDS.get(kind)
        if query is None:
            continue  # an unknown kind is never visible
        rows = conn.execute(query, {"store": store_id, "person": person, "ids": sorted(ids)})
        out.update((kind, int(r["id"])) for r in rows)
    return out


# The fields of a record type that name other records; a record type has some or all of them
# (an Item all, a Hit only its chat and turns), and redaction takes out what the reader may not
# see of whichever it has.
R = TypeVar("R", bound=BaseModel)


def _has(record: BaseModel, name: str) -> bool:
    return name in type(record).model_fields


def item_refs(record: BaseModel) -> set[Ref]:
    """Every record an item's fields point to: its chat, edges, feeders, contested partners and
    successor."""
    refs: set[Ref] = set()
    chat_id = getattr(record, "chat_id", None)
    if chat_id is not None:
        refs.add(("chat", int(chat_id)))
    for e in getattr(record, "edges", None) or []:
        refs.add((str(e.kind), int(e.target)))
    for key in ("fed_by", "contested_with"):
        refs.update(("item", int(i)) for i in getattr(record, key, None) or [])
    successor = getattr(record, "superseded_by", None)
    if successor is not None:
        refs.add(("item", int(successor)))
    return refs


def redact_item(record: R, seen: set[Ref]) -> R:
    """The item with every reference outside `seen` taken out (a hidden chat takes its seqs
    with it)."""
    out: dict[str, Any] = {}
    chat_id = getattr(record, "chat_id", None)
    if chat_id is not None and ("chat", chat_id) not in seen:
        out.update(chat_id=None, from_seq=None, to_seq=None)
        # The key that wrote it in that chat is the chat's: hidden with it.
        if getattr(record, "key_id", None) is not None:
            out["key_id"] = None
            if _has(record, "written_by"):
                out["written_by"] = HIDDEN_WRITER
    if _has(record, "edges"):
        out["edges"] = [
            e for e in getattr(record, "edges", None) or [] if (e.kind, e.target) in seen
        ]
    for key in ("fed_by", "contested_with"):
        if _has(record, key):
            out[key] = [i for i in getattr(record, key) if ("item", i) in seen]
    successor = getattr(record, "superseded_by", None)
    if successor is not None and ("item", successor) not in seen:
        out["superseded_by"] = None
    return record.model_copy(update=out)


# Actors that name who wrote: a key ("key <id>") or an account ("account <id>"). Where they
# wrote in a chat the reader may not see, they are that chat's and hidden with it.
NAMED_ACTOR = ("key ", "account ")


# The parameters of actor_as_read's SQL, beside reader_params'.
ACTOR_PARAMS: dict[str, Any] = {"named": [f"{a}%" for a in NAMED_ACTOR], "hidden": HIDDEN_WRITER}


def actor_as_read(actor: str, chat_person: str) -> str:
    """SQL: the `actor` column as the reader sees it (reader_params and ACTOR_PARAMS): a key or
    an account that wrote in a person's chat (`chat_person`, a fixed column) other than the
    reader's is HIDDEN_WRITER."""
    return (
        f"CASE WHEN NOT %(everyone)s AND {actor} LIKE ANY(%(named)s)"
        f" AND {chat_person} IS NOT NULL AND {chat_person} IS DISTINCT FROM %(reader)s"
        f" THEN %(hidden)s ELSE {actor} END"
    )


def actor_seen(actor: str, chat_hidden: bool) -> str:
    """The actor of a version or an event as the reader may see it."""
    return HIDDEN_WRITER if chat_hidden and actor.startswith(NAMED_ACTOR) else actor


def redact_items(conn: Conn, store_id: str, person: str | None, records: list[R]) -> list[R]:
    """Items as a reader may see them: references to records hidden from them taken out, and
    a shared record's recall counters too (others_recalls)."""
    refs = set().union(*(item_refs(r) for r in records)) if records else set()
    seen = visible(conn, store_id, person, refs) if refs else set()
    return [others_recalls(redact_item(r, seen)) for r in records]


def others_recalls(record: R) -> R:
    """A shared record without its recall counters (access_count, last_recalled_at: None) for
    a reader limited to one person or to shared records: they count every person's searches
    that returned it, and would tell when another person asked about it."""
    if getattr(record, "person_id", "") is not None or not _has(record, "access_count"):
        return record
    return record.model_copy(update={"access_count": None, "last_recalled_at": None})


class Everyone:
    """A reader who sees every record of the store: its administrator, or the application
    reading as itself (the console, the CLI, analysts). Turns read as a person, or None."""

    def __repr__(self) -> str:
        return "EVERYONE"


EVERYONE = Everyone()
Reader = str | None | Everyone


def reads(reader: Reader, person: str | None) -> bool:
    """Whether the reader may read a record or chat that is `person`'s (None: shared): the
    same rule as reader_sees, in Python."""
    return isinstance(reader, Everyone) or person is None or person == reader


def reader_params(reader: Reader) -> dict[str, Any]:
    """SQL parameters for READER_SEES: everyone, or the person (None: shared only)."""
    if isinstance(reader, Everyone):
        return {"everyone": True, "reader": None}
    if reader is not None and not isinstance(reader, str):
        raise TypeError(f"reader must be a person id, None or EVERYONE, got {reader!r}")
    return {"everyone": False, "reader": reader}


def reader_sees(person_column: str = "person_id") -> str:
    """SQL: a row whose person is in this (fixed) column is visible to the reader (with the
    parameters of reader_params)."""
    return f"(%(everyone)s OR {person_column} IS NULL OR {person_column} = %(reader)s)"
