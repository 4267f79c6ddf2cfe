"""The model_calls table: every call to a model, so metered calls can be audited."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.store.db import Conn


def record_calls(
    conn: Conn, store_id: str | None, calls: Sequence[ModelCall], run_id: str = ""
) -> None:
    if not calls:
        return
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO model_calls (store_id, tier, task, backend, model, tokens_in,"
            " tokens_out, latency_ms, run_id, outcome)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    store_id,
                    c.tier,
                    c.task,
                    c.backend,
                    c.model,
                    c.tokens_in,
                    c.tokens_out,
                    c.latency_ms,
                    run_id,
                    c.outcome,
                )
                for c in calls
            ],
        )


def metered(
    conn: Conn, store_id: str | None, since: datetime | None, until: datetime | None
) -> list[dict[str, Any]]:
    """Model calls per store, task, backend, model and outcome in [since, until): how many,
    their tokens and latency, and how many runs or requests they served."""
    rows = conn.execute(
        "SELECT store_id, task, tier, backend, model, outcome, count(*) AS calls,"
        " sum(tokens_in)::bigint AS tokens_in, sum(tokens_out)::bigint AS tokens_out,"
        " round(avg(latency_ms)::numeric, 1)::float AS mean_latency_ms,"
        " count(DISTINCT nullif(run_id, '')) AS runs, min(created_at) AS first,"
        " max(created_at) AS last FROM model_calls"
        " WHERE (%(store)s::text IS NULL OR store_id = %(store)s)"
        " AND (%(since)s::timestamptz IS NULL OR created_at >= %(since)s)"
        " AND (%(until)s::timestamptz IS NULL OR created_at < %(until)s)"
        " GROUP BY store_id, task, tier, backend, model, outcome"
        " ORDER BY store_id, task, model, outcome",
        {"store": store_id, "since": since, "until": until},
    ).fetchall()
    return [dict(r) for r in rows]
