"""The gated background jobs in Postgres: evaluation results and activations per store."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one


def is_active(conn: Conn, store_id: str, job: str) -> bool:
    row = conn.execute(
        "SELECT active FROM job_activations WHERE store_id = %s AND job = %s", (store_id, job)
    ).fetchone()
    return bool(row and row["active"])


def active_stores(conn: Conn, job: str) -> set[str]:
    rows = conn.execute(
        "SELECT store_id FROM job_activations WHERE job = %s AND active", (job,)
    ).fetchall()
    return {r["store_id"] for r in rows}


def record_evaluation(
    conn: Conn,
    store_id: str,
    job: str,
    metric: str,
    baseline: float,
    with_job: float,
    passed: bool,
    detail: dict[str, Any],
) -> dict[str, Any]:
    row = conn.execute(
        "INSERT INTO job_evaluations (store_id, job, metric, baseline, with_job, passed, detail)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING *",
        (store_id, job, metric, baseline, with_job, passed, Jsonb(detail)),
    ).fetchone()
    return dict(one(row, "recording an evaluation"))


def get_evaluation(conn: Conn, evaluation_id: int) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM job_evaluations WHERE evaluation_id = %s", (evaluation_id,)
    ).fetchone()
    return dict(row) if row else None


def latest_evaluation(conn: Conn, store_id: str, job: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM job_evaluations WHERE store_id = %s AND job = %s"
        " ORDER BY ran_at DESC, evaluation_id DESC LIMIT 1",
        (store_id, job),
    ).fetchone()
    return dict(row) if row else None


def lock_store(conn: Conn, store_id: str) -> None:
    """Serialise activation changes of one store until the transaction ends, so two jobs
    activated at once cannot both pass the one-at-a-time check."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('job_activations:' || %s, 0))",
        (store_id,),
    )


def activations(conn: Conn, store_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT store_id, job, active, activated_at, evaluation, passed, forced, actor,"
        " changed_at FROM job_activations WHERE store_id = %s ORDER BY job",
        (store_id,),
    ).fetchall()
    return [dict(r) for r in rows]


def set_activation(
    conn: Conn,
    store_id: str,
    job: str,
    *,
    active: bool,
    actor: str,
    evaluation: dict[str, Any] | None = None,
    forced: bool = False,
) -> dict[str, Any]:
    """Activate (with the evaluation that allowed it) or deactivate a job of the store.
    Deactivating keeps activated_at and the evaluation, for the record."""
    if active:
        if evaluation is None:
            raise ValueError("activating a job needs the evaluation that allows it")
        row = conn.execute(
            "INSERT INTO job_activations (store_id, job, active, activated_at, evaluation,"
            " passed, forced, actor) VALUES (%s, %s, true, now(), %s, %s, %s, %s)"
            " ON CONFLICT (store_id, job) DO UPDATE SET active = true, activated_at = now(),"
            " evaluation = excluded.evaluation, passed = excluded.passed,"
            " forced = excluded.forced, actor = excluded.actor, changed_at = now()"
            " RETURNING *",
            (store_id, job, Jsonb(evaluation), bool(evaluation["passed"]), forced, actor),
        ).fetchone()
    else:
        row = conn.execute(
            "INSERT INTO job_activations (store_id, job, active, passed, actor)"
            " VALUES (%s, %s, false, false, %s)"
            " ON CONFLICT (store_id, job) DO UPDATE SET active = false, actor = excluded.actor,"
            " changed_at = now() RETURNING *",
            (store_id, job, actor),
        ).fetchone()
    return dict(one(row, f"setting the activation of {job}"))
