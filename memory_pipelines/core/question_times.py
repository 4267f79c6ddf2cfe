"""The times a question names, for search: days, months and years it names ("on 6 November,
2023", "in August 2023") and those relative to when it is asked ("yesterday", "last week"), as
stretches of time; whether it asks when, and whether a record's text says when. Relative
phrases are read as core/dates.py reads them in what is said."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memory_pipelines.core.dates import RELATIVE_RX, month_number, month_shift, resolve
from memory_pipelines.core.judge_lexicon import MONTH_RX

# A date a question names: "on 6 November, 2023", "November 6, 2023", "2023-11-06" (a day),
# "in August 2023" (a month) or "in 2022" (a year, after in or during: "since 2022" is not
# 2022). A year is required: "in July" alone could be any July.
_MONTH_WORD = rf"({MONTH_RX})\.?"
_NAMED_DAY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD},?\s+(\d{{4}})\b"
    rf"|\b{_MONTH_WORD}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s*(\d{{4}})\b"
    r"|\b(\d{4})-(\d{2})-(\d{2})\b",
    re.IGNORECASE,
)
_NAMED_MONTH = re.compile(rf"\b{_MONTH_WORD},?\s+(\d{{4}})\b", re.IGNORECASE)
_NAMED_YEAR = re.compile(r"\b(?:in|during)\s+(?:the\s+year\s+)?(\d{4})\b", re.IGNORECASE)
# A named day, in UTC, widened by this much each side: a day as somebody in any time zone
# calls it (a turn said at 11 pm on 6 November in New York is stored on 7 November, UTC).
DAY_SLACK = timedelta(hours=12)


def named_windows(text: str) -> list[tuple[datetime, datetime]]:
    """The stretches of time a question names, [start, end) in UTC: each day it names, widened
    by DAY_SLACK each side, each month it names with its year, and each year it names. A date
    that does not exist (31 February 2023) names nothing. "What did Tim say on November 6,
    2023?" -> 5 November 12:00 to 7 November 12:00."""
    out = []
    for m in _NAMED_DAY.finditer(text):
        if m.group(7):
            year, month, dom = int(m.group(7)), int(m.group(8)), int(m.group(9))
        elif m.group(1):
            year, month, dom = int(m.group(3)), month_number(m.group(2)), int(m.group(1))
        else:
            year, month, dom = int(m.group(6)), month_number(m.group(4)), int(m.group(5))
        try:
            start = datetime(year, month, dom, tzinfo=UTC)
            out.append((start - DAY_SLACK, start + timedelta(days=1) + DAY_SLACK))
        except (ValueError, OverflowError):  # no such day, or past datetime's years
            continue
    rest = _NAMED_DAY.sub(" ", text)
    for m in _NAMED_MONTH.finditer(rest):
        year, month = int(m.group(2)), month_number(m.group(1))
        if 1 <= year <= 9998:  # datetime's years, and the month after
            start = datetime(year, month, 1, tzinfo=UTC)
            out.append((start, month_shift(start, 1)))
    for m in _NAMED_YEAR.finditer(_NAMED_MONTH.sub(" ", rest)):
        year = int(m.group(1))
        if 1 <= year <= 9998:
            out.append((datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)))
    return out


def question_windows(text: str, now: datetime) -> list[tuple[datetime, datetime]]:
    """The stretches of time a question names (named_windows), with those it names relative to
    `now` ("yesterday", "last Tuesday", "three days ago", "last week", "last month", "last
    year"), as `resolve` reads them. A season ("last summer") names none: where one starts
    and ends depends on the hemisphere."""
    out = named_windows(text)
    for m in RELATIVE_RX.finditer(text):
        when = resolve(m.group(0), now)
        if when is None:
            continue
        if when.isdigit():  # a year
            when = f"in {when}"
        week = when.startswith("the week of ")
        for start, end in named_windows(when.removeprefix("the week of ")):
            out.append((start, start + timedelta(weeks=1) + 2 * DAY_SLACK if week else end))
    return out


# A question that asks when ("When did Caroline go to the support group?", "What year did...",
# "How long ago..."), and a text that says when: a time said relative to when it was said
# (RELATIVE_RX), a weekday, a weekend, a month by its full name ("may" is a verb too), a year, or a
# date (_NAMED_DAY). The records that answer a question about when mostly say when.
ASKS_WHEN = re.compile(
    r"^\W*when\b|\bwhat (?:date|day|year|month|time)\b|\bhow long ago\b", re.IGNORECASE
)
_SAYS_WHEN = (
    rf"{RELATIVE_RX.pattern}"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekends?|january|february"
    r"|march|april|june|july|august|september|october|november|december)\b"
    r"|\b(?:19|20)\d\d\b"
)
# The same test as a PostgreSQL regular expression (case-insensitive, ~*): its word boundary
# is \y. Search computes it for every candidate of a question that asks when.
SAYS_WHEN_SQL = _SAYS_WHEN.replace(r"\b", r"\y")
# What every text _SAYS_WHEN matches holds, lowercased: a weekday, "today" and "yesterday" hold
# "day", "... ago" a day, week, month or year, a year its digits. Search tests a candidate for
# one of them (LIKE on the lowered text) before the regular expression, which is the one that
# decides: PostgreSQL converts the whole text for each regular expression (~17 us a turn), and
# most candidates hold none of the words (tests/test_search_dates.py reads every text the
# pattern matches).
SAYS_WHEN_WORDS = (
    *("day", "night", "morning", "tomorrow", "week", "month", "year"),
    *("summer", "winter", "spring", "fall", "autumn"),
    *("january", "february", "march", "april", "june", "july", "august"),
    *("september", "october", "november", "december"),
    *"0123456789",
)


def says_when(text: str) -> bool:
    """Whether a text says when something happened (as SAYS_WHEN_SQL tests it in SQL)."""
    return re.search(_SAYS_WHEN, text, re.IGNORECASE) is not None
