"""The maintenance pass in Postgres: what it reads, and its writes (merge, archive, contest),
each with a version row and an event. Nothing here deletes a row of any table.

Write functions run in the caller's transaction, lock the rows they change and re-check that
the rows are still as read, so an item saved, recalled or deleted meanwhile is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import polars as pl
from psycopg.types.json import Jsonb

from memory_pipelines.core.maintenance import union_fields
from memory_pipelines.core.types import Item
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Conn
from memory_pipelines.store.given_labels import LABELS, given_payload
from memory_pipelines.store.items import returning_item
from memory_pipelines.store.links import add_link
from memory_pipelines.store.rows import fetch_all, fetch_one, one
from memory_pipelines.store.versions import write_version

ACTOR = "maintenance@v1"
_UTC = pl.Datetime("us", "UTC")
ARCHIVE_SCHEMA: dict[str, pl.DataType] = {
    "item_id": pl.Int64(),
    "salience": pl.Float64(),
    "scored_at": _UTC,
    "last_recalled_at": _UTC,
    "last_confirmed_at": _UTC,
    "created_at": _UTC,
}


def current_items(conn: Conn, store_id: str) -> tuple[list[dict[str, Any]], np.ndarray]:
    """Current items of the store, oldest first: the fields maintenance weighs, and their
    embeddings as one float32 matrix (row i is item i)."""
    # Binary results: parsing 20,000 vectors from their text form costs seconds.
    with conn.cursor(binary=True) as cur:
        rows = cur.execute(
            "SELECT item_id, person_id, category, context, source, confidence, confirm_count,"
            " created_at, embedding FROM agent_memory_items"
            " WHERE store_id = %s AND state = 'current' ORDER BY item_id",
            (store_id,),
        ).fetchall()
    vecs = np.stack([r.pop("embedding").to_numpy() for r in rows]) if rows else np.zeros((0, 0))
    return [dict(r) for r in rows], vecs.astype(np.float32, copy=False)


def _lock_current(conn: Conn, store_id: str, ids: Sequence[int]) -> dict[int, str]:
    """Lock the items that are still current; returns their id -> md5 of context."""
    # Filtered on the primary key alone: on a store just bulk-loaded (no statistics yet) a
    # store_id/state condition made the planner scan the store's index, 20 ms per call.
    rows = conn.execute(
        "SELECT item_id, store_id, state, md5(context) AS text_md5 FROM agent_memory_items"
        " WHERE item_id = ANY(%s) ORDER BY item_id FOR UPDATE",
        (sorted(ids),),
    ).fetchall()
    return {
        int(r["item_id"]): r["text_md5"]
        for r in rows
        if r["store_id"] == store_id and r["state"] == "current"
    }


def merge_duplicates(
    conn: Conn,
    store_id: str,
    survivor: int,
    weaker: Sequence[tuple[int, float]],
    run_id: str = "",
) -> list[int]:
    """Supersede each weaker (item id, cosine) by the survivor, which takes the union of their
    tags, entities, keywords and edges. Returns the ids superseded: those still current."""
    alive = _lock_current(conn, store_id, [survivor, *(w for w, _ in weaker)])
    if survivor not in alive:
        return []  # retired meanwhile: the next pass clusters what is left
    gone = [(w, cos) for w, cos in weaker if w in alive and w != survivor]
    if not gone:
        return []
    keep = items_db.get_item(conn, survivor)
    records = [items_db.get_item(conn, w) for w, _ in gone]
    fields = union_fields(keep, records)
    merged = one(
        fetch_one(
            conn,
            Item,
            returning_item(
                "UPDATE agent_memory_items SET tags = %s, entities = %s, keywords = %s,"
                " edges = %s, updated_at = now() WHERE item_id = %s"
            ),
            (
                fields["tags"],
                fields["entities"],
                fields["keywords"],
                Jsonb([e.model_dump() for e in fields["edges"]]),
                survivor,
            ),
        ),
        f"merging duplicates into item {survivor}",
    )
    for e in fields["edges"]:
        if e not in keep.edges:
            add_link(
                conn, store_id, "item", survivor, e.kind, e.target, e.type,
                model=ACTOR, run_id=run_id,
            )  # fmt: skip
    for w, cos in gone:
        items_db.supersede(
            conn, store_id, w, survivor, ACTOR, run_id=run_id,
            payload={"reason": "duplicate", "cosine": round(cos, 4)},
        )  # fmt: skip
    ids = [w for w, _ in gone]
    # What the weaker records gave: labels the survivor lacked in any case (a "finance" beside
    # its own "Finance" is its own word, never taken back with the duplicate).
    given = {
        f: {
            v: [w.item_id for w in records if v.lower() in {x.lower() for x in getattr(w, f)}]
            for v in fields[f][len(getattr(keep, f)) :]
            if v.lower() not in {x.lower() for x in getattr(keep, f)}
        }
        for f in LABELS
    }
    write_version(
        conn, merged, "merge", ACTOR, event="merge",
        payload={"merged": ids, "reason": "duplicate", **given_payload(given)},
    )  # fmt: skip
    return ids


def archive_candidates(conn: Conn, store_id: str, categories: Sequence[str]) -> pl.DataFrame:
    """Current items of these categories (those that decay) with their salience from the last
    decay pass (null when never scored), without open commitments: a promise still owed has
    not faded, however old."""
    rows = conn.execute(
        "SELECT i.item_id, s.salience, s.computed_at AS scored_at, i.last_recalled_at,"
        " i.last_confirmed_at, i.created_at FROM agent_memory_items i"
        " LEFT JOIN item_scores s USING (item_id)"
        " WHERE i.store_id = %s AND i.state = 'current' AND i.status IS DISTINCT FROM 'open'"
        " AND i.category = ANY(%s) ORDER BY i.item_id",
        (store_id, list(categories)),
    ).fetchall()
    return pl.DataFrame(rows, schema=ARCHIVE_SCHEMA, orient="row")


def archive(
    conn: Conn, store_id: str, faded: Sequence[tuple[int, float, float]], idle_cutoff: datetime
) -> list[int]:
    """Archive the (item id, salience, idle days) given, if still current and still idle since
    before `idle_cutoff` (a recall or confirmation meanwhile keeps an item). Returns the ids."""
    if not faded:
        return []
    why = {i: (s, d) for i, s, d in faded}
    archived = fetch_all(
        conn,
        Item,
        returning_item(
            "UPDATE agent_memory_items SET state = 'archived', updated_at = now()"
            " WHERE store_id = %s AND item_id = ANY(%s) AND state = 'current'"
            " AND coalesce(greatest(last_recalled_at, last_confirmed_at), created_at) <= %s"
        ),
        (store_id, sorted(why), idle_cutoff),
    )
    for item in sorted(archived, key=lambda i: i.item_id):
        salience, idle_days = why[item.item_id]
        write_version(
            conn, item, "archive", ACTOR, event="archive",
            payload={"salience": round(salience, 4), "idle_days": round(idle_days, 1)},
        )  # fmt: skip
    return sorted(i.item_id for i in archived)


def restores_since_last_pass(conn: Conn, store_id: str) -> tuple[int, int]:
    """(restore events since the previous pass, the newest event id now)."""
    row = conn.execute(
        "WITH last AS (SELECT coalesce(max(last_event_id), 0) AS id FROM maintenance_passes"
        "   WHERE store_id = %(s)s)"
        " SELECT count(*) FILTER (WHERE e.kind = 'restore' AND e.event_id > last.id) AS n,"
        " greatest(last.id, coalesce(max(e.event_id), 0)) AS newest"
        " FROM last LEFT JOIN events e ON e.store_id = %(s)s AND e.event_id > last.id"
        " GROUP BY last.id",
        {"s": store_id},
    ).fetchone()
    return (int(row["n"]), int(row["newest"])) if row else (0, 0)


def linked_pairs(conn: Conn, store_id: str) -> list[tuple[int, int]]:
    """Pairs (smaller id first) of current items of one person (or both shared) joined by a
    link of any type but `supersedes`, which only ever joins a current item to a retired one."""
    rows = conn.execute(
        "SELECT DISTINCT least(a.item_id, b.item_id) AS x, greatest(a.item_id, b.item_id) AS y"
        " FROM links l JOIN agent_memory_items a ON a.item_id = l.src_id"
        " JOIN agent_memory_items b ON b.item_id = l.dst_id"
        " WHERE l.store_id = %s AND l.src_kind = 'item' AND l.dst_kind = 'item'"
        " AND l.link_type <> 'supersedes' AND a.item_id <> b.item_id"
        " AND a.state = 'current' AND b.state = 'current'"
        " AND a.person_id IS NOT DISTINCT FROM b.person_id ORDER BY 1, 2",
        (store_id,),
    ).fetchall()
    return [(int(r["x"]), int(r["y"])) for r in rows]


def judged_pairs(conn: Conn, store_id: str) -> dict[tuple[int, int], tuple[str, str]]:
    """Pairs already judged for contradiction -> the md5 of each context as judged."""
    rows = conn.execute(
        "SELECT item_a, item_b, a_text_md5, b_text_md5 FROM contradiction_checks"
        " WHERE store_id = %s",
        (store_id,),
    ).fetchall()
    return {(r["item_a"], r["item_b"]): (r["a_text_md5"], r["b_text_md5"]) for r in rows}


def record_judgements(
    conn: Conn,
    store_id: str,
    rows: Sequence[tuple[int, int, str, str, bool | None, str]],
    backend: str,
    model: str,
    run_id: str = "",
) -> None:
    """Store (a, b, a_md5, b_md5, contradicts or None when invalid, reason) per pair; a pair
    judged again (its wording changed) is overwritten."""
    if not rows:
        return
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO contradiction_checks (item_a, item_b, store_id, a_text_md5,"
            " b_text_md5, contradicts, reason, backend, model, run_id)"
            " SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"
            # an item deleted while the model was thinking has nothing left to judge
            " WHERE (SELECT count(*) FROM agent_memory_items WHERE item_id IN (%s, %s)) = 2"
            " ON CONFLICT (item_a, item_b) DO UPDATE SET a_text_md5 = excluded.a_text_md5,"
            " b_text_md5 = excluded.b_text_md5, contradicts = excluded.contradicts,"
            " reason = excluded.reason, backend = excluded.backend, model = excluded.model,"
            " run_id = excluded.run_id, judged_at = now()",
            [
                (a, b, store_id, ma, mb, c, r, backend, model, run_id, a, b)
                for a, b, ma, mb, c, r in rows
            ],
        )


def contest(conn: Conn, store_id: str, a: int, b: int, md5s: tuple[str, str], reason: str) -> bool:
    """Flag both items contested, each naming the other, if both are current and worded as
    judged. Nothing picks a winner: both stay current. Returns whether the flags were set."""
    alive = _lock_current(conn, store_id, [a, b])
    if alive.get(a) != md5s[0] or alive.get(b) != md5s[1]:
        return False
    for item, other in ((a, b), (b, a)):
        # updated_at stays: a flag is no new wording, and linkgen re-reads changed items
        flagged = one(
            fetch_one(
                conn,
                Item,
                returning_item(
                    "UPDATE agent_memory_items SET contested = true, contested_with = CASE"
                    " WHEN %s = ANY(contested_with) THEN contested_with"
                    " ELSE array_append(contested_with, %s) END WHERE item_id = %s"
                ),
                (other, other, item),
            ),
            f"flagging item {item} contested",
        )
        write_version(
            conn, flagged, "contest", ACTOR, event="contest",
            payload={"with": other, "reason": reason},
        )  # fmt: skip
    return True


def last_pass_started(conn: Conn, store_id: str) -> datetime | None:
    """When the store's latest maintenance pass started, or None if it never ran."""
    row = conn.execute(
        "SELECT max(started_at) AS t FROM maintenance_passes WHERE store_id = %s", (store_id,)
    ).fetchone()
    return row["t"] if row else None


def record_pass(
    conn: Conn,
    store_id: str,
    run_id: str,
    started_at: datetime,
    counts: Mapping[str, Any],
    last_event_id: int,
) -> None:
    """One row of maintenance_passes (the console's "when maintenance last ran"), from the
    pass's counts; `last_event_id` is the newest event it had seen when it started."""
    conn.execute(
        "INSERT INTO maintenance_passes (store_id, run_id, started_at, items_scanned, merged,"
        " archived, restored, contested, judged, duration_s, last_event_id)"
        " VALUES (%(s)s, %(r)s, %(t)s, %(items_scanned)s, %(merged)s, %(archived)s,"
        " %(restored)s, %(contested)s, %(judged)s, %(seconds)s, %(e)s)",
        {**counts, "s": store_id, "r": run_id, "t": started_at, "e": last_event_id},
    )


def supersede_cycles(conn: Conn, store_id: str) -> list[int]:
    """Items of the store whose superseded_by chain runs in a circle (should be none)."""
    rows = conn.execute(
        "WITH RECURSIVE walk(start_id, item_id) AS ("
        "  SELECT item_id, superseded_by FROM agent_memory_items"
        "  WHERE store_id = %s AND superseded_by IS NOT NULL"
        "  UNION ALL SELECT w.start_id, i.superseded_by FROM walk w"
        "  JOIN agent_memory_items i ON i.item_id = w.item_id WHERE i.superseded_by IS NOT NULL"
        ") CYCLE item_id SET in_cycle USING path"
        " SELECT DISTINCT start_id FROM walk WHERE in_cycle ORDER BY start_id",
        (store_id,),
    ).fetchall()
    return [int(r["start_id"]) for r in rows]
