"""Metered model calls: every call a judge, extractor, summariser, link proposer, reflector or
reranker made, per store and period, with the run or request it served."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.records import parse_time
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import calls as calls_db
from memory_pipelines.store.db import Database


def metered_calls(
    db: Database,
    store_id: str | None = None,
    since: datetime | str | None = None,
    until: datetime | str | None = None,
) -> list[dict[str, Any]]:
    """Calls grouped by store, task, tier, backend, model and outcome in [since, until):
    {store_id, task, tier, backend, model, outcome, calls, tokens_in, tokens_out,
    mean_latency_ms, runs, first, last}. No store: every store; no bounds: all time."""
    id_field("store", store_id, nullable=True)
    t0, t1 = parse_time("since", since), parse_time("until", until)
    if t0 is not None and t1 is not None and t1 <= t0:
        raise ValidationError("until", f"must be after since, got {since!r} .. {until!r}")
    with db.connection() as conn:
        return calls_db.metered(conn, store_id, t0, t1)
