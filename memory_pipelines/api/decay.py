"""decay@v1: the salience of every item of a store, written to item_scores.

Never deletes and never changes an item: scores are recorded here before maintenance (or any
analyst) consumes them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import polars as pl

from memory_pipelines.core.decay import histogram, salience
from memory_pipelines.store import scores as scores_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database


def score_store(
    db: Database, store_id: str, now: datetime | None = None, run_id: str = ""
) -> dict[str, Any]:
    """Score every item of the store (one transaction) by the store's decay per type; returns
    counts over current items (histogram, below the archive threshold, mean) and rows written."""
    now = now or datetime.now(UTC)
    with db.connection() as conn:
        settings = stores_db.get_settings(conn, store_id)
        items = scores_db.items_frame(conn, store_id)
    scores = salience(items, settings.decay_per_type.half_life_days, now)
    with db.transaction() as conn:
        written = scores_db.write_scores(conn, store_id, scores, now, run_id)
    current = scores.join(items.select("item_id", "state"), on="item_id").filter(
        pl.col("state") == "current"
    )
    threshold = settings.maintenance.archive_below
    mean = current["salience"].mean() if current.height else None
    return {
        "rows_written": written,
        "current_items": current.height,
        "histogram": histogram(current["salience"]),
        "below_archive_threshold": int((current["salience"] < threshold).sum()),
        "archive_below": threshold,
        "never_decaying": int(current["half_life_days"].is_null().sum()),
        "mean_salience": round(float(mean), 4) if isinstance(mean, int | float) else 0.0,
    }
