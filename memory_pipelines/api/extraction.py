"""Extraction from conversations in three stages (windows -> candidates -> memory items).

Plain functions over the store, so Dagster assets, the CLI and the evaluations share them.
Each window is one transaction per stage: a run killed half-way leaves whole windows behind,
and the next run picks up where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from memory_pipelines.api.dedup import Provenance, save_deduplicated
from memory_pipelines.core.extract import check_candidate
from memory_pipelines.core.records import validate_item
from memory_pipelines.core.windows import windows_for
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import extraction as ex_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Database

EXTRACTOR = "extraction@v1"
Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def plan_windows(
    db: Database, store_id: str, now: datetime | None = None, log: Log = _quiet
) -> dict[str, Any]:
    """Group turns not yet in a window into new windows, by the store's settings."""
    now = now or datetime.now(UTC)
    with db.transaction() as conn:
        settings = stores_db.get_settings(conn, store_id).extraction
        if not settings.enabled:
            log(f"extraction is off for store {store_id}: no windows planned")
            return {"windows_new": 0, "enabled": False}
        new = 0
        for chat in ex_db.chat_states(conn, store_id, settings.lookback_days):
            new += ex_db.insert_windows(
                conn, store_id, chat.chat_id, windows_for(chat, settings, now)
            )
        pending = len(ex_db.windows_in_state(conn, store_id, "pending"))
    log(f"store {store_id}: {new} new windows, {pending} waiting to be read")
    return {"windows_new": new, "windows_pending": pending, "enabled": True}


def extract_pending(
    db: Database, store_id: str, models: Models, log: Log = _quiet
) -> dict[str, Any]:
    """Read every pending window; store its candidates, valid or dropped with a reason."""
    with db.connection() as conn:
        settings = stores_db.get_settings(conn, store_id).extraction
        windows = ex_db.windows_in_state(conn, store_id, "pending")
    counts = {"windows_read": 0, "candidates": 0, "dropped_invalid": 0, "model_calls": 0}
    for w in windows:
        with db.connection() as conn:
            turns = ex_db.window_turns(conn, w["chat_id"], w["from_seq"], w["to_seq"])
        try:
            raw = models.extract(turns, settings.instructions, settings.types)
        except Invalid:
            raw = []
            counts["dropped_invalid"] += 1  # the whole answer was unusable
        checked = []
        for cand in raw:
            if cand.get("from_seq", w["from_seq"]) < w["from_seq"]:
                continue  # said in the context turns before the window: not this window's
            item, why = check_candidate(cand, w["from_seq"], w["to_seq"], settings.types)
            checked.append((item or {"raw": cand}, item is not None, why))
            counts["dropped_invalid"] += item is None
        calls = models.drain()
        with db.transaction() as conn:
            ex_db.store_candidates(conn, store_id, w["window_id"], checked)
            record_calls(conn, store_id, calls)
        counts["windows_read"] += 1
        counts["candidates"] += sum(1 for _, ok, _ in checked if ok)
        counts["model_calls"] += len(calls)
    log(
        f"store {store_id}: read {counts['windows_read']} windows, {counts['candidates']}"
        f" candidates, {counts['dropped_invalid']} dropped as invalid"
    )
    return counts


def apply_extracted(
    db: Database,
    store_id: str,
    models: Models,
    embedder: Embedder,
    log: Log = _quiet,
    run_id: str = "",
) -> dict[str, Any]:
    """Save every extracted window's candidates through the dedup judge, one transaction each:
    a fact said again confirms its item, a correction supersedes it."""
    with db.connection() as conn:
        windows = ex_db.windows_in_state(conn, store_id, "extracted")
    counts = {"windows_applied": 0, "written": 0, "confirmed": 0, "superseded": 0, "model_calls": 0}
    for w in windows:
        with db.transaction() as conn:
            cands = ex_db.valid_candidates(conn, w["window_id"])
            items = [
                validate_item(
                    {k: v for k, v in c["payload"].items() if k not in ("from_seq", "to_seq")}
                )
                for c in cands
            ]
            vecs = embedder.embed([i.context for i in items])
            for cand, item, vec in zip(cands, items, vecs, strict=True):
                p = cand["payload"]
                prov = Provenance(
                    origin="derived",
                    trusted=True,
                    written_by=EXTRACTOR,
                    chat_id=w["chat_id"],
                    from_seq=p["from_seq"],
                    to_seq=p["to_seq"],
                    model=models.backend.model,
                )
                result = save_deduplicated(conn, store_id, item, vec, models, prov)
                if result.get("deduplicated"):
                    outcome, item_id = "merged", result["mergedInto"]
                    counts["confirmed"] += 1
                elif "superseded" in result:
                    outcome, item_id = "superseded", result["id"]
                    counts["superseded"] += 1
                    counts["written"] += 1
                else:
                    outcome, item_id = "created", result["id"]
                    counts["written"] += 1
                ex_db.set_outcome(conn, cand["candidate_id"], outcome, item_id)
            calls = models.drain()
            record_calls(conn, store_id, calls, run_id)
            ex_db.mark_applied(conn, w["window_id"])
        counts["windows_applied"] += 1
        counts["model_calls"] += len(calls)
        if counts["windows_applied"] % 20 == 0:
            log(f"store {store_id}: applied {counts['windows_applied']}/{len(windows)} windows")
    log(
        f"store {store_id}: {counts['written']} written, {counts['confirmed']} confirmed,"
        f" {counts['superseded']} superseded from {counts['windows_applied']} windows"
    )
    return counts


def run_extraction(
    db: Database,
    store_id: str,
    models: Models,
    embedder: Embedder,
    run_id: str,
    log: Log = _quiet,
) -> dict[str, Any]:
    """All three stages in order, with the pass recorded (used outside Dagster)."""
    start = time.perf_counter()
    plan = plan_windows(db, store_id, log=log)
    read = extract_pending(db, store_id, models, log)
    applied = apply_extracted(db, store_id, models, embedder, log, run_id)
    counts = {
        "windows_new": plan["windows_new"],
        **read,
        **applied,
        "model_calls": read["model_calls"] + applied["model_calls"],
        "duration_s": round(time.perf_counter() - start, 3),
    }
    with db.connection() as conn:
        ex_db.record_pass(conn, store_id, run_id, **counts)
    return counts
