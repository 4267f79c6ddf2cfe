"""Times, amounts and rates in other forms, for the dedup judge (beside `judge_forms`).

"Seven in the evening" and "7pm" are 19:00, "half six" is 6:30 or 18:30, "at seven" 7:00 or
19:00; "two grand" is £2,000; "half of the team" is 50%; "half a dozen eggs" is 6 eggs, "a
couple of days" 2 days; "a fortnight" is 2 weeks; "fortnightly" and "every other week" are
one rhythm; "£100 a month" and "£1,200 a year" are one yearly amount. `amount_forms()` yields
these as typed values (kind, value, span, converted), the same kinds and canonical strings as
`judge_values`, so a restatement in another form holds the same value.

General English only: number words, parts of the day, fractions and periods.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from memory_pipelines.core.judge_lexicon import STOPWORDS, stem, wordlist
from memory_pipelines.core.judge_rhythms import rhythm_forms

Found = tuple[str, str, tuple[int, int], bool]  # kind, value, span, read from another form

_HOURS = {
    w: n
    for n, w in enumerate(
        wordlist("one two three four five six seven eight nine ten eleven twelve"), 1
    )
}
_HOUR_RX = "|".join(sorted(_HOURS, key=len, reverse=True))
_MINUTES = {"fifteen": 15, "thirty": 30, "forty-five": 45, "forty five": 45, "o five": 5}
_MIN_RX = "|".join(sorted(_MINUTES, key=len, reverse=True))
# "seven pm", "seven thirty in the evening", "7 in the morning", "9.15 at night"
_DAYPART = re.compile(
    rf"\b({_HOUR_RX}|\d{{1,2}})(?:[ :.-]({_MIN_RX}|\d{{2}}))?(?: o['’]clock)?"
    r" ?(am|pm|a\.m\.|p\.m\.|in the (?:morning|afternoon|evening)|at night|tonight)(?!\w)",
    re.I,
)
# "half six" (British: 6:30)
_HALF_HOUR = re.compile(rf"\bhalf ({_HOUR_RX})\b(?! (?:of|an?|the)\b)", re.I)
# "at seven", "by nine", "until eleven": a bare hour in words after a time word, at a clause end
# or before a word that follows a time ("at seven on Fridays", "by ten at the latest").
_AT_HOUR = re.compile(
    rf"\b(?:at|by|until|till|before|after|from|around|about) ({_HOUR_RX})\b"
    r"(?=\s*(?:[.,;:!?)]|$|(?:in|on|at|every|each|most|sharp|latest|tonight|today|tomorrow"
    r"|and|or|to)\b))",
    re.I,
)
_NUM_RX = r"\d+(?:\.\d+)?|" + "|".join(sorted(_HOURS, key=len, reverse=True)) + r"|a|an"
_GRAND = re.compile(rf"\b({_NUM_RX}) grand\b", re.I)
_FRACTIONS = {
    "half": 50, "a half": 50, "a quarter": 25, "one quarter": 25, "three quarters": 75,
    "a third": 33, "one third": 33, "two thirds": 67, "a fifth": 20, "a tenth": 10,
}  # fmt: skip
_FRACTION = re.compile(
    rf"\b({'|'.join(sorted(_FRACTIONS, key=len, reverse=True))}) of (?!an? hour)", re.I
)
# "half a dozen eggs", "a dozen eggs", "a couple of days", "a pair of boots": a count
_COUNT = re.compile(r"\b(half a dozen|a dozen|a couple of|a pair of) ([a-z]+)", re.I)
_COUNTS = {"half a dozen": 6, "a dozen": 12, "a couple of": 2, "a pair of": 2}
_FORTNIGHT = re.compile(rf"\b({_NUM_RX}) fortnights?\b", re.I)
# A currency before an amount: its sign ("£1,200") or its ISO code ("GBP 600").
ISO_CURRENCY = r"(?:gbp|usd|eur|chf|aud|cad|nzd|jpy|sek|nok|dkk|pln|inr)"
CURRENCY_BEFORE = rf"(?:[£$€]\s?|\b{ISO_CURRENCY}\s?)"
# "£100 a month", "€1,450/month", "£32 per month", "£384 a year", "£80 a week", "GBP 400 a month"
_RATE = re.compile(
    rf"{CURRENCY_BEFORE}(\d[\d,]*(?:\.\d+)?)\s?(k)?\s?(?:a|an|per|each|/|every)\s?"
    r"(year|annum|month|week)"
    rf"|{CURRENCY_BEFORE}(\d[\d,]*(?:\.\d+)?)\s?(k)?\s(annually|yearly|monthly|weekly)\b",
    re.I,
)
_PER_YEAR = {"year": 1, "annum": 1, "annually": 1, "yearly": 1, "month": 12, "monthly": 12}
_PER_YEAR |= {"week": 52, "weekly": 52}


def _number(word: str) -> float:
    low = word.lower()
    if low in ("a", "an"):
        return 1.0
    return float(_HOURS[low]) if low in _HOURS else float(low)


def _fmt(value: float) -> str:
    if not math.isfinite(value):  # a run of digits past a float's range
        return "inf"
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0").rstrip(".")


def _unit_key(word: str) -> str:
    return "n:" + ("" if word.lower() in STOPWORDS else stem(word))


def amount_forms(text: str) -> Iterator[Found]:
    parts = [m.span() for m in _DAYPART.finditer(text)]
    for m in _DAYPART.finditer(text):
        hour = int(_number(m.group(1)))
        minute = m.group(2) or "00"
        minute = str(_MINUTES.get(minute.lower(), minute)).zfill(2)
        part = m.group(3).lower()
        if not 1 <= hour <= 12 or int(minute) >= 60:
            continue
        late = part.startswith(("p", "in the afternoon", "in the evening", "at night", "tonight"))
        if part.startswith("at night") and hour <= 4:
            late = False  # "two at night" is 2:00
        hour = hour % 12 + (12 if late else 0)
        written = not m.group(1).isdigit() or not part.startswith(("a", "p"))
        yield "clock", f"{hour}:{minute}", m.span(), written
    for m in _HALF_HOUR.finditer(text):
        hour = _HOURS[m.group(1).lower()]
        for h in (hour, (hour + 12) % 24):
            yield "clock", f"{h}:30", m.span(), True
    for m in _AT_HOUR.finditer(text):
        if any(a <= m.start(1) < b for a, b in parts):
            continue  # "at eight in the evening": the part of the day says which
        hour = _HOURS[m.group(1).lower()]
        for h in (hour, (hour + 12) % 24):
            yield "clock", f"{h}:00", m.span(1), True
    for m in _GRAND.finditer(text):
        yield "money", _fmt(_number(m.group(1)) * 1000), m.span(), True
    for m in _FRACTION.finditer(text):
        yield "percent", str(_FRACTIONS[m.group(1).lower()]), m.span(), True
    for m in _COUNT.finditer(text):
        yield _unit_key(m.group(2)), str(_COUNTS[m.group(1).lower()]), m.span(), True
    for m in _FORTNIGHT.finditer(text):
        yield "n:week", _fmt(2 * _number(m.group(1))), m.span(), True
    # How often ("fortnightly", "every other Monday"), but not an amount's period ("£100 a
    # month", "£250 monthly"): that is the money readers'.
    yield from rhythm_forms(text, [m.span() for m in _RATE.finditer(text)])


def yearly_amounts(text: str) -> frozenset[str]:
    """Money said per year, month or week, as a yearly amount: "£100 a month" -> {"1200"}."""
    out = set()
    for m in _RATE.finditer(text):
        amount = float((m.group(1) or m.group(4)).replace(",", ""))
        amount *= 1000 if (m.group(2) or m.group(5)) else 1
        out.add(_fmt(amount * _PER_YEAR[(m.group(3) or m.group(6)).lower()]))
    return frozenset(out)
