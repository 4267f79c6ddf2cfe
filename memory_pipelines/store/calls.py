"""The model_calls table: every call to a model, so metered calls can be audited."""

from __future__ import annotations

from collections.abc import Sequence

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
