"""decay@v1: the salience of every item of a store, written to item_scores.

Never deletes and never changes an item: scores are recorded here before maintenance (or any
analyst) consumes them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

import polars as pl

from memory_pipelines.core import decay as decay_math
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


def confidence_as_read(
    db: Database,
    store_id: str,
    records: Iterable[Any],
    *,
    decay_override: Mapping[str, Any] | None = None,
    now: datetime | None = None,
) -> dict[int, float]:
    """Each record's confidence as a reader sees it today: {item_id: confidence as read}.

    The stored confidence halves per half-life of the record's type since it was last updated;
    `decay_override` (a key's decay per type: type -> half-life days) goes first, the store's
    decay for every other type, and a type in neither never decays. Stored confidence is never
    changed: this is how one key reads it. Records are mappings or objects with item_id,
    category, confidence and updated_at."""
    override = decay_math.parse_half_lives(decay_override or {}, "decay_override")
    now = now or datetime.now(UTC)
    with db.connection() as conn:
        store = stores_db.get_settings(conn, store_id).decay_per_type.half_life_days
    half_lives = decay_math.reader_half_lives(store, override)
    out = {}
    for record in records:

        def field(name: str, r: Any = record) -> Any:
            return r[name] if isinstance(r, Mapping) else getattr(r, name)

        out[int(field("item_id"))] = decay_math.confidence_as_read(
            field("confidence"), field("updated_at"), half_lives.get(field("category")), now
        )
    return out
