"""Relative time phrases resolved against when they were said ("yesterday" said on 8 May 2023
is 7 May 2023), so a fact keeps its date when it is read months later."""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from memory_pipelines.core.judge_lexicon import MONTH_RX

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_UNITS = {"day": 1, "week": 7}
_NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "couple of": 2,
    "few": 3,
}

RELATIVE_RX = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last night|this morning|"
    r"(?:last|this|next) (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|"
    r"(?:last|this|next|on) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:\d+|a|an|one|two|three|four|five|six|a couple of|a few) (?:day|week|month|year)s? ago)\b",
    re.IGNORECASE,
)


def day(dt: datetime) -> str:
    return f"{dt.day} {dt:%B %Y}"


def month_shift(dt: datetime, n: int) -> datetime:
    y, m = divmod(dt.month - 1 + n, 12)
    return dt.replace(year=dt.year + y, month=m + 1, day=1)


def resolve(phrase: str, said_at: datetime) -> str | None:
    """The absolute date a relative phrase means, in words, or None if it is not one (nor one
    a calendar holds: "18263 weeks ago" said in the year 351)."""
    try:
        return _resolve(phrase, said_at)
    except (OverflowError, ValueError):
        return None


def _resolve(phrase: str, said_at: datetime) -> str | None:
    p = phrase.lower().strip()
    if p in ("today", "tonight", "this morning"):
        return day(said_at)
    if p in ("yesterday", "last night"):
        return day(said_at - timedelta(days=1))
    if p == "tomorrow":
        return day(said_at + timedelta(days=1))
    rel, _, unit = p.partition(" ")
    if unit in _WEEKDAYS:
        target = _WEEKDAYS.index(unit)
        delta = (said_at.weekday() - target) % 7
        if rel == "last":
            return day(said_at - timedelta(days=delta or 7))
        ahead = (target - said_at.weekday()) % 7
        if rel == "next":
            return day(said_at + timedelta(days=ahead or 7))
        return (
            day(said_at + timedelta(days=ahead))
            if rel == "this"
            else (day(said_at - timedelta(days=delta)))
        )
    shift = {"last": -1, "this": 0, "next": 1}.get(rel)
    if shift is not None and unit in ("week", "weekend"):
        start = said_at - timedelta(days=said_at.weekday()) + timedelta(weeks=shift)
        return f"the week of {day(start)}"
    if shift is not None and unit == "month":
        return f"{month_shift(said_at, shift):%B %Y}"
    if shift is not None and unit == "year":
        return str(said_at.year + shift)
    if shift is not None:  # a season
        return f"{unit} {said_at.year + shift}"
    m = re.fullmatch(r"(\d+|a couple of|a few|an?|one|two|three|four|five|six) (\w+?)s? ago", p)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _NUM.get(m.group(1).replace("a ", ""), 1)
        unit = m.group(2)
        about = "around " if m.group(1) == "a few" else ""  # a few: no exact day or year
        if unit in _UNITS:
            return about + day(said_at - timedelta(days=n * _UNITS[unit]))
        if unit == "month":
            return f"{about}{month_shift(said_at, -n):%B %Y}"
        if unit == "year":
            return f"{about}{said_at.year - n}"
    return None


# A relative phrase with its "'s" ("tomorrow's opening", "Tomorrow's going to be"): the date
# goes after the whole word, never between the two.
_RX_S = re.compile(rf"(?:{RELATIVE_RX.pattern})(?P<s>['’]s\b)?", RELATIVE_RX.flags)


# The verb before "on Friday" says which Friday: one to come ("is", "will", "are going") or
# one gone ("was", "went", "finished"); with neither, the one gone, as before.
_COMING = frozenset(
    ["is", "are", "am", "will", "going", "gonna", "be", "shall", "plan", "planning"]
)
_HAVE = frozenset(["have", "has", "he's", "she's", "it's"])
_GONE = frozenset(["was", "were", "did", "went", "had", "got", "saw", "met", "came", "made"])
# What one is to do: "would", "must", a reminder asked for; "has to", "needs to", "wants to",
# "promised to" (the "to" of a verb of intent, not "went to the market").
_MEANT = frozenset(["would", "must", "should", "remind", "reminder"])
_INTENT = frozenset(
    ["have", "has", "need", "needs", "want", "wants", "promised", "promise", "plans", "got",
     "hope", "hoping", "ought", "supposed", "trying", "me"]
)  # fmt: skip
# The verbs an instruction opens with ("Call her on Sunday", "Tom, book the table on Friday").
_ORDERS = frozenset(
    ["call", "ring", "text", "email", "send", "book", "pick", "buy", "bring", "visit", "meet",
     "pay", "ask", "tell", "take", "check", "order", "cancel", "post", "drop", "collect"]
)  # fmt: skip


def _ahead(before: str) -> bool:
    """Whether the words before a weekday ("... is at Lumo on") speak of what is to come."""
    clause = before.lower().replace("’", "'").split(".")[-1]
    words = re.findall(r"[a-z']+", clause)[-8:]
    for k in range(len(words) - 1, -1, -1):
        word = words[k]
        if word in _COMING or word in _MEANT or word.endswith(("'ll", "'re", "'m", "'d")):
            return True
        if word in ("have", "has"):
            return True  # "I have a job interview on Friday": what one has, to come
        if word == "got" and k and (words[k - 1] in _HAVE or words[k - 1].endswith("'ve")):
            return True  # "I've got an interview on Thursday": what one has, to come
        if word == "to" and k and words[k - 1] in _INTENT:
            return True  # "has to call the plumber on Sunday", "remind me to call her"
        if word in _GONE or (word.endswith("ed") and len(word) > 4):
            return False
    # An instruction ("Call her on Sunday", "Tom, call mum on Sunday") is for a day to come.
    opening = re.findall(r"[a-z']+", clause.split(",")[-1] if "," in clause else clause)
    return bool(opening) and opening[0] in _ORDERS


# A weekday with its own date after it ("on Friday the 14th", "on Monday, March 9", "next
# Tuesday, 3 June"): the text says which day; the weekday is no relative phrase to resolve.
_OWN_DATE = re.compile(
    r",?\s+(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|the\s+\d{1,2}(?=\s*(?:[,.;!?]|$))"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_RX})\b"
    rf"|(?:{MONTH_RX})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b)",
    re.IGNORECASE,
)


# A weekday before a part of the day in the plural ("on Thursday evenings") says what happens
# every week: no date to resolve.
_EVERY_PART = re.compile(r"\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b", re.I)


def annotate(text: str, said_at: datetime) -> tuple[str, list[str]]:
    """Text with each relative phrase followed by its date in brackets, and the dates."""
    dates: list[str] = []

    def sub(m: re.Match[str]) -> str:
        if re.search(r"\blike (?:just )?$", m.string[: m.start()], re.IGNORECASE):
            return m.group(0)  # "feels like just yesterday": no day meant
        weekday = m.group(0).lower().rsplit(" ", 1)[-1] in _WEEKDAYS
        if weekday and _OWN_DATE.match(m.string, m.end()):
            return m.group(0)  # "on Friday the 14th": the date is said
        if weekday and _EVERY_PART.match(m.string, m.end()):
            return m.group(0)  # "on Thursday evenings": every Thursday, no one day
        s = m.group("s") or ""
        phrase = m.group(0)[: len(m.group(0)) - len(s)]
        if phrase.lower().startswith("on ") and _ahead(m.string[: m.start()]):
            phrase_ahead = "this" + phrase[2:]  # "The dinner is on Friday": the coming one
            when = resolve(phrase_ahead, said_at)
        else:
            when = resolve(phrase, said_at)
        if when is None:
            return m.group(0)
        dates.append(when)
        return f"{phrase}{s} ({when})"

    return _RX_S.sub(sub, text), dates


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
MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip


def month_number(word: str) -> int:
    """1-12 for a month's name or its short form ("Sept." -> 9)."""
    word = word.lower().rstrip(".")[:3]
    return next(i for i, name in enumerate(MONTHS, 1) if name.startswith(word))


_MONTH_RX = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# "by Friday, June 10", "by Friday the 14th": the date said beside its weekday decides.
_A_WEEKDAY = rf"(?:(?:{'|'.join(_WEEKDAYS)}),?\s+)?"
# "by June 10", "by 10 June", "before the 3rd of March", "due March 10th"; "may" only after
# a due word, where it cannot be the verb.
# A day and its month, either way round: "June 10", "10th of June" (groups: month, day, day,
# month).
_DAY_MONTH = (
    rf"(?:{_MONTH_RX}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RX}(?![a-z]))"
)
_DUE_DATE = re.compile(
    rf"\b(?:by|before|on|until|due|for)\s+{_A_WEEKDAY}(?:the\s+)?{_DAY_MONTH}", re.IGNORECASE
)
_DUE_END = re.compile(
    r"\b(?:by|before)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month|day)\b"
    r"|\bby\s+(?:the\s+)?(weekend|eod|end of day)\b"
    # "by the end of August": that month's last day
    rf"|\b(?:by|before)\s+(?:the\s+)?end\s+of\s+{_MONTH_RX}(?![a-z])",
    re.IGNORECASE,
)


# "by the 15th" (a day of this month, or of the next once it has passed); "in two weeks",
# "within 3 days" (counted from the day it was said).
_DUE_DAY = re.compile(r"\b(?:by|before|on|until|due)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_DUE_IN = re.compile(
    rf"\b(?:in|within)\s+(\d{{1,2}}|{'|'.join(_NUM)})\s+(day|week|month)s?\b", re.I
)


# The time a promise is for, when it names a week or a month: "next week", "this month".
_DUE_SPAN = re.compile(r"\b(this|next)\s+(week|weekend|month)\b", re.IGNORECASE)


def in_time_only(text: str) -> bool:
    """Whether the text's only time ahead is "in two weeks", "next week" and the like: when a
    thing happens, no deadline ("I'm moving in two weeks" or "next month" is a plan; "within a
    week" or "by the 15th" binds). A promise made to someone is due then all the same."""
    m = _DUE_IN.search(text)
    if (m is None or not m.group(0).lower().startswith("in ")) and not _DUE_SPAN.search(text):
        return False
    return not any(rx.search(text) for rx in (_DUE_DATE, _DUE, _DUE_DAY, _DUE_END))


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
    """When a promise is due, if the text says it: a date ("by June 10", "by 10 June"), a
    weekday, tomorrow or tonight, or the end of the day, week or month."""
    m = _DUE_DATE.search(text)
    if m:
        month = month_number(m.group(1) or m.group(4))
        return _next_date(month, int(m.group(2) or m.group(3)), said_at)
    # a deadline ("by Monday") before a time of doing ("sign it tonight and get it back to the
    # teacher by Monday" is due on Monday)
    found = list(_DUE.finditer(text))
    m = next((f for f in found if (f.group("prep") or "").lower() in ("by", "before")), None)
    m = m or (found[0] if found else None)
    if m:
        return _day_due(m, text, said_at)
    m = _DUE_DAY.search(text)
    if m:
        return _day_of_month(int(m.group(1)), said_at)
    m = _DUE_IN.search(text)
    if m:
        n = _NUM.get(m.group(1).lower()) or int(m.group(1))
        unit = m.group(2).lower()
        if unit == "month":  # the same day of that month, or its last day when it is shorter
            first = month_shift(said_at, n)
            last = calendar.monthrange(first.year, first.month)[1]
            return _end_of_day(first.replace(day=min(said_at.day, last)))
        return _end_of_day(said_at + timedelta(days=n * (7 if unit == "week" else 1)))
    m = _DUE_END.search(text)
    if m and m.group(3):
        month = month_number(m.group(3))
        return _next_date(month, calendar.monthrange(said_at.year, month)[1], said_at)
    if m:
        unit = (m.group(1) or m.group(2)).lower()
        if unit in ("day", "eod", "end of day"):
            return _end_of_day(said_at)
        if unit in ("week", "weekend"):
            return _end_of_day(said_at + timedelta(days=6 - said_at.weekday()))
        return _end_of_day(month_shift(said_at, 1) - timedelta(days=1))
    m = _DUE_SPAN.search(text)
    if m:  # "I'll bring you the clay next week": by the end of that week (or month)
        ahead = int(m.group(1).lower() == "next")
        if m.group(2).lower() == "month":
            return _end_of_day(month_shift(said_at, 1 + ahead) - timedelta(days=1))
        return _end_of_day(said_at + timedelta(days=6 - said_at.weekday() + 7 * ahead))
    for m in _BARE_DAY.finditer(text):
        if not _DAY_OF_A_THING.search(text, 0, m.start()):  # not "the Friday report"
            return _day_due(m, text, said_at)
    return None


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
    ahead = (_WEEKDAYS.index(word) - said_at.weekday()) % 7 or 7
    if re.match(r"\s+next week\b", text[m.end() :], re.IGNORECASE):  # "Friday next week"
        ahead = 7 - said_at.weekday() + _WEEKDAYS.index(word)
    return _end_of_day(said_at + timedelta(days=ahead))
