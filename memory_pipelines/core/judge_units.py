"""One measure in two systems of units, for the dedup judge: "Weighs 82 kg" beside "Current
weight is around 180 lb", "Runs 5 km before work" beside "Runs about 3.1 miles before work".

Each side measures one thing in a unit of one dimension (mass, distance, length); converted to
one unit the two agree within rounding (`TOLERANCE`), so the candidate restates the stored
measure (merge), when nothing else differs. Units of everyday English only; "pounds" is left
out (more often money than weight).
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.patterns import rx

TOLERANCE = 0.03  # share two converted measures may differ by ("around 180 lb" = 81.6 kg)
UNITS_FLOOR = 0.4  # cosine of "the same thing measured"
# unit -> (dimension, size in the dimension's base unit)
_UNITS = {
    "kg": ("mass", 1.0), "kilo": ("mass", 1.0), "kilogram": ("mass", 1.0),
    "lb": ("mass", 0.45359), "st": ("mass", 6.35029), "stone": ("mass", 6.35029),
    "km": ("distance", 1.0), "kilometre": ("distance", 1.0), "kilometer": ("distance", 1.0),
    "mile": ("distance", 1.60934), "mi": ("distance", 1.60934),
    "cm": ("length", 1.0), "m": ("length", 100.0), "metre": ("length", 100.0),
    "meter": ("length", 100.0), "ft": ("length", 30.48), "feet": ("length", 30.48),
    "foot": ("length", 30.48), "inch": ("length", 2.54), "inches": ("length", 2.54),
}  # fmt: skip
_MEASURE = rx(
    r"(\d+(?:[.,]\d+)?)\s?(kg|kilos?|kilograms?|lbs?|st|stone|km|kilometres?|kilometers?"
    r"|miles?|mi|cm|m|metres?|meters?|ft|feet|foot|inch(?:es)?)\b"
)


def measures(text: str) -> list[tuple[str, str, float]]:
    """(dimension, unit as keyed, amount in the base unit) for each measure in `text`."""
    out = []
    for m in _MEASURE.finditer(text):
        unit = m.group(2).lower()
        key = unit if unit in _UNITS else unit.rstrip("s")
        if key not in _UNITS:
            continue
        dim, size = _UNITS[key]
        out.append((dim, key, float(m.group(1).replace(",", ".")) * size))
    return out


def _agree(a: list[tuple[str, str, float]], b: list[tuple[str, str, float]]) -> bool:
    """One measure each, of one dimension, in units of different sizes, that agree."""
    if len(a) != 1 or len(b) != 1:
        return False
    (da, ua, xa), (db, ub, xb) = a[0], b[0]
    if da != db or _UNITS[ua][1] == _UNITS[ub][1]:
        return False
    return abs(xa - xb) <= TOLERANCE * max(xa, xb)


def same_measure(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    mine = measures(c.text)
    if not mine or c.cues:
        return None
    same = [
        p
        for p in pairs
        if p.same_category
        and not (p.subject_conflict or p.polarity_flip or p.contrast)
        and p.cos >= UNITS_FLOOR
        and all(k.startswith("n:") for k in p.value_conflicts)
        and _agree(mine, measures(es[p.index].text))
    ]
    return nearest(same, "merge", "the same measure in other units")
