"""The evaluation a gated job (reflection, evolution, decay) must pass before it is activated.

Metric `self_recall@10` over the store's own recent history: for a sample of its latest turns,
search the first sentence of the turn (scopes agent and history, as the turn's person) and count
the turn found among the top 10. It is measured twice on the same snapshot, inside one
transaction that is rolled back: without the job's fields, then after the job's mechanism has
run (decay: fresh item_scores; reflection: its insights; evolution: its refreshed tags and
entities) with ranking consuming them. Jobs already active for the store count in both.

What it shows, honestly: that switching the job on does not push the store's own conversations
out of recall (a no-harm gate, tolerance TOLERANCE). It does not show that the job helps; with
fewer than MIN_PROBES usable turns it cannot pass. Nothing of the store changes; the result is
one row in job_evaluations (and the model calls the job made are recorded).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memory_pipelines.api import evolution, reflection
from memory_pipelines.api.jobs import check_job
from memory_pipelines.api.ranked import rank_candidates
from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.decay import salience
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store import scores as scores_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database

METRIC = "self_recall@10"
K = 10
DEPTH = 30  # candidates per kind, as recall's default for k = 10
SAMPLE = 40
MIN_PROBES = 5
MIN_WORDS = 4  # a shorter first sentence ("Sounds good.") finds anything
TOLERANCE = 0.02
KINDS = ("item", "turn", "chunk")
RUN_ID = "evaluation"


@dataclass(frozen=True)
class Probe:
    turn_id: int
    query: str
    person: str | None


def probes(conn: Conn, store_id: str, sample: int = SAMPLE) -> list[Probe]:
    """The latest embedded turns whose first sentence has MIN_WORDS words or more."""
    rows = conn.execute(
        "SELECT t.turn_id, t.text, c.person_id FROM turns t JOIN chats c USING (chat_id)"
        " WHERE t.store_id = %s AND t.embedding IS NOT NULL ORDER BY t.turn_id DESC LIMIT %s",
        (store_id, sample * 3),
    ).fetchall()
    out = []
    for r in rows:
        first = next(iter(sentence_kinds.sentences(r["text"])), "")
        if len(first.split()) >= MIN_WORDS:
            out.append(Probe(int(r["turn_id"]), first, r["person_id"]))
    return out[:sample]


def self_recall(
    conn: Conn,
    store_id: str,
    probes: list[Probe],
    vecs: np.ndarray,
    consume: list[str],
    now: datetime,
) -> tuple[float, list[int]]:
    """(share of probes whose own turn ranks in the top K, the turn ids missed)."""
    missed = []
    for p, vec in zip(probes, vecs, strict=True):
        ranked = rank_candidates(conn, store_id, p.query, vec, KINDS, p.person, DEPTH, now, consume)
        if ("turn", p.turn_id) not in {c.key for c, _ in ranked[:K]}:
            missed.append(p.turn_id)
    return (1 - len(missed) / len(probes) if probes else 0.0), missed


def _run_job(
    conn: Conn, store_id: str, job: str, models: Models, embedder: Embedder, now: datetime
) -> dict[str, Any]:
    """The job's mechanism on the caller's (rolled-back) transaction; returns its counts."""
    if job == "decay":
        half_lives = stores_db.get_settings(conn, store_id).decay_per_type.half_life_days
        scores = salience(scores_db.items_frame(conn, store_id), half_lives, now)
        return {"scored": scores_db.write_scores(conn, store_id, scores, now, RUN_ID)}
    if job == "reflection":
        plans, stats, _ = reflection.plan(conn, store_id, models)
        done = reflection.apply(conn, store_id, plans, embedder, models.backend.model, RUN_ID)
        return {**stats, **done}
    changes, stats = evolution.plan(conn, store_id)
    return {**stats, **evolution.apply(conn, store_id, changes, RUN_ID)}


def evaluate_job(
    db: Database,
    store_id: str,
    job: str,
    embedder: Embedder,
    *,
    models: Models | None = None,
    sample: int = SAMPLE,
    tolerance: float = TOLERANCE,
) -> dict[str, Any]:
    """Measure the job on the store and record the result; returns the job_evaluations row
    (pass it to api.jobs.activate_job). The store itself is left unchanged."""
    job = check_job(job)
    models = models or Models(LocalBackend(embedder))
    with db.connection() as conn:
        stores_db.get_settings(conn, store_id)  # NotFound names an unknown store
        sampled = probes(conn, store_id, sample)
        active = [j for j in ("decay", "reflection", "evolution") if j != job]
        active = [j for j in active if jobs_db.is_active(conn, store_id, j)]
    vecs = embedder.embed([p.query for p in sampled]) if sampled else np.zeros((0, 1))
    now = datetime.now(UTC)
    with db.connection() as conn, conn.transaction(force_rollback=True):
        baseline, missed_before = self_recall(conn, store_id, sampled, vecs, active, now)
        changes = _run_job(conn, store_id, job, models, embedder, now)
        with_job, missed_after = self_recall(conn, store_id, sampled, vecs, [*active, job], now)
    passed = len(sampled) >= MIN_PROBES and with_job >= baseline - tolerance
    detail = {
        "probes": len(sampled),
        "min_probes": MIN_PROBES,
        "k": K,
        "tolerance": tolerance,
        "jobs_active": active,
        "job_changes": changes,
        "missed_without": missed_before,
        "missed_with": missed_after,
    }
    with db.transaction() as conn:
        record_calls(conn, store_id, models.drain(), RUN_ID)
        return jobs_db.record_evaluation(
            conn, store_id, job, METRIC, round(baseline, 4), round(with_job, 4), passed, detail
        )
