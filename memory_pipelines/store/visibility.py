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
from typing import Any

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
    "item": "SELECT item_id AS id FROM agent_memory_items WHERE store_id = %(store)s"
    f" AND item_id = ANY(%(ids)s) AND {ITEM_VISIBLE}",
    "chat": f"SELECT chat_id AS id FROM chats WHERE chat_id = ANY(%(ids)s)"
    f" AND chat_id IN ({VISIBLE_CHATS})",
    "turn": "SELECT turn_id AS id FROM turns WHERE store_id = %(store)s"
    f" AND turn_id = ANY(%(ids)s) AND chat_id IN ({VISIBLE_CHATS})",
    "chunk": "SELECT chunk_id AS id FROM chunks WHERE store_id = %(store)s"
    f" AND chunk_id = ANY(%(ids)s) AND chat_id IN ({VISIBLE_CHATS})",
    "document": "SELECT passage_id AS id FROM documents WHERE store_id = %(store)s"
    f" AND passage_id = ANY(%(ids)s) AND {ITEM_VISIBLE}",
}
_VISIBLE_IDS["email"] = _VISIBLE_IDS["document"]


def visible(conn: Conn, store_id: str, person: str | None, refs: Iterable[Ref]) -> set[Ref]:
    """Of these (kind, id) refs, those of this store the reader may see."""
    by_kind: dict[str, set[int]] = {}
    for kind, rid in refs:
        by_kind.setdefault(kind, set()).add(int(rid))
    out: set[Ref] = set()
    for kind, ids in by_kind.items():
        sql = _VISIBLE_IDS.get(kind)
        if sql is None:
            continue  # an unknown kind is never visible
        rows = conn.execute(sql, {"store": store_id, "person": person, "ids": sorted(ids)})
        out.update((kind, int(r["id"])) for r in rows)
    return out


def item_refs(record: dict[str, Any]) -> set[Ref]:
    """Every record an item's fields point to: its chat, edges, feeders, contested partners and
    successor."""
    refs: set[Ref] = set()
    if record.get("chat_id") is not None:
        refs.add(("chat", int(record["chat_id"])))
    for e in record.get("edges") or []:
        refs.add((str(e["kind"]), int(e["target"])))
    for key in ("fed_by", "contested_with"):
        refs.update(("item", int(i)) for i in record.get(key) or [])
    if record.get("superseded_by") is not None:
        refs.add(("item", int(record["superseded_by"])))
    return refs


def redact_item(record: dict[str, Any], seen: set[Ref]) -> dict[str, Any]:
    """The item with every reference outside `seen` taken out (a hidden chat takes its seqs
    with it)."""
    out = dict(record)
    if "chat_id" in out and out["chat_id"] is not None and ("chat", out["chat_id"]) not in seen:
        out.update(chat_id=None, from_seq=None, to_seq=None)
    if "edges" in out:
        out["edges"] = [e for e in out["edges"] or [] if (e["kind"], e["target"]) in seen]
    for key in ("fed_by", "contested_with"):
        if key in out:
            out[key] = [i for i in out[key] or [] if ("item", i) in seen]
    if out.get("superseded_by") is not None and ("item", out["superseded_by"]) not in seen:
        out["superseded_by"] = None
    return out


def redact_items(
    conn: Conn, store_id: str, person: str | None, records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Items as a reader may see them: references to records hidden from them taken out."""
    refs = set().union(*(item_refs(r) for r in records)) if records else set()
    seen = visible(conn, store_id, person, refs) if refs else set()
    return [redact_item(r, seen) for r in records]


class Everyone:
    """A reader who sees every record of the store: its administrator, or the application
    reading as itself (the console, the CLI, analysts). Turns read as a person, or None."""

    def __repr__(self) -> str:
        return "EVERYONE"


EVERYONE = Everyone()
Reader = str | None | Everyone


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
