"""Extraction scored on hand-written chats (benchmarks/data/extraction): each case lists every
item that should come out of its turns, strings no item may hold, and old values that a
correction must leave superseded.

coverage: share of expected items found among the current items (category, every `contains`
string, and `owed_to` / `due` when given). precision: share of current items that are some
expected item. Each case runs through the real write path (ingest, windows, the extractor,
the save policy and the dedup judge) in a store of its own.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.memory import Memory
from memory_pipelines.core.conversations import Chat
from memory_pipelines.core.types import Item
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database


def matches(item: Item, want: dict[str, Any]) -> bool:
    """Whether an item is the expected one: its category (when given), every string of
    `contains` (case-insensitive), and `owed_to` and the `due` date when given."""
    text = item.context.lower()
    if want.get("category") and item.category != want["category"]:
        return False
    if not all(s.lower() in text for s in want.get("contains", [])):
        return False
    if want.get("owed_to") and (item.owed_to or "").lower() != want["owed_to"].lower():
        return False
    if want.get("due"):
        return item.due_at is not None and item.due_at.date().isoformat() == want["due"]
    return True


def run_case(db: Database, models: Models, embedder: Embedder, case: dict[str, Any]) -> dict:
    """One case in a fresh store, dropped after; what was found, wrong and left over."""
    store_id = f"eval-xcase-{uuid.uuid4().hex[:8]}"
    memory = Memory(store_id, db=db, embedder=embedder, models=models)
    turns = [
        {**t, "created_at": datetime.fromisoformat(t["created_at"]), "external_id": f"t{n}"}
        for n, t in enumerate(case["turns"], start=1)
    ]
    try:
        ingest_chats(memory, [Chat(external_id=case["id"], turns=turns)])
        run_extraction(db, store_id, models, embedder, run_id=f"eval-{store_id}")
        items = memory.items()
    finally:
        with db.connection() as conn:
            stores_db.drop_store(conn, store_id)
    expect = case.get("expect", [])
    found = [any(matches(i, w) for i in items) for w in expect]
    good = [any(matches(i, w) for w in expect) for i in items]
    bad_strings = [
        s for s in case.get("absent", []) if any(s.lower() in i.context.lower() for i in items)
    ]
    stale = [
        s for s in case.get("not_current", []) if any(s.lower() in i.context.lower() for i in items)
    ]
    return {
        "id": case["id"],
        "expected": len(expect),
        "found": sum(found),
        "items": len(items),
        "items_expected": sum(good),
        "absent_violated": bad_strings,
        "not_superseded": stale,
        "extra": [i.context for i, ok in zip(items, good, strict=True) if not ok],
        "missing": [w for w, ok in zip(expect, found, strict=True) if not ok],
    }


def evaluate(
    db: Database, models: Models, embedder: Embedder, path: Path, cases: list[dict[str, Any]]
) -> dict[str, Any]:
    """Coverage and precision over all cases, with every case's misses named."""
    rows = [run_case(db, models, embedder, c) for c in cases]
    models.drain()
    expected = sum(r["expected"] for r in rows)
    items = sum(r["items"] for r in rows)
    superseding = sum(len(c.get("not_current", [])) for c in cases)
    return {
        "cases": str(path),
        "n": len(rows),
        "coverage": round(sum(r["found"] for r in rows) / expected, 4) if expected else 0.0,
        "precision": round(sum(r["items_expected"] for r in rows) / items, 4) if items else 0.0,
        "absent_violated": sum(len(r["absent_violated"]) for r in rows),
        "corrections_superseded": round(
            1 - sum(len(r["not_superseded"]) for r in rows) / superseding, 4
        )
        if superseding
        else None,
        "misses": [
            r
            for r in rows
            if r["missing"] or r["extra"] or r["absent_violated"] or r["not_superseded"]
        ],  # fmt: skip
    }
