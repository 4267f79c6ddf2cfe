"""How often, as a typed value for the dedup judge: "every" with its period.

"Weekly", "every Sunday", "once a week" and "each week" are one rhythm (1 week); "fortnightly",
"every other Thursday" and "every two weeks" another (2 week); "once a quarter", "quarterly" and
"every three months" a third (3 month); "twice a week" is twice in one week (2x 1 week). Two
items of one frame with different rhythms hold different values ("monthly" / "once a quarter"),
and a rhythm said in other words is the same value ("every other Monday" / "fortnightly").

A period that belongs to an amount ("£100 a month", "£250 monthly") is the money readers' (a
yearly amount, `judge_amounts.yearly_amounts`), not a rhythm.

General English only: period words, weekdays, months, small numbers and ordinals.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipelines.core.judge_lexicon import MONTH_NAMES, WEEKDAYS

Found = tuple[str, str, tuple[int, int], bool]  # kind, value, span, read from another form

# Each period word as (how many, unit): "a fortnight" is 2 weeks, "Sunday" comes once a week.
_PERIODS: dict[str, tuple[int, str]] = {
    "day": (1, "day"), "night": (1, "day"), "morning": (1, "day"), "evening": (1, "day"),
    "afternoon": (1, "day"), "week": (1, "week"), "weekend": (1, "week"),
    "fortnight": (2, "week"), "month": (1, "month"), "quarter": (3, "month"),
    "year": (1, "year"),
    **{d: (1, "week") for d in WEEKDAYS},
    **{m: (1, "year") for m in MONTH_NAMES},
}  # fmt: skip
_STEPS = {
    "other": 2, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_TIMES = {"once": 1, "twice": 2, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_PERIOD_RX = "|".join(sorted(_PERIODS, key=len, reverse=True))
_STEP_RX = "|".join(sorted(_STEPS, key=len, reverse=True))
_TIMES_RX = "|".join(sorted(_TIMES, key=len, reverse=True))
# "every Sunday", "each month", "every other week", "every 90 days", "every six months"
_EVERY = re.compile(
    rf"\b(?:every|each)\s+(?:({_STEP_RX}|\d{{1,3}})\s+)?({_PERIOD_RX})s?\b(?![-’']s?\w)", re.I
)
# "once a quarter", "twice a week", "three times per month", "3x a week", "twice-yearly"
_PER = re.compile(
    rf"\b(?:(once|twice)|({_TIMES_RX}|\d{{1,2}})\s?(?:times|x))"
    r"(?:\s+(?:a|an|per|each|every)\s+(day|night|week|fortnight|month|quarter|year)\b"
    r"|-(daily|weekly|monthly|yearly)\b)",
    re.I,
)
_ADJECTIVES = {
    "daily": (1, "day"), "nightly": (1, "day"), "weekly": (1, "week"),
    "fortnightly": (2, "week"), "biweekly": (2, "week"), "monthly": (1, "month"),
    "bimonthly": (2, "month"), "quarterly": (3, "month"), "yearly": (1, "year"),
    "annually": (1, "year"),
}  # fmt: skip
_ADJECTIVE = re.compile(r"(?<![\w-])(" + "|".join(_ADJECTIVES) + r")(?![\w-])", re.I)
_ADJECTIVE_UNIT = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}


def _canonical(times: int, count: int, unit: str) -> str:
    """One rhythm, one string: 14 days are 2 weeks, 24 months 2 years (90 days are not a
    quarter: months differ in length)."""
    if unit == "day" and count % 7 == 0:
        count, unit = count // 7, "week"
    if unit == "month" and count % 12 == 0:
        count, unit = count // 12, "year"
    period = f"{count} {unit}"
    return period if times == 1 else f"{times}x {period}"


def rhythm_forms(text: str, taken: list[tuple[int, int]]) -> Iterator[Found]:
    """How often, as ("every", value): "every other Thursday" -> "2 week", "twice a week" ->
    "2x 1 week". Spans in `taken` (an amount's period, "£100 a month") are left alone."""
    spans = list(taken)

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in spans)

    for m in _PER.finditer(text):
        times = _TIMES.get((m.group(1) or m.group(2)).lower()) or int(m.group(2))
        word = (m.group(3) or _ADJECTIVE_UNIT[m.group(4).lower()]).lower()
        count, unit = _PERIODS[word]
        if free(m.span()):
            spans.append(m.span())
            yield "every", _canonical(times, count, unit), m.span(), False
    for m in _EVERY.finditer(text):
        step = (m.group(1) or "1").lower()
        count, unit = _PERIODS[m.group(2).lower()]
        if free(m.span()):
            spans.append(m.span())
            n = _STEPS[step] if step in _STEPS else int(step)
            yield "every", _canonical(1, n * count, unit), m.span(), False
    for m in _ADJECTIVE.finditer(text):
        count, unit = _ADJECTIVES[m.group(1).lower()]
        if free(m.span()):
            yield "every", _canonical(1, count, unit), m.span(), False
