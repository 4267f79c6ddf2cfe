"""Decay math: the salience of memory items, halving per idle half-life of their category.

    base     = confidence / 10 * (0.5 + importance / 20)   (importance 1-10; 0.75 when unset)
    idle     = days since the later of last_recalled_at and last_confirmed_at,
               else since updated_at (else created_at); never negative
    salience = base * 0.5 ** (idle / half_life_days[category]);  = base when the category has
               no half-life (a type not listed never decays)

So a recall or a confirmation resets the clock, and salience lies in (0, 1]. Pure: a polars
frame in, a frame out; stored confidence is never touched.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import polars as pl

from memory_pipelines.errors import ValidationError

SCORE_COLUMNS = ("item_id", "salience", "base", "idle_since", "idle_days", "half_life_days")
TIME_COLUMNS = ("last_recalled_at", "last_confirmed_at", "updated_at", "created_at")
BUCKETS = 10  # the salience histogram: [0, 0.1), [0.1, 0.2), ... [0.9, 1.0]
_DAY_US = 86_400 * 1_000_000


def _utc(df: pl.DataFrame, name: str) -> pl.Expr:
    """The column as UTC microseconds; a naive (or all-null) column is taken to be UTC."""
    tz = getattr(df.schema[name], "time_zone", None)
    col = pl.col(name).cast(pl.Datetime("us", tz))
    return col.dt.convert_time_zone("UTC") if tz else col.dt.replace_time_zone("UTC")


def salience(
    items: pl.DataFrame, half_life_days: Mapping[str, float], now: datetime
) -> pl.DataFrame:
    """Scores of `items` (columns item_id, category, confidence, importance and the four
    TIME_COLUMNS, nulls allowed where the table allows them), one row per item: SCORE_COLUMNS."""
    missing = {"item_id", "category", "confidence", "importance", *TIME_COLUMNS} - set(
        items.columns
    )
    if missing:
        raise ValueError(f"decay: items frame lacks columns {', '.join(sorted(missing))}")
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    if items.is_empty():
        return pl.DataFrame(
            schema={
                "item_id": pl.Int64,
                "salience": pl.Float64,
                "base": pl.Float64,
                "idle_since": pl.Datetime("us", "UTC"),
                "idle_days": pl.Float64,
                "half_life_days": pl.Float64,
            }
        )
    frame = items.with_columns([_utc(items, c).alias(c) for c in TIME_COLUMNS])
    importance = pl.col("importance").cast(pl.Float64)
    scored = frame.with_columns(
        base=pl.col("confidence").cast(pl.Float64)
        / 10
        * pl.when(importance.is_null()).then(0.75).otherwise(0.5 + importance / 20),
        # max_horizontal skips nulls: the later of the two uses, if either happened.
        idle_since=pl.coalesce(
            pl.max_horizontal("last_recalled_at", "last_confirmed_at"),
            "updated_at",
            "created_at",
        ),
        half_life_days=pl.col("category").replace_strict(
            dict(half_life_days), default=None, return_dtype=pl.Float64
        ),
    ).with_columns(
        idle_days=(
            (
                pl.lit(now).cast(pl.Datetime("us", "UTC")) - pl.col("idle_since")
            ).dt.total_microseconds()
            / _DAY_US
        ).clip(lower_bound=0.0),
    )
    return scored.with_columns(
        salience=pl.when(pl.col("half_life_days").is_null())
        .then(pl.col("base"))
        .otherwise(pl.col("base") * 0.5 ** (pl.col("idle_days") / pl.col("half_life_days")))
    ).select(SCORE_COLUMNS)


def parse_half_lives(raw: Any, field: str = "decay_per_type") -> dict[str, float]:
    """Half-lives per record type from JSON: {type: days > 0}."""
    if not isinstance(raw, dict):
        raise ValidationError(field, "must be an object of type -> half-life in days")
    out = {}
    for kind, days in raw.items():
        if not isinstance(kind, str) or not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", kind):
            raise ValidationError(field, f"{kind!r} is not a record type slug")
        if (
            isinstance(days, bool)
            or not isinstance(days, int | float)
            or not math.isfinite(days)
            or not days > 0
        ):
            raise ValidationError(f"{field}.{kind}", f"must be days > 0, got {days!r}")
        out[kind] = float(days)
    return out


def reader_half_lives(
    store: Mapping[str, float], key: Mapping[str, float] | None
) -> dict[str, float]:
    """The half-lives for what a key reads: the key's own per type first, the store's for every
    type the key does not name (spec: "a key's own decay setting goes first")."""
    return {**store, **(key or {})}


def confidence_as_read(
    confidence: float, updated_at: datetime, half_life_days: float | None, now: datetime
) -> float:
    """The confidence a reader sees: as stored, halved per half-life since the record was last
    updated (the clock starts at Updated); as stored when its type has no half-life."""
    if half_life_days is None:
        return float(confidence)
    at = updated_at if updated_at.tzinfo else updated_at.replace(tzinfo=UTC)
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    days = max(0.0, (now - at).total_seconds() / 86_400)
    return float(confidence) * 0.5 ** (days / half_life_days)


def histogram(scores: pl.Series) -> list[int]:
    """Counts of salience in BUCKETS equal buckets over [0, 1]; 1.0 falls in the last one."""
    counts = [0] * BUCKETS
    for s in scores.drop_nulls().to_list():
        counts[min(BUCKETS - 1, max(0, int(s * BUCKETS)))] += 1
    return counts


def histogram_markdown(counts: list[int]) -> str:
    """The histogram as a markdown table for the Dagster UI."""
    rows = [f"| {i / BUCKETS:.1f}-{(i + 1) / BUCKETS:.1f} | {n} |" for i, n in enumerate(counts)]
    return "\n".join(["| salience | items |", "|---|---|", *rows])
