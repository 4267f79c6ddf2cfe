"""Small charts drawn on the server as inline SVG (no script, no image request): the counts of a
store's last extraction passes, and a record's confidence over time under its type's decay.
Here only the geometry is worked out; the templates draw it (colours come from console.css)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memory_pipelines.core.confidence import as_unit
from memory_pipelines.core.decay import confidence_as_read

PASS_SERIES = (
    ("written", "Written"),
    ("confirmed", "Confirmed"),
    ("superseded", "Superseded"),
    ("dropped_invalid", "Dropped as invalid"),
)
WIDTH, HEIGHT, PAD = 360, 96, 8
CURVE_POINTS = 48


@dataclass(frozen=True)
class Series:
    name: str
    label: str
    points: str  # "x,y x,y ..." for a polyline
    dots: tuple[tuple[float, float, int], ...]  # (x, y, value) of each pass
    total: int


@dataclass(frozen=True)
class PassChart:
    width: int
    height: int
    top: int  # the largest count drawn (the y axis runs 0..top)
    passes: int
    series: tuple[Series, ...]


def _x(i: int, n: int) -> float:
    inner = WIDTH - 2 * PAD
    return round(PAD + (inner * i / (n - 1) if n > 1 else inner / 2), 1)


def _y(value: float, top: float) -> float:
    inner = HEIGHT - 2 * PAD
    return round(HEIGHT - PAD - inner * value / top, 1)


def pass_chart(passes: list[dict[str, Any]]) -> PassChart | None:
    """Lines of Written, Confirmed, Superseded and Dropped as invalid over the passes (oldest
    first); None when there was no pass."""
    if not passes:
        return None
    n = len(passes)
    top = max(1, *(int(p[name]) for p in passes for name, _ in PASS_SERIES))
    series = []
    for name, label in PASS_SERIES:
        dots = tuple((_x(i, n), _y(int(p[name]), top), int(p[name])) for i, p in enumerate(passes))
        points = " ".join(f"{x},{y}" for x, y, _ in dots)
        series.append(Series(name, label, points, dots, sum(v for _, _, v in dots)))
    return PassChart(WIDTH, HEIGHT, top, n, tuple(series))


@dataclass(frozen=True)
class DecayCurve:
    width: int
    height: int
    points: str
    today_x: float
    today_y: float
    half_life_days: float | None
    horizon_days: float
    stored: float  # 0-1
    today: float  # 0-1


def decay_curve(
    confidence: int, updated_at: datetime, half_life_days: float | None, now: datetime
) -> DecayCurve:
    """The record's confidence (0-1) from Updated on, under its type's half-life: as stored at
    Updated, as read today, and on past today to twice the half-life (or a little past today)."""
    age = max(0.0, (now - updated_at).total_seconds() / 86_400)
    horizon = max(age * 1.25, 2 * half_life_days if half_life_days else 0.0, 1.0)

    def at(days: float) -> float:
        moment = updated_at + timedelta(days=days)
        return as_unit(confidence_as_read(confidence, updated_at, half_life_days, moment))

    inner_w = WIDTH - 2 * PAD
    points = []
    for i in range(CURVE_POINTS + 1):
        days = horizon * i / CURVE_POINTS
        points.append(f"{round(PAD + inner_w * i / CURVE_POINTS, 1)},{_y(at(days), 1.0)}")
    today = at(age)
    return DecayCurve(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(points),
        today_x=round(PAD + inner_w * age / horizon, 1),
        today_y=_y(today, 1.0),
        half_life_days=half_life_days,
        horizon_days=horizon,
        stored=as_unit(confidence),
        today=today,
    )
