"""Extraction from conversations in three stages (windows -> candidates -> memory items).

Plain functions over the store, so Dagster assets, the CLI and the evaluations share them.
Each window is one transaction per stage: a run killed half-way leaves whole windows behind,
and the next run picks up where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np

from memory_pipelines.api.dedup import save_deduplicated
from memory_pipelines.api.dedup_near import DedupPool, Provenance
from memory_pipelines.core.candidates import (
    MAX_PER_TURN,
    POLICY_DROP,
    PROVENANCE_KEYS,
    check_candidate,
    over_budget,
)
from memory_pipelines.core.due import Owed
from memory_pipelines.core.records import ItemInput, validate_item
from memory_pipelines.core.settings import Extraction
from memory_pipelines.core.windows import windows_for
from memory_pipelines.errors import StoreError
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.embedder import DIM, Embedder
from memory_pipelines.store import extraction as ex_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database, as_array

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
        ex_db.lock_planning(conn, store_id)  # another run's windows first, then this one's
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


def work_owed(conn: Conn, store_id: str, now: datetime) -> tuple[Extraction, Owed | None]:
    """The store's extraction settings and the work its turns still need (None: no turns):
    turns not embedded, windows not applied, and windows `plan_windows` would add now."""
    settings = stores_db.get_settings(conn, store_id).extraction
    summary = ex_db.turn_summary(conn, store_id)
    if summary is None:
        return settings, None
    windows = 0
    # The quiet period is each conversation's: the store's work is as quiet as the owing
    # conversation quiet the longest (a live chat beside it never holds its windows back).
    # Windows planned by an earlier run and not applied are ready now.
    quiet_since = summary["last_at"]
    if settings.enabled:
        windows = ex_db.open_windows(conn, store_id)
        if windows:
            quiet_since = datetime.min.replace(tzinfo=UTC)
        fresh = ex_db.chats_with_new_turns(conn, store_id)
        if fresh:
            for chat in ex_db.chat_states(conn, store_id, settings.lookback_days, fresh):
                if planned := len(windows_for(chat, settings, now)):
                    windows += planned
                    quiet_since = min(quiet_since, chat.last_turn_at)
    owed = Owed(summary["top"], quiet_since, int(summary["unembedded"]), windows)
    return settings, owed


def extract_pending(
    db: Database, store_id: str, models: Models, log: Log = _quiet, run_id: str = ""
) -> dict[str, Any]:
    """Read every pending window; store its candidates, valid or dropped with a reason."""
    with db.connection() as conn:
        store_settings = stores_db.get_settings(conn, store_id)
        windows = ex_db.windows_in_state(conn, store_id, "pending")
    settings = store_settings.extraction
    budget = store_settings.save_policy.budget_per_turn or MAX_PER_TURN
    counts = dict.fromkeys(
        ("windows_read", "candidates", "dropped_invalid", "dropped_by_policy", "model_calls"), 0
    )
    # Turns are read in the store's own time zone (its Extraction card's): "by 5pm", "tomorrow"
    # and "yesterday (7 May)" mean the day and hour of the people talking, not UTC's.
    zone = ZoneInfo(settings.timezone)
    for w in windows:
        with db.connection() as conn:
            turns = [
                replace(t, created_at=t.created_at.astimezone(zone))
                for t in ex_db.window_turns(conn, w["chat_id"], w["from_seq"], w["to_seq"])
            ]
        seen = dict.fromkeys(("candidates", "dropped_invalid", "dropped_by_policy"), 0)
        try:
            raw = models.extract(turns, settings.instructions, settings.types)
        except Invalid:
            raw = []
            seen["dropped_invalid"] += 1  # the whole answer was unusable
        checked = []
        tools = {t.seq for t in turns if t.role.lower() == "tool"}  # context turns included
        for cand in raw:
            if cand.get("to_seq", w["to_seq"]) < w["from_seq"]:
                continue  # said in the context turns before the window: not this window's
            cited = cand.get("from_seq")
            if isinstance(cited, int) and cited < w["from_seq"]:
                cand["from_seq"] = w["from_seq"]  # begun in the context turns: this window's part
            vec = _known_vector(cand.pop("embedding", None))
            item, why = check_candidate(cand, w["from_seq"], w["to_seq"], settings.types)
            if item is not None:
                item["from_tools"] = _from_tools(tools, cited, item["to_seq"], models)
            checked.append((item or {"raw": cand}, item is not None, why, vec if item else None))
        valid = [i for i, c in enumerate(checked) if c[1]]
        for i in (valid[j] for j in over_budget([checked[i][0] for i in valid], budget)):
            why = f"{POLICY_DROP}budget (at most {budget} saves a turn)"
            checked[i] = ({"raw": checked[i][0]}, False, why, None)
        for _, ok, why, _ in checked:
            refused = why is not None and why.startswith(POLICY_DROP)
            seen["candidates"] += ok
            seen["dropped_by_policy"] += refused  # a greeting, chatter, speculation, budget
            seen["dropped_invalid"] += not ok and not refused
        calls = models.drain()
        with db.transaction() as conn:
            stored = ex_db.store_candidates(conn, store_id, w["window_id"], checked)
            record_calls(conn, store_id, calls, run_id)  # made either way: their cost counts
        counts["model_calls"] += len(calls)
        if stored:  # else another run read the window meanwhile and stored its candidates
            counts["windows_read"] += 1
            for key, n in seen.items():
                counts[key] += n
    log(
        f"store {store_id}: read {counts['windows_read']} windows, {counts['candidates']}"
        f" candidates, {counts['dropped_invalid']} dropped as invalid,"
        f" {counts['dropped_by_policy']} by the save policy"
    )
    return counts


EMBED_GROUP = 512  # candidates to embed in one call: small batches cost several times more
GROUP_WINDOWS = 64  # windows read ahead at most


def _known_vector(value: Any) -> np.ndarray | None:
    """The vector a local extractor attached (its sentence's, from the turn's embedding pass).
    An answer parsed from JSON never carries one: its candidates are embedded when applied."""
    if isinstance(value, np.ndarray) and value.shape == (DIM,):
        return value.astype(np.float32)
    return None


def apply_extracted(
    db: Database,
    store_id: str,
    models: Models,
    embedder: Embedder,
    log: Log = _quiet,
    run_id: str = "",
) -> dict[str, Any]:
    """Save every extracted window's candidates through the dedup judge, one transaction each:
    a fact said again confirms its item, a correction supersedes it. Candidate texts are
    embedded once, many windows at a time, and the store's item vectors are searched in memory
    (api/dedup_near.DedupPool)."""
    counts = {"windows_applied": 0, "written": 0, "confirmed": 0, "superseded": 0, "model_calls": 0}
    with db.connection() as conn:
        windows = ex_db.windows_in_state(conn, store_id, "extracted")
    if not windows:  # then reading every vector of the store is not worth it
        return _applied(store_id, counts, log)
    with db.connection() as conn:
        pool = DedupPool(conn, store_id, embedder.dim)
    for group in _groups(db, windows):
        missing = [
            item.context for _, cands in group for c, item in cands if c["embedding"] is None
        ]
        embedded = embedder.embed(missing)
        at = 0
        for w, cands in group:
            # This window's own vectors, taken before it is claimed: a window skipped below
            # must not hand its vectors to the next window's candidates.
            n = sum(1 for c, _ in cands if c["embedding"] is None)
            fresh = iter(embedded[at : at + n])
            at += n
            with db.transaction() as conn:
                if not ex_db.claim_for_apply(conn, w["window_id"]):
                    continue  # applied meanwhile by another run
                pool.lock_and_refresh(conn, [item.person for _, item in cands])
                # who said the window's turns, asked once for all its candidates
                pool.speakers.of(conn, w["chat_id"], range(w["from_seq"], w["to_seq"] + 1))
                outcomes = []
                for cand, item in cands:
                    known = cand["embedding"]
                    vec = next(fresh) if known is None else as_array(known)
                    outcome, item_id = _save(conn, store_id, w, cand, item, vec, models, pool)
                    counts[outcome] += 1
                    counts["written"] += outcome == "superseded"
                    outcomes.append((cand["candidate_id"], _OUTCOME[outcome], item_id))
                ex_db.set_outcomes(conn, outcomes)
                calls = models.drain()
                record_calls(conn, store_id, calls, run_id)
            counts["windows_applied"] += 1
            counts["model_calls"] += len(calls)
            if counts["windows_applied"] % 20 == 0:
                log(f"store {store_id}: applied {counts['windows_applied']}/{len(windows)} windows")
    return _applied(store_id, counts, log)


def _applied(store_id: str, counts: dict[str, Any], log: Log) -> dict[str, Any]:
    log(
        f"store {store_id}: {counts['written']} written, {counts['confirmed']} confirmed,"
        f" {counts['superseded']} superseded from {counts['windows_applied']} windows"
    )
    return counts


_OUTCOME = {"written": "created", "confirmed": "merged", "superseded": "superseded"}
Group = list[tuple[dict[str, Any], list[tuple[dict[str, Any], ItemInput]]]]


def _groups(db: Database, windows: list[dict[str, Any]]) -> Iterator[Group]:
    """Windows with their valid candidates, in groups of about EMBED_GROUP candidates to embed
    (or GROUP_WINDOWS windows)."""
    group: Group = []
    size = 0
    for w in windows:
        with db.connection() as conn:
            cands = ex_db.valid_candidates(conn, w["window_id"])
        # What was said in a person's chat is that person's: never shared, never another's.
        items = [
            replace(
                validate_item({k: v for k, v in c["payload"].items() if k not in PROVENANCE_KEYS}),
                person=w["person_id"],
            )
            for c in cands
        ]
        group.append((w, list(zip(cands, items, strict=True))))
        size += sum(1 for c in cands if c["embedding"] is None)
        if size >= EMBED_GROUP or len(group) >= GROUP_WINDOWS:
            yield group
            group, size = [], 0
    if group:
        yield group


def _save(
    conn: Conn,
    store_id: str,
    w: dict[str, Any],
    cand: dict[str, Any],
    item: ItemInput,
    vec: np.ndarray,
    models: Models,
    pool: DedupPool,
) -> tuple[str, int]:
    """One candidate through dedup; returns the count it adds to and the item it ended in.
    A record read from a tool's turn is as trustworthy as the text it came from (a fetched
    page, a search result): not vouched for, so auto-recall frames it as untrusted (a page
    planting "Ana wants invoices paid to account ..." stays a claim of the page); whether a
    candidate may hold a tool's words was decided when its window was read (`from_tools`,
    `_from_tools`). A candidate stored before that has its window's tool turns read now."""
    p = cand["payload"]
    from_tools = p.get("from_tools")
    if from_tools is None:
        shown = max(1, w["from_seq"] - ex_db.CONTEXT_TURNS)  # the context turns included
        tools = turns_db.tool_turns(conn, w["chat_id"], shown, w["to_seq"])
        from_tools = _from_tools(tools, p["from_seq"], p["to_seq"], models)
    if item.valid_from is None:  # true since the turn that said it, not since this run
        item = replace(item, valid_from=turns_db.turn_time(conn, w["chat_id"], p["from_seq"]))
    prov = Provenance(
        origin="derived",
        trusted=not from_tools,
        written_by=EXTRACTOR,
        chat_id=w["chat_id"],
        from_seq=p["from_seq"],
        to_seq=p["to_seq"],
        model=models.backend.model,
        speaker=_about_whom(conn, pool, w["chat_id"], p["from_seq"], p["to_seq"]),
    )
    result = save_deduplicated(conn, store_id, item, vec, models, prov, pool)
    if result.deduplicated and result.merged_into is not None:
        return "confirmed", result.merged_into
    if result.id is None:
        raise StoreError(f"dedup of a candidate of window {w['window_id']} saved nothing")
    return ("superseded" if result.superseded is not None else "written"), result.id


def _from_tools(tools: set[int], first: Any, last: int, models: Models) -> bool:
    """Whether a candidate citing turns first..last may hold a tool turn's words, `tools` the
    tool turns it was read with: the local rules' came from the turns it cites, a language
    model's may quote any turn it was shown whatever it cites. Decided when the window is read,
    by the backend that read it (kept with the candidate as `from_tools`); a candidate stored
    before that is judged when applied, by the backend applying it (_save)."""
    if models.backend.name != "local":
        return bool(tools)
    start = first if isinstance(first, int) else last
    return any(start <= s <= last for s in tools)


def _about_whom(
    conn: Conn, pool: DedupPool, chat_id: int, from_seq: int, to_seq: int
) -> str | None:
    """The person a candidate is about: who said the turn it starts at, when a named person did
    (a fact another person put right is still the teller's), else who said its last turn."""
    said = pool.speakers.of(conn, chat_id, {from_seq, to_seq})
    return said.get(from_seq) or said.get(to_seq)


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
    read = extract_pending(db, store_id, models, log, run_id)
    applied = apply_extracted(db, store_id, models, embedder, log, run_id)
    counts = {
        "windows_new": plan["windows_new"],
        **read,
        **applied,
        "model_calls": read["model_calls"] + applied["model_calls"],
        "duration_s": round(time.perf_counter() - start, 3),
    }
    with db.connection() as conn:  # the pass row keeps its own fields (the run's metadata all)
        kept = {k: v for k, v in counts.items() if k in ex_db.PASS_FIELDS}
        ex_db.record_pass(conn, store_id, run_id, **kept)
    return counts
