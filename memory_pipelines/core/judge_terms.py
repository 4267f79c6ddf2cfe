"""Ends of terms, for the dedup judge: a length of time and its start give its end.

"A two-year lease starting 1 September 2024" ends in August (or September) 2026; "a five-year
fixed rate starting April 2021" runs out in 2026; "20 years left" on a mortgage, said in 2021,
ends in 2041. `term_ends()` yields the end as the typed values of `judge_values` (year, month),
read from another form, so "Lease ends in August 2026" holds the value of the item that
started the term, and a term that ends another year still conflicts.

General English only: number words, year and month units, verbs of starting. A term left
("20 years left") is read only when the time it was said is known (a stored item's
`valid_from`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipelines.core.judge_lexicon import MONTH_NAMES, MONTH_RX, MONTHS, wordlist

Found = tuple[str, str, tuple[int, int], bool]  # kind, value, span, read from another form
SaidOn = tuple[int, int] | None

_COUNTS = {
    w: n
    for n, w in enumerate(
        wordlist("one two three four five six seven eight nine ten eleven twelve"), 1
    )
} | {"a": 1, "an": 1}
_COUNT = rf"(\d{{1,2}}|{'|'.join(sorted(_COUNTS, key=len, reverse=True))})"
# "a two-year lease starting 1 September 2024", "fixed for five years from April 2021": the
# length, then (in the same clause) its start with a year.
_TERM_FROM = re.compile(
    rf"\b{_COUNT}[- ](years?|months?)\b[^.;,]{{0,40}}?\b(?:starting|from|beginning|began|begun"
    rf"|started)\s+(?:on\s+|in\s+)?(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?)?"
    rf"(?:({MONTH_RX})\s+)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "20 years left", "three years to go", "18 months remaining"
_TERM_LEFT = re.compile(
    rf"\b{_COUNT}[- ](years?|months?) (?:left|to go|remaining)\b", re.IGNORECASE
)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _COUNTS[word.lower()]


def _months(count: str, unit: str) -> int:
    return _count(count) * (12 if unit.lower().startswith("year") else 1)


def _at(index: int, with_month: bool) -> Iterator[tuple[str, str]]:
    """The year (and month) of a month index (year * 12 + month - 1)."""
    yield "year", str(index // 12)
    if with_month:
        yield "month", MONTHS[MONTH_NAMES[index % 12]]


def term_ends(text: str, said_on: SaidOn = None) -> Iterator[Found]:
    """The end of each term read from its length and its start (or from what is left of it,
    said at `said_on`). A term that starts in a month ends in that month or the one before it
    (its last full month), so both are yielded. The span is the term's length, which is read
    into its end instead of being a count of years."""
    for m in _TERM_FROM.finditer(text):
        months = _months(m.group(1), m.group(2))
        start_month = _month_index(m.group(3)) if m.group(3) else 0
        start = int(m.group(4)) * 12 + start_month + months
        span = (m.start(1), m.end(2))
        for index in {start - 1, start} if m.group(3) else {start}:
            for kind, value in _at(index, bool(m.group(3))):
                yield kind, value, span, True
    if said_on is None:
        return
    year, month = said_on
    for m in _TERM_LEFT.finditer(text):
        index = year * 12 + month - 1 + _months(m.group(1), m.group(2))
        for kind, value in _at(index, False):
            yield kind, value, (m.start(1), m.end(2)), True


def _month_index(month: str) -> int:
    key = MONTHS[month.lower()]
    return next(i for i, name in enumerate(MONTH_NAMES) if name.startswith(key))
