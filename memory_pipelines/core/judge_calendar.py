"""Dates in other forms, for the dedup judge: numeric and spelt-out dates, day ranges, and
phrases relative to the time they were said.

"2024-05-05", "05/05/2024" and "the fifth of May" are 5 May; "Monday to Friday" and "Mon-Fri"
are the five weekdays; "last September" said in June 2023 is September 2022, "five years ago"
said in 2024 is 2019, "turned 36" said in 2024 means born in 1987 or 1988. `calendar_forms()`
yields these as the typed values of `judge_values` (same kinds, same canonical strings), so a
restatement in another form holds the same value as the item it restates, and a changed date
still conflicts.

A phrase relative to the time it was said is read only when that time is known (a stored
item's `valid_from`). General English only: month and day names, ordinals, number words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory_pipelines.core.judge_lexicon import MONTH_NAMES, MONTH_RX, MONTHS, WEEKDAYS, wordlist

Found = tuple[str, str, tuple[int, int], bool]  # kind, value, span, read from another form
SaidOn = tuple[int, int] | None

_ORDINALS = {
    w: n
    for n, w in enumerate(
        wordlist(
            """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
        thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
        """
        ),
        1,
    )
} | {"thirtieth": 30}
for _unit, _n in (("first", 1), ("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5),
                  ("sixth", 6), ("seventh", 7), ("eighth", 8), ("ninth", 9)):  # fmt: skip
    _ORDINALS[f"twenty-{_unit}"] = 20 + _n
    _ORDINALS[f"twenty {_unit}"] = 20 + _n
_ORDINALS["thirty-first"] = _ORDINALS["thirty first"] = 31
_ORD_RX = "|".join(sorted(_ORDINALS, key=len, reverse=True))
# "the fifth of May", "fifth of May", "May the fifth", "May fifth"
_ORDINAL_DATE = re.compile(
    rf"\b(?:the )?({_ORD_RX}) of ({MONTH_RX})\b|\b({MONTH_RX}) (?:the )?({_ORD_RX})\b", re.I
)
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})\b")
_SLASH_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.]((?:19|20)?\d\d)\b")
_DAY_NAMES = {d[:3]: i for i, d in enumerate(WEEKDAYS)}
_DAY_RX = r"(mon|tue|wed|thu|fri|sat|sun)[a-z]*"
# "Monday to Friday", "Mon-Fri", "Tuesdays through Thursdays"
_DAY_RANGE = re.compile(rf"\b{_DAY_RX}\s?(?:-|–|to|through|till|until)\s?{_DAY_RX}\b", re.I)

_NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        wordlist("a two three four five six seven eight nine ten eleven twelve"), 1
    )
} | {"an": 1, "one": 1}
_RELATIVE_YEAR = re.compile(r"\b(last|this|next) year\b", re.I)
_RELATIVE_MONTH = re.compile(rf"\b(last|this|next|past) ({MONTH_RX})\b", re.I)
_MONTH_SHIFT = re.compile(r"\b(last|this|next) month\b", re.I)
# "five years ago", "a decade ago", "18 months ago"
_AGO = re.compile(rf"\b(\d{{1,2}}|{'|'.join(_NUMBER_WORDS)}) (years?|decades?|months?) ago\b", re.I)


def _month_key(index: int) -> str:
    return MONTHS[MONTH_NAMES[index - 1]]


def _date(day: int, month: int) -> str | None:
    return f"{day} {_month_key(month)}" if 1 <= month <= 12 and 1 <= day <= 31 else None


def weekday_range(text: str) -> set[str]:
    """Every day of "Monday to Friday" or "Mon-Fri", the ends included."""
    out: set[str] = set()
    keys = list(_DAY_NAMES)
    for m in _DAY_RANGE.finditer(text):
        start, end = _DAY_NAMES[m.group(1).lower()], _DAY_NAMES[m.group(2).lower()]
        span = range(start, end + 1) if start <= end else [*range(start, 7), *range(end + 1)]
        out |= {keys[i] for i in span}
    return out


def calendar_forms(text: str, said_on: SaidOn = None) -> Iterator[Found]:
    """Dates written as numbers or ordinals, and phrases relative to `said_on` (year, month)."""
    for m in _ISO_DATE.finditer(text):
        date = _date(int(m.group(3)), int(m.group(2)))
        if date:
            yield "date", date, m.span(), True
            yield "year", m.group(1), m.span(), False
    for m in _SLASH_DATE.finditer(text):
        first, second = int(m.group(1)), int(m.group(2))
        # Day first, as written outside the US, unless only the other order is a date.
        date = _date(second, first) if second > 12 else _date(first, second)
        if date:
            yield "date", date, m.span(), True
            year = m.group(3)
            yield "year", year if len(year) == 4 else f"20{year}", m.span(), False
    for m in _ORDINAL_DATE.finditer(text):
        ordinal, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        day = _ORDINALS[ordinal.lower().replace("  ", " ")]
        yield "date", f"{day} {MONTHS[month.lower()]}", m.span(), True
    if said_on is None:
        return
    year, month = said_on
    for m in _RELATIVE_YEAR.finditer(text):
        shift = {"last": -1, "this": 0, "next": 1}[m.group(1).lower()]
        yield "year", str(year + shift), m.span(), True
    for m in _RELATIVE_MONTH.finditer(text):
        which, named = m.group(1).lower(), MONTH_NAMES.index(_full(m.group(2))) + 1
        if which == "this":
            yield "year", str(year), m.span(), True
        elif which == "next":
            # "next September" said in June: this September or the one after, as people use
            # it; said in October, only the one after.
            for y in {year + 1, year} if named > month else {year + 1}:
                yield "year", str(y), m.span(), True
        else:  # "last March" said in June: this March or the one before
            for y in {year - 1, year} if named < month else {year - 1}:
                yield "year", str(y), m.span(), True
    for m in _MONTH_SHIFT.finditer(text):
        index = year * 12 + month - 1 + {"last": -1, "this": 0, "next": 1}[m.group(1).lower()]
        yield "month", _month_key(index % 12 + 1), m.span(), True
        yield "year", str(index // 12), m.span(), True
    for m in _AGO.finditer(text):
        count = m.group(1).lower()
        n = int(count) if count.isdigit() else _NUMBER_WORDS[count]
        unit = m.group(2).lower()
        if unit.startswith("month"):
            index = year * 12 + month - 1 - n
            yield "month", _month_key(index % 12 + 1), m.span(), True
            yield "year", str(index // 12), m.span(), True
        else:
            yield "year", str(year - n * (10 if unit.startswith("decade") else 1)), m.span(), True


def _full(month: str) -> str:
    key = MONTHS[month.lower()]
    return next(name for name in MONTH_NAMES if name.startswith(key))
