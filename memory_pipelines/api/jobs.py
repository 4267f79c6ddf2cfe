"""Background jobs that ship disabled (reflection, evolution, decay) and activate one at a time
behind an evaluation, per store.

A job's mechanism can always run by hand (materialise its asset with `force: true`), and what it
writes is recorded: decay's salience in item_scores, reflection's insight items. Ranking consumes
those fields only once the job is active for the store (store/search_sql.py), and the scheduled
assets do work only then. Activation needs the store's latest evaluation of the job
(evals/activation.py) to have passed, and waits MIN_GAP_DAYS after another job of the store was
activated, so the effect of each can be seen on its own.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from memory_pipelines.core.vocabulary import GATED_JOBS
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import events as events_db
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

MIN_GAP_DAYS = 7


def check_job(job: Any) -> str:
    """The job name, or ValidationError naming the allowed ones."""
    if job not in GATED_JOBS:
        raise ValidationError("job", f"must be one of {', '.join(GATED_JOBS)}, got {job!r}")
    return str(job)


def is_active(db: Database, store_id: str, job: str) -> bool:
    """Whether the job is active for the store (its fields are consumed, its schedule works)."""
    with db.connection() as conn:
        return jobs_db.is_active(conn, store_id, check_job(job))


def activate_job(
    db: Database,
    store_id: str,
    job: str,
    evaluation: int | dict[str, Any],
    *,
    actor: str = "",
    force: bool = False,
) -> dict[str, Any]:
    """Activate a job for the store on a passing evaluation; returns the activation row.

    `evaluation` is an evaluation id or the row `evals.activation.evaluate_job` returned. It
    must be of this store and job, the latest such evaluation (a newer failure wins over an
    older pass), and passed. Refused while another job of the store was activated less than
    MIN_GAP_DAYS ago, unless `force` (recorded on the row). Activating an active job again
    records the newer evaluation. Writes an `activate` event (item_id NULL)."""
    job = check_job(job)
    eval_id = evaluation.get("evaluation_id") if isinstance(evaluation, dict) else evaluation
    if isinstance(eval_id, bool) or not isinstance(eval_id, int):
        raise ValidationError(
            "evaluation", f"must be an evaluation id or an evaluate_job result, got {eval_id!r}"
        )
    with db.transaction() as conn:
        stores_db.get_settings(conn, store_id)  # NotFound names an unknown store
        jobs_db.lock_store(conn, store_id)
        row = jobs_db.get_evaluation(conn, eval_id)
        if row is None or row["store_id"] != store_id or row["job"] != job:
            raise ValidationError(
                "evaluation",
                f"{eval_id} is not an evaluation of {job} for store {store_id!r}; run one "
                f"with `memory-pipelines jobs evaluate {job} --store {store_id}`",
            )
        latest = jobs_db.latest_evaluation(conn, store_id, job)
        if latest is not None and latest["evaluation_id"] != eval_id:
            raise ValidationError(
                "evaluation",
                f"{eval_id} is not the latest evaluation of {job} for store {store_id!r} "
                f"(that is {latest['evaluation_id']}, passed={latest['passed']})",
            )
        if not row["passed"]:
            raise ValidationError(
                "evaluation",
                f"evaluation {eval_id} of {job} did not pass ({row['metric']}: "
                f"{row['with_job']:.3f} with the job, {row['baseline']:.3f} without); "
                f"{job} stays inactive",
            )
        blocking = _recent_other(jobs_db.activations(conn, store_id), job)
        if blocking and not force:
            other, at = blocking
            until = (at + timedelta(days=MIN_GAP_DAYS)).date().isoformat()
            raise ValidationError(
                "force",
                f"{other} was activated for store {store_id!r} on {at.date().isoformat()}; "
                f"jobs activate one at a time, {MIN_GAP_DAYS} days apart: wait until {until} "
                "or pass force=True",
            )
        snapshot = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}
        out = jobs_db.set_activation(
            conn,
            store_id,
            job,
            active=True,
            actor=actor,
            evaluation=snapshot,
            forced=bool(blocking),
        )
        events_db.record_event(
            conn, store_id, "activate", None, actor, {"job": job, "evaluation_id": eval_id}
        )
    return out


def deactivate_job(db: Database, store_id: str, job: str, *, actor: str = "") -> dict[str, Any]:
    """Switch a job off for the store: ranking stops consuming its fields at once, its
    schedule's runs do nothing. What it wrote stays. Writes a `deactivate` event."""
    job = check_job(job)
    with db.transaction() as conn:
        stores_db.get_settings(conn, store_id)
        jobs_db.lock_store(conn, store_id)
        out = jobs_db.set_activation(conn, store_id, job, active=False, actor=actor)
        events_db.record_event(conn, store_id, "deactivate", None, actor, {"job": job})
    return out


def job_status(db: Database, store_id: str) -> list[dict[str, Any]]:
    """Per gated job: active, activated_at, forced, and the latest evaluation (or None)."""
    with db.connection() as conn:
        stores_db.get_settings(conn, store_id)
        rows = {r["job"]: r for r in jobs_db.activations(conn, store_id)}
        latest = {j: jobs_db.latest_evaluation(conn, store_id, j) for j in GATED_JOBS}
    out = []
    for job in GATED_JOBS:
        row = rows.get(job, {})
        out.append(
            {
                "job": job,
                "active": bool(row.get("active")),
                "activated_at": row.get("activated_at"),
                "forced": bool(row.get("forced")),
                "latest_evaluation": latest[job],
            }
        )
    return out


def _recent_other(rows: list[dict[str, Any]], job: str) -> tuple[str, datetime] | None:
    """Another job of the store active and activated less than MIN_GAP_DAYS ago."""
    since = datetime.now(UTC) - timedelta(days=MIN_GAP_DAYS)
    for r in rows:
        if r["job"] != job and r["active"] and r["activated_at"] and r["activated_at"] > since:
            return str(r["job"]), r["activated_at"]
    return None
