"""Confidence on two scales, mapped in one place: records store an integer 1-10 (the agent
spec's scale: user-stated facts outrank inferred ones), the console and the Records filter speak
0-1 (the console spec's "Minimum confidence, from 0 to 1"). Stored c reads as c / 10."""

from __future__ import annotations

import math
from typing import Any

from memory_pipelines.errors import ValidationError

SCALE = 10  # stored confidence runs 1..SCALE


def as_unit(stored: float) -> float:
    """A stored confidence (1-10, or one decayed from it) on the 0-1 scale."""
    return stored / SCALE


def least_stored(unit: float) -> int:
    """The smallest stored confidence that is at least `unit` on the 0-1 scale (0.8 -> 8,
    0.75 -> 8, 0 -> 1): the Records filter "at least this confident"."""
    # round first: 0.7 * 10 is 7.000000000000001 in floating point, and means 7
    return max(1, math.ceil(round(unit * SCALE, 9)))


def unit_field(name: str, value: Any) -> float | None:
    """A 0-1 confidence given by a caller (None: no filter); an int or a float, never text."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValidationError(name, f"must be a number from 0 to 1, got {value!r}")
    return float(value)
