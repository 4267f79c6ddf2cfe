"""When a promise is due, read from its own words: a date ("by June 10", "by 10 June 2027"),
a weekday, tomorrow or tonight, the end of a day, week, month or year, a time of day ("by
5pm"), a feast day, or a span from when it was said ("within 3 days", "in a fortnight"); and
whether a sentence's only time is when something happens ("I'm moving in two weeks") rather
than a deadline."""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from dateutil.easter import easter

from memory_pipelines.core.dates import NUMBER_WORDS, WEEKDAYS, month_number, month_shift
from memory_pipelines.core.due_spelling import (
    MEALTIME,
    MONTH_RX,
    days_spelled,
    mealtime,
    spelled_out,
)

_DAY_WORDS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_DUE = re.compile(
    rf"\b(?P<prep>by|before|on|until)\s+(?:this\s+|next\s+)?(?P<day>{_DAY_WORDS}|tomorrow|tonight)\b"
    r"|\b(?P<near>tomorrow|tonight)\b"
    # said without "on", as chat says it: "drop it off Saturday morning", "this Friday"
    rf"|\b(?:this|next)\s+(?P<named>{_DAY_WORDS})\b"
    rf"|\b(?P<part>{_DAY_WORDS})(?=\s+(?:morning|afternoon|evening|night|lunchtime)\b)",
    re.IGNORECASE,
)
# A weekday said bare, as chat says it ("I'll pop round tuesday"), when nothing else dates
# the promise; not a weekday that is the subject ("Tuesday's busy", "Friday is out").
_BARE_DAY = re.compile(
    rf"\b(?P<day>{_DAY_WORDS})\b(?!'s\b|’s\b|\s+(?:is|was|are|were|works?|suits?)\b)",
    re.IGNORECASE,
)
_DAY_OF_A_THING = re.compile(
    r"\b(?:the|a|an|my|our|your|his|her|their|every|each|last|for|since|from|after)\s+$",
    re.IGNORECASE,
)
# A weekday with no noun of its own after it: the end of a clause, or a time of that day.
_DAY_ALONE = re.compile(
    r"\s*(?:[,.;:!?)]|$|(?:morning|afternoon|evening|night|at|before|after|then|too)\b)",
    re.IGNORECASE,
)
# "by Friday, June 10", "by Friday the 14th": the date said beside its weekday decides.
_A_WEEKDAY = rf"(?:(?:{'|'.join(WEEKDAYS)}),?\s+)?"
# "by June 10", "by 10 June", "before the 3rd of March", "due March 10th"; "may" only after
# a due word, where it cannot be the verb.
# A day and its month, either way round: "June 10", "10th of June" (groups: month, day, day,
# month).
_DAY_MONTH = (
    rf"(?:{MONTH_RX}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RX}(?![a-z]))"
)
_DUE_DATE = re.compile(
    rf"\b(?:by|before|on|until|due|for)\s+{_A_WEEKDAY}(?:the\s+)?{_DAY_MONTH}"
    r"(?:,?\s+(\d{4})\b)?",  # "by March 20, 2027": that year, not the next March 20
    re.IGNORECASE,
)
# "by 2027-03-20": a date written as ISO 8601 does
_DUE_ISO = re.compile(r"\b(?:by|before|on|until|due|for)\s+(\d{4})-(\d{2})-(\d{2})\b", re.I)
_DUE_END = re.compile(
    r"\b(?:by|before)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month|day|quarter|year)\b"
    r"|\bby\s+(?:the\s+)?(weekend|eod|end of day|year[\s-]end|end of year)\b"
    # "by the end of August": that month's last day
    rf"|\b(?:by|before)\s+(?:the\s+)?end\s+of\s+{MONTH_RX}(?![a-z])",
    re.IGNORECASE,
)


# "by the 15th" (a day of this month, or of the next once it has passed); "in two weeks",
# "within 3 days" (counted from the day it was said).
_DUE_DAY = re.compile(
    # ... after the day's name for it: "on payday, the 15th"
    r"\b(?:by|before|on|until|due)\s+(?:[a-z]+,?\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b",
    re.I,
)
_DUE_IN = re.compile(
    r"\b(?:in|within)\s+(?:a\s+(?=couple|few))?"
    rf"(\d{{1,2}}|{'|'.join(NUMBER_WORDS)})\s+(hour|day|week|fortnight|month)s?\b"
    r"|\bwithin\s+(?:the|an)\s+(hour)\b",
    re.I,
)


# The time a promise is for, when it names a week or a month: "next week", "this month".
_DUE_SPAN = re.compile(r"\b(this|next)\s+(week|weekend|month)\b", re.IGNORECASE)
# The rest of the day it was said: "I'll send it today", "this afternoon", "later today".
_TODAY = re.compile(r"\b(?:(?:later\s+)?today|this\s+(?:morning|afternoon|evening))\b", re.I)
# A month without its day: "by May" (before May begins), "in May", "by mid-April", "in late
# June 2027"; "until" is how long, never when ("away until May").
_MONTH_DUE = re.compile(
    r"\b(?P<prep>by|before|in|during)\s+(?:the\s+)?(?:(?P<part>early|mid|late)[\s-]*)?"
    rf"(?P<month>{MONTH_RX})(?![a-z])(?!\s+(?:be|have|not|also|well|never|just|still)\b)(?:\s+(?P<year>\d{{4}})\b)?(?![\s,]*\d)",
    re.IGNORECASE,
)
# A time of day: "by 5pm", "before 9:30 a.m.", "by 17:00", "by noon"; "at 3pm" is when.
_CLOCK = re.compile(
    # ... or right after its day, as chat says it: "saturday 7pm" (read as "at")
    r"(?:\b(?P<prep>by|before|until|at)|(?<=day))\s+"
    r"(?:(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>[ap])\.?m\b\.?"
    r"|(?P<h24>\d{1,2}):(?P<m24>\d{2})\b|(?P<word>noon|midday|midnight)\b)",
    re.IGNORECASE,
)
# An hour said bare with the part of the day that tells which: "at 7 tonight", "by 8 in the
# morning".
_BARE_HOUR = re.compile(
    # (the old hour a correction still names may stand between: "at 8, not 7, tonight")
    r"\b(?P<prep>by|before|until|at)\s+(?P<h>\d{1,2})(?::(?P<m>\d{2}))?"
    r"(?:,\s+not\s+\d{1,2}(?::\d{2})?,)?\s+(?:(?P<pm>tonight"
    r"|this evening|in the evening|tomorrow (?:night|evening))|(?P<am>in the morning"
    r"|(?:this|tomorrow) morning))\b",
    re.IGNORECASE,
)
# A feast day: "by Christmas", "before Easter" (the day before), "over New Year" (when).
_FEAST = re.compile(
    r"\b(?P<prep>by|before|for|until|over|at|on)\s+(?P<feast>christmas\s+eve|christmas|xmas"
    r"|new\s+year'?s\s+eve|new\s+year'?s(?:\s+day)?|new\s+year|easter|halloween"
    r"|valentine'?s(?:\s+day)?|thanksgiving)\b",
    re.IGNORECASE,
)
_DEADLINE_PREPS = ("by", "before")
# A part of a day said with its day ("tomorrow morning", "Friday afternoon") or "first thing":
# due by its end, as "tonight" is due by the day's.
_PART_OF_DAY = re.compile(
    rf"\bfirst thing\b|\b(?:today|tomorrow|this|{_DAY_WORDS})\s+(?P<part>morning|lunchtime"
    r"|afternoon)\b",
    re.IGNORECASE,
)
_PART_HOURS = {"first thing": 9, "morning": 12, "lunchtime": 13, "afternoon": 17}


def in_time_only(text: str) -> bool:
    """Whether the text's only time ahead is when a thing happens, no deadline: "in two weeks",
    "next week", "today", "in May", "at 3pm", "over Christmas" ("I'm moving in two weeks" or
    "next month" is a plan; "within a week", "by the 15th", "by May" or "by 5pm" binds). A
    promise made to someone is due then all the same."""
    text = days_spelled(text)
    m = _DUE_IN.search(text)
    when = (
        (m is not None and m.group(0).lower().startswith("in "))
        or _DUE_SPAN.search(text)
        or _TODAY.search(text)
        or any(x.group("rel").lower() == "after" for x in MEALTIME.finditer(text))
        or any(x.group("prep").lower() not in _DEADLINE_PREPS for x in _MONTH_DUE.finditer(text))
        or any((x.group("prep") or "at").lower() == "at" for x in _CLOCK.finditer(text))
        or any(x.group("prep").lower() in ("over", "at", "for") for x in _FEAST.finditer(text))
    )
    if not when:
        return False
    binding = (_MONTH_DUE, _CLOCK, _FEAST)
    return (
        not any(rx.search(text) for rx in (_DUE_DATE, _DUE_ISO, _DUE, _DUE_DAY, _DUE_END))
        and not any(x.group("rel").lower() != "after" for x in MEALTIME.finditer(text))
        and not any(
            (x.group("prep") or "at").lower() in _DEADLINE_PREPS
            for rx in binding
            for x in rx.finditer(text)
        )
    )


def _end_of_day(dt: datetime) -> datetime:
    return dt.replace(hour=23, minute=59, second=0, microsecond=0)


def _next_date(month: int, day_of_month: int, said_at: datetime) -> datetime | None:
    """The first such date on or after the day it was said (a promise is due ahead)."""
    for year in (said_at.year, said_at.year + 1):
        try:
            when = _end_of_day(said_at.replace(year=year, month=month, day=day_of_month))
        except ValueError:
            return None  # 31 June
        if when >= said_at:
            return when
    return None


_OWN_DAY = re.compile(r",?\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)


def _day_of_month(day: int, said_at: datetime) -> datetime | None:
    """The next such day of a month on or after when it was said: this month's or the next's
    that has one."""
    for ahead in range(3):
        start = month_shift(said_at.replace(day=1), ahead)
        when = _next_date(start.month, day, start)
        if when is not None and when >= said_at:
            return when
    return None


# A day and month anywhere in a text: "it'll be 27 March now", "moved to June 3rd".
_A_DATE = re.compile(rf"\b{_DAY_MONTH}", re.IGNORECASE)


def date_named(text: str, said_at: datetime) -> datetime | None:
    """The first day and month a text names, as the next such date on or after `said_at`
    (the end of that day), with or without "by"; None when it names none."""
    m = _A_DATE.search(text)
    if m is None:
        return None
    return _next_date(
        month_number(m.group(1) or m.group(4)), int(m.group(2) or m.group(3)), said_at
    )


def due_date(text: str, said_at: datetime) -> datetime | None:
    """When a promise is due, if the text says it: a date ("by June 10", "by 10 June 2027",
    "by the first of April", "by 2027-03-20"), a weekday, tomorrow, tonight or today, the end
    of the day, week, month, quarter or year, a month ("by May": before it begins; "in May":
    by its end), a feast day, a span from when it was said ("within 3 days", "in two hours"),
    and a time of day on that day or alone ("by Friday at 5pm", "by noon")."""
    text = spelled_out(text)
    day, exact = _due_day(text, said_at)
    bare = None if exact else _BARE_HOUR.search(text)  # "at 7:30 this evening" is pm
    clock = None if exact or bare else _CLOCK.search(text)
    if clock is not None and clock.group("prep") is None and day is None:
        clock = None  # "for saturday 7pm": the day read as a thing's, so its time is too
    if bare is not None:
        hour, minute = int(bare.group("h")), int(bare.group("m") or 0)
        if 1 <= hour <= 12 and minute <= 59:
            hour = hour % 12 + (12 if bare.group("pm") else 0)
            when = (day or said_at).replace(hour=hour, minute=minute, second=0, microsecond=0)
            return when if day is not None or when > said_at else when + timedelta(days=1)
    if clock is None and not exact and (part := _PART_OF_DAY.search(text)):
        # "first thing tomorrow", "Friday morning": by that hour of the day
        hour = _PART_HOURS[(part.group("part") or "first thing").lower()]
        when = (day or said_at).replace(hour=hour, minute=0, second=0, microsecond=0)
        return when if day is not None or when > said_at else when + timedelta(days=1)
    if clock is None and not exact and (meal := MEALTIME.search(text)):
        # "after lunch", "tomorrow before work"
        hour, minute = mealtime(meal)
        when = (day or said_at).replace(hour=hour, minute=minute, second=0, microsecond=0)
        return when if day is not None or when > said_at else when + timedelta(days=1)
    if clock is None or (clock.group("word") or "").lower() == "midnight":
        return day
    hour = int(clock.group("h") or clock.group("h24") or 12)
    minute = int(clock.group("m") or clock.group("m24") or 0)
    if hour > (12 if clock.group("ap") else 23) or minute > 59:
        return day  # "by 25:00" names no time of day
    if clock.group("ap"):
        hour = hour % 12 + (12 if clock.group("ap").lower() == "p" else 0)
    if day is not None:
        return day.replace(hour=hour, minute=minute)
    when = said_at.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return when if when > said_at else when + timedelta(days=1)  # "by 9am" said at noon


def _due_day(text: str, said_at: datetime) -> tuple[datetime | None, bool]:
    """The day a promise is due by (the end of it), and whether the time is exact already (a
    number of hours from when it was said)."""
    m = _DUE_ISO.search(text)
    if m:
        return _date(int(m.group(1)), int(m.group(2)), int(m.group(3)), said_at), False
    m = _DUE_DATE.search(text)
    if m:
        month, day_of_month = month_number(m.group(1) or m.group(4)), int(m.group(2) or m.group(3))
        if m.group(5):
            return _date(int(m.group(5)), month, day_of_month, said_at), False
        return _next_date(month, day_of_month, said_at), False
    # a deadline ("by Monday") before a time of doing ("sign it tonight and get it back to the
    # teacher by Monday" is due on Monday)
    found = list(_DUE.finditer(text))
    m = next((f for f in found if (f.group("prep") or "").lower() in _DEADLINE_PREPS), None)
    m = m or (found[0] if found else None)
    if m:
        return _day_due(m, text, said_at), False
    if _TODAY.search(text):
        return _end_of_day(said_at), False
    m = _DUE_DAY.search(text)
    if m:
        return _day_of_month(int(m.group(1)), said_at), False
    m = _DUE_IN.search(text)
    if m:
        return _in_span(m, said_at)
    m = _DUE_END.search(text)
    if m:
        return _end_due(m, said_at), False
    m = _FEAST.search(text)
    if m:
        return _feast_due(m, said_at), False
    m = _MONTH_DUE.search(text)
    if m:
        return _month_due(m, said_at), False
    m = _DUE_SPAN.search(text)
    if m:  # "I'll bring you the clay next week": by the end of that week (or month)
        ahead = int(m.group(1).lower() == "next")
        if m.group(2).lower() == "month":
            return _end_of_day(month_shift(said_at, 1 + ahead) - timedelta(days=1)), False
        return _end_of_day(said_at + timedelta(days=6 - said_at.weekday() + 7 * ahead)), False
    for m in _BARE_DAY.finditer(text):
        thing = _DAY_OF_A_THING.search(text, 0, m.start())  # not "the Friday report"
        if thing and thing.group().strip().lower() == "her" and _DAY_ALONE.match(text, m.end()):
            thing = None  # "call her sunday": whom, then when (not "her Sunday class")
        if not thing:
            return _day_due(m, text, said_at), False
    return None, False


def _date(year: int, month: int, day_of_month: int, said_at: datetime) -> datetime | None:
    """The end of that day in the time zone it was said in."""
    try:
        return datetime(year, month, day_of_month, 23, 59, tzinfo=said_at.tzinfo)
    except ValueError:
        return None  # "2027-02-30"


def _in_span(m: re.Match[str], said_at: datetime) -> tuple[datetime | None, bool]:
    """ "in two weeks", "within 3 days", "in a fortnight", "in two hours", "within the hour"."""
    if m.group(3):  # within the hour
        return said_at + timedelta(hours=1), True
    n = NUMBER_WORDS.get(m.group(1).lower()) or int(m.group(1))
    unit = m.group(2).lower()
    if unit == "hour":
        return said_at + timedelta(hours=n), True
    if unit == "month":  # the same day of that month, or its last day when it is shorter
        first = month_shift(said_at, n)
        last = calendar.monthrange(first.year, first.month)[1]
        return _end_of_day(first.replace(day=min(said_at.day, last))), False
    days = {"day": 1, "week": 7, "fortnight": 14}[unit]
    return _end_of_day(said_at + timedelta(days=n * days)), False


def _end_due(m: re.Match[str], said_at: datetime) -> datetime | None:
    """The end of the day, week, month, quarter or year it was said in, or of a month named."""
    if m.group(3):
        month = month_number(m.group(3))
        return _next_date(month, calendar.monthrange(said_at.year, month)[1], said_at)
    unit = re.sub(r"[\s-]+", " ", (m.group(1) or m.group(2)).lower())
    if unit in ("day", "eod", "end of day"):
        return _end_of_day(said_at)
    if unit in ("week", "weekend"):
        return _end_of_day(said_at + timedelta(days=6 - said_at.weekday()))
    if unit in ("year", "year end", "end of year"):
        return _end_of_day(said_at.replace(month=12, day=31))
    months = 3 - (said_at.month - 1) % 3 if unit == "quarter" else 1
    return _end_of_day(month_shift(said_at, months) - timedelta(days=1))


def _feast_due(m: re.Match[str], said_at: datetime) -> datetime | None:
    """The next such feast day on or after the day it was said; "before" it, the day before."""
    feast = re.sub(r"\s+", " ", m.group("feast").lower()).replace("'", "")
    for year in (said_at.year, said_at.year + 1):
        if feast == "easter":
            when = datetime.combine(easter(year), datetime.min.time(), said_at.tzinfo)
        elif feast == "thanksgiving":  # the fourth Thursday of November
            first = datetime(year, 11, 1, tzinfo=said_at.tzinfo)
            when = first + timedelta(days=(3 - first.weekday()) % 7 + 21)
        else:
            month, day_of_month = _FEAST_DAYS[feast.removesuffix(" day")]
            when = datetime(year, month, day_of_month, tzinfo=said_at.tzinfo)
        if m.group("prep").lower() == "before":
            when -= timedelta(days=1)
        if _end_of_day(when) >= said_at:
            return _end_of_day(when)
    return None


_FEAST_DAYS = {
    "christmas eve": (12, 24), "christmas": (12, 25), "xmas": (12, 25),
    "new years eve": (12, 31), "new years": (1, 1), "new year": (1, 1),
    "halloween": (10, 31), "valentines": (2, 14),
}  # fmt: skip


def _month_due(m: re.Match[str], said_at: datetime) -> datetime | None:
    """ "by May": the end of the day before May begins (the end of May when said in it); "in
    May": the end of May; early, mid or late in a month: its 10th, 15th or last day."""
    month = month_number(m.group("month"))
    year = int(m.group("year")) if m.group("year") else said_at.year + (month < said_at.month)
    last = calendar.monthrange(year, month)[1]
    part = (m.group("part") or "").lower()
    if part:
        return _date(year, month, {"early": 10, "mid": 15, "late": last}[part], said_at)
    if m.group("prep").lower() in _DEADLINE_PREPS and (year, month) != (
        said_at.year,
        said_at.month,
    ):
        return _end_of_day(datetime(year, month, 1, tzinfo=said_at.tzinfo) - timedelta(days=1))
    return _date(year, month, last, said_at)


def _day_due(m: re.Match[str], text: str, said_at: datetime) -> datetime | None:
    """The end of the day a match of _DUE or _BARE_DAY names: tonight, tomorrow, or the next
    such weekday ("Friday next week" the one after)."""
    word = next(w for k, w in m.groupdict().items() if k != "prep" and w).lower()
    if word == "tonight":
        return _end_of_day(said_at)
    if word == "tomorrow":
        return _end_of_day(said_at + timedelta(days=1))
    own = _OWN_DAY.match(text, m.end())  # "by Tuesday the 14th": the date said decides
    if own:
        return _day_of_month(int(own.group(1)), said_at)
    ahead = (WEEKDAYS.index(word) - said_at.weekday()) % 7 or 7
    if re.match(r"\s+next week\b", text[m.end() :], re.IGNORECASE):  # "Friday next week"
        ahead = 7 - said_at.weekday() + WEEKDAYS.index(word)
    elif re.match(r"\s+week\b", text[m.end() :], re.IGNORECASE):  # "Friday week": a week on
        ahead += 7
    return _end_of_day(said_at + timedelta(days=ahead))
