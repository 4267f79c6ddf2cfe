"""Labels one record gave another, and taking them back when every record that gave one is gone.

Two writers copy a record's labels (tags, entities, keywords) onto another record: evolution (a
label most of an item's linked neighbours carry, an entity a neighbour holds that the item's
text names) and maintenance's merge of duplicates (the survivor takes the union of theirs).
Each records, in the payload of the receiving record's event, which records gave each label it
added: `from` ({"tags": {label: [ids]}, ...}) and `givers` (every id, indexed, migration 028).

Deleting a record takes back, from every record it gave a label to, each label that no record
which gave it still holds and that record's own text does not say. The label also leaves that
record's rows in item_versions and events, as if it had never been added, and so on along the
records it had passed the label on to: a deleted record's words do not outlive it on its
neighbours. Labels given before migration 028 name no givers and stay.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from psycopg.types.json import Jsonb

from memory_pipelines.core.evolution import text_names
from memory_pipelines.store.db import Conn

LABELS = ("tags", "entities", "keywords")
Given = dict[str, dict[str, list[int]]]  # field -> label as added -> ids of the records giving it


def given_payload(given: Mapping[str, Mapping[str, Sequence[int]]]) -> dict[str, Any]:
    """The event payload's keys recording who gave the labels added (empty when none were)."""
    out = {
        f: {label: sorted(set(ids)) for label, ids in m.items() if ids} for f, m in given.items()
    }
    out = {f: m for f, m in out.items() if m}
    if not out:
        return {}
    givers = sorted({i for m in out.values() for ids in m.values() for i in ids})
    return {"from": out, "givers": givers}


def held_labels(conn: Conn, ids: Iterable[int]) -> dict[int, set[str]]:
    """The labels (any field, lower case) each record that still exists holds."""
    rows = conn.execute(
        "SELECT item_id, tags, entities, keywords FROM agent_memory_items WHERE item_id = ANY(%s)",
        (sorted(set(ids)),),
    ).fetchall()
    return {int(r["item_id"]): {v.lower() for f in LABELS for v in r[f] or ()} for r in rows}


def _lost(conn: Conn, store_id: str, receiver: int, text: str) -> dict[str, set[str]]:
    """The labels (per field, lower case) the receiver was given that no giver still holds
    and its own text does not say (an entity its text names is its own words)."""
    events = conn.execute(
        "SELECT payload->'from' AS given FROM events WHERE store_id = %s AND item_id = %s"
        " AND payload ? 'givers'",
        (store_id, receiver),
    ).fetchall()
    from_: dict[tuple[str, str], set[int]] = defaultdict(set)
    for e in events:
        for field, labels in (e["given"] or {}).items():
            for label, ids in labels.items():
                from_[(field, label.lower())].update(int(i) for i in ids)
    held = held_labels(conn, {i for ids in from_.values() for i in ids})
    lost: dict[str, set[str]] = defaultdict(set)
    for (field, label), ids in from_.items():
        if not any(label in held.get(i, ()) for i in ids) and not text_names(text, label):
            lost[field].add(label)
    return lost


def _without(values: Sequence[str] | None, lost: set[str]) -> list[str] | None:
    return None if values is None else [v for v in values if v.lower() not in lost]


def _scrubbed(doc: dict[str, Any], lost: Mapping[str, set[str]]) -> dict[str, Any]:
    """A snapshot or payload without the lost labels (in its lists and its `from`)."""
    out = dict(doc)
    for field, labels in lost.items():
        if isinstance(out.get(field), list):
            out[field] = _without(out[field], labels)
    if isinstance(out.get("from"), dict):
        out["from"] = {
            f: {k: v for k, v in m.items() if k.lower() not in lost.get(f, set())}
            for f, m in out["from"].items()
        }
    return out


def _take_back(conn: Conn, store_id: str, receiver: int) -> bool:
    """Take back what the receiver lost; whether it lost anything."""
    row = conn.execute(
        "SELECT context, body, tags, entities, keywords FROM agent_memory_items"
        " WHERE item_id = %s FOR UPDATE",
        (receiver,),
    ).fetchone()
    if row is None:
        return False
    lost = _lost(conn, store_id, receiver, f"{row['context']} {row['body']}")
    if not lost:
        return False
    conn.execute(
        "UPDATE agent_memory_items SET tags = %s, entities = %s, keywords = %s WHERE item_id = %s",
        (*(_without(row[f], lost.get(f, set())) for f in LABELS), receiver),
    )
    for table, key, column in (
        ("item_versions", "version_id", "snapshot"),
        ("events", "event_id", "payload"),
    ):
        rows = conn.execute(
            f"SELECT {key} AS id, {column} AS doc FROM {table}"  # noqa: S608 (names above)
            " WHERE store_id = %s AND item_id = %s",
            (store_id, receiver),
        ).fetchall()
        for r in rows:
            doc = _scrubbed(r["doc"], lost)
            if doc != r["doc"]:
                conn.execute(
                    f"UPDATE {table} SET {column} = %s WHERE {key} = %s",  # noqa: S608
                    (Jsonb(doc), r["id"]),
                )
    return True


def receivers_of(conn: Conn, store_id: str, giver: int) -> list[int]:
    """The records `giver` gave a label to, in id order."""
    rows = conn.execute(
        "SELECT DISTINCT item_id FROM events WHERE store_id = %s AND payload ? 'givers'"
        " AND payload->'givers' @> %s AND item_id IS NOT NULL ORDER BY item_id",
        (store_id, Jsonb([giver])),
    ).fetchall()
    return [int(r["item_id"]) for r in rows]


def reachable(conn: Conn, store_id: str, giver: int) -> list[int]:
    """Every record a label of `giver` may have passed on to (its receivers, theirs, ...): what a
    delete may change, so their persons are locked first."""
    seen: set[int] = set()
    queue = [giver]
    while queue:
        new = [r for r in receivers_of(conn, store_id, queue.pop()) if r not in seen]
        seen.update(new)
        queue += new
    return sorted(seen)


def take_back_given(conn: Conn, store_id: str, gone: int) -> None:
    """After `gone` is deleted: take back each label it gave that no giver holds any more, from
    each record it gave one to, and on along the records those had passed it to."""
    queue = [gone]
    while queue:  # ends: a label taken back is in no `from` again
        queue += [
            r for r in receivers_of(conn, store_id, queue.pop()) if _take_back(conn, store_id, r)
        ]
