"""maintenance@v1: merge duplicates, archive what faded, flag contradictions. Never deletes.

Plain functions over the store, used by the Dagster asset and by anyone else. The decisions are
`core.maintenance` (and the model resource for contradictions); the writes are
`store.maintenance`. Each batch of writes is one transaction, and every change leaves a version
row and an event, so a run killed half-way leaves whole batches and the next pass does the rest.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from itertools import zip_longest
from typing import Any, TypeVar

import numpy as np

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.maintenance import Strength, duplicate_clusters, faded, near_pairs
from memory_pipelines.core.settings import Maintenance
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.store import item_reads, text_indexes
from memory_pipelines.store import items as items_db
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store import maintenance as maint_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Database

MERGE_BATCH = 100  # clusters per transaction
ARCHIVE_BATCH = 500  # items per transaction
JUDGE_BATCH = 25  # contradiction judgements per transaction (the model is asked outside it)
# Near records for the contradiction check: the cosine they must reach, and how many of its
# nearest each record brings. Pairs at the duplicate threshold were merged just before.
CONTRADICTION_FLOOR = 0.6
NEIGHBOURS = 3
# Each judgement is a metered model call: a pass asks at most this many, the next the rest.
MAX_JUDGEMENTS = 500
T = TypeVar("T")
Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def _batches(seq: Sequence[T], size: int) -> list[Sequence[T]]:
    return [seq[i : i + size] for i in range(0, len(seq), size)]


def _md5(text: str) -> str:
    # The same digest as Postgres md5(context), which store.maintenance re-checks under lock.
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def maintain(
    db: Database,
    store_id: str,
    models: Callable[[], Models] | None = None,
    run_id: str = "",
    now: datetime | None = None,
    log: Log = _quiet,
) -> dict[str, Any]:
    """One maintenance pass over a store, by its Maintenance card: merge duplicates (the
    weaker record superseded by the stronger), archive records that faded (salience from the
    last decay pass under `archive_below`, idle `archive_idle_days`), and, when
    `check_contradictions` is on, let the model judge near pairs and flag contradictions on
    both records. `models` builds the model interface; it is called only when contradictions
    are checked (a local backend loads the embedder). Returns the counts; `skipped` says why
    nothing was done (maintenance off)."""
    started_at, start = datetime.now(UTC), time.perf_counter()
    with db.connection() as conn:
        card = stores_db.get_settings(conn, store_id).maintenance
    if not card.enabled:
        log(f"store {store_id}: maintenance is off (Maintenance card: enabled=false); skipped")
        return {"skipped": "maintenance is off for this store", "seconds": 0.0}
    rebuilt = repair_text_indexes(db, log)
    with db.connection() as conn:
        restored, watermark = maint_db.restores_since_last_pass(conn, store_id)
        rows, vecs = maint_db.current_items(conn, store_id)
    counts: dict[str, Any] = {
        "items_scanned": len(rows),
        "restored": restored,
        "text_indexes_rebuilt": rebuilt,
    }
    counts.update(merge_pass(db, store_id, rows, vecs, card, run_id, log))
    counts["archived"] = archive_pass(db, store_id, card, now or datetime.now(UTC), log)
    counts.update(
        contradiction_pass(db, store_id, models(), run_id, log)
        if card.check_contradictions and models is not None
        else {"contested": 0, "judged": 0, "judgements_pending": 0, "answers_invalid": 0}
    )
    counts["seconds"] = round(time.perf_counter() - start, 3)
    with db.transaction() as conn:
        maint_db.record_pass(conn, store_id, run_id, started_at, counts, watermark)
        counts["current_items"] = item_reads.count_current(conn, store_id)
    log(
        f"store {store_id}: scanned {len(rows)}, merged {counts['merged']} duplicates,"
        f" archived {counts['archived']}, {restored} restored since the last pass,"
        f" {counts['contested']} contradictions flagged in {counts['seconds']} s"
    )
    return counts


def repair_text_indexes(db: Database, log: Log = _quiet) -> list[str]:
    """Rebuild each BM25 index whose document count drifted, that holds fewer documents than
    its table has rows, or whose first read after a restart fails (store/text_indexes.py):
    they serve every store, so whichever pass comes first repairs them and the others find them
    whole (or being rebuilt by another process: then they go on without waiting). Returns the
    names rebuilt."""
    with db.connection() as conn:
        return text_indexes.repair(conn, log)


def merge_pass(
    db: Database,
    store_id: str,
    rows: Sequence[dict[str, Any]],
    vecs: np.ndarray,
    card: Maintenance,
    run_id: str = "",
    log: Log = _quiet,
) -> dict[str, int]:
    """Merge the duplicate clusters among current `rows` (with their embeddings `vecs`):
    one fact per (person, category) at the card's duplicate threshold."""
    strengths = [
        Strength(r["source"], r["confidence"], r["confirm_count"], r["created_at"], r["item_id"])
        for r in rows
    ]
    groups = [(r["person_id"], r["category"]) for r in rows]
    texts = [r["context"] for r in rows]

    def same_fact(i: int, j: int) -> bool:
        """The dedup judge's verdict on the pair, the later written as the candidate."""
        new, old = (j, i) if rows[j]["item_id"] > rows[i]["item_id"] else (i, j)
        item = [
            JudgeItem(rows[n]["context"], rows[n]["category"], rows[n]["confidence"], origin)
            for n in (new, old)
            for origin in ["machine" if rows[n]["source"] == "machine" else "user"]
        ]
        return decide(item[0], [item[1]], vecs[new], vecs[old][None, :]).action == "merge"

    clusters = duplicate_clusters(
        vecs, groups, strengths, card.duplicate_threshold, texts, same_fact
    )
    merged = 0
    for batch in _batches(clusters, MERGE_BATCH):
        with db.transaction() as conn:
            items_db.lock_persons(conn, store_id, (rows[c.survivor]["person_id"] for c in batch))
            for c in batch:
                weaker = [
                    (rows[w]["item_id"], cos) for w, cos in zip(c.weaker, c.cosines, strict=True)
                ]
                ids = maint_db.merge_duplicates(
                    conn, store_id, rows[c.survivor]["item_id"], weaker, run_id
                )
                merged += len(ids)
        log(f"store {store_id}: merged {merged} duplicates so far ({len(clusters)} clusters)")
    return {"merged": merged, "clusters": len(clusters)}


def archive_pass(
    db: Database, store_id: str, card: Maintenance, now: datetime, log: Log = _quiet
) -> int:
    """Archive current records whose salience is under the card's `archive_below` and that
    nobody recalled or confirmed for `archive_idle_days`. Returns how many were archived.

    Salience is decay's: while decay is not active for the store nothing has faded (its scores
    are recorded before they are consumed), and a type the Decay per type card does not list
    never decays, so it is never archived."""
    with db.connection() as conn:
        if not jobs_db.is_active(conn, store_id, "decay"):
            log(f"store {store_id}: decay is not active, so nothing has faded: nothing archived")
            return 0
        decaying = sorted(stores_db.get_settings(conn, store_id).decay_per_type.half_life_days)
        frame = maint_db.archive_candidates(conn, store_id, decaying)
    out = faded(frame, card.archive_below, card.archive_idle_days, now)
    cutoff = now - timedelta(days=card.archive_idle_days)
    archived = 0
    for batch in _batches(list(out.iter_rows()), ARCHIVE_BATCH):
        with db.transaction() as conn:
            archived += len(maint_db.archive(conn, store_id, batch, cutoff))
        log(f"store {store_id}: archived {archived} of {out.height} faded records so far")
    return archived


def _taking_turns(todo: list[T], owner: Callable[[T], str | None], start: int = 0) -> list[T]:
    """The pairs in turns by person (each person's in their own order), so a pass's budget
    of judgements is shared: one person's many pairs never hold another's back pass after
    pass. The first turn goes to the person at `start` (modulo their number), so with more
    persons than the budget, each pass begins where another left off."""
    by_owner: dict[str | None, list[T]] = {}
    for t in todo:
        by_owner.setdefault(owner(t), []).append(t)
    queues = list(by_owner.values())
    if queues:
        first = start % len(queues)
        queues = queues[first:] + queues[:first]
    rounds = zip_longest(*queues)
    return [t for r in rounds for t in r if t is not None]


def contradiction_pass(
    db: Database,
    store_id: str,
    models: Models,
    run_id: str = "",
    log: Log = _quiet,
    among: Sequence[tuple[int, int]] | None = None,
) -> dict[str, int]:
    """Judge near pairs of current records of one person (linked in the graph, or at cosine
    >= CONTRADICTION_FLOOR; `among`: these pairs instead, e.g. the members of a cluster
    reflection summarises) that were not judged in their present wording; flag each
    contradiction on both records. Nothing picks a winner."""
    with db.connection() as conn:
        rows, vecs = maint_db.current_items(conn, store_id)
        linked = maint_db.linked_pairs(conn, store_id) if among is None else []
        done = maint_db.judged_pairs(conn, store_id)
    by_id = {r["item_id"]: r for r in rows}
    if among is None:
        near = near_pairs(vecs, [r["person_id"] for r in rows], CONTRADICTION_FLOOR, NEIGHBOURS)
        # Linked pairs first: the graph already says they are about one thing.
        pairs = dict.fromkeys(linked)
        pairs.update(dict.fromkeys((rows[i]["item_id"], rows[j]["item_id"]) for i, j, _ in near))
    else:
        pairs = dict.fromkeys((min(a, b), max(a, b)) for a, b in among if a != b)
    todo = [
        (a, b, _md5(by_id[a]["context"]), _md5(by_id[b]["context"]))
        for a, b in pairs
        # one person's records (or two shared ones): a contradiction is never across persons
        if a in by_id and b in by_id and by_id[a]["person_id"] == by_id[b]["person_id"]
    ]
    todo = _taking_turns(
        [t for t in todo if done.get((t[0], t[1])) != (t[2], t[3])],
        lambda t: by_id[t[0]]["person_id"],
        start=len(done),  # pairs judged so far: grows with every pass that judged any
    )
    counts = {"contested": 0, "judged": 0, "answers_invalid": 0}
    counts["judgements_pending"] = max(0, len(todo) - MAX_JUDGEMENTS)
    for batch in _batches(todo[:MAX_JUDGEMENTS], JUDGE_BATCH):
        verdicts: list[tuple[int, int, str, str, bool | None, str]] = []
        try:  # the model is asked outside any transaction: a slow answer holds no lock
            for a, b, ma, mb in batch:
                try:
                    res = models.contradicts(by_id[a]["context"], by_id[b]["context"])
                    verdicts.append((a, b, ma, mb, res.contradicts, res.reason))
                except Invalid as exc:
                    counts["answers_invalid"] += 1
                    verdicts.append((a, b, ma, mb, None, f"invalid answer: {exc}"))
                    log(f"items {a}, {b}: contradiction answer dropped as invalid ({exc})")
        finally:  # what was asked is recorded even when a call failed outright
            calls = models.drain()
            with db.transaction() as conn:
                contested = [i for a, b, *_, verdict, _ in verdicts if verdict for i in (a, b)]
                items_db.lock_persons_of(conn, store_id, contested)  # before their rows
                for a, b, ma, mb, verdict, reason in verdicts:
                    if verdict and maint_db.contest(conn, store_id, a, b, (ma, mb), reason):
                        counts["contested"] += 1
                        log(f"items {a} and {b} contradict: {reason}")
                maint_db.record_judgements(
                    conn, store_id, verdicts, models.backend.name, models.backend.model, run_id
                )
                record_calls(conn, store_id, calls, run_id)
            counts["judged"] += len(calls)
    return counts
