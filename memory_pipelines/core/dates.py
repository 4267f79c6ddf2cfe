"""Relative time phrases resolved against when they were said ("yesterday" said on 8 May 2023
is 7 May 2023), so a fact keeps its date when it is read months later."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memory_pipelines.core.judge_lexicon import MONTH_RX

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_UNITS = {"day": 1, "week": 7}
NUMBER_WORDS = {
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
    if unit in WEEKDAYS:
        target = WEEKDAYS.index(unit)
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
        n = (
            int(m.group(1))
            if m.group(1).isdigit()
            else NUMBER_WORDS.get(m.group(1).replace("a ", ""), 1)
        )
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
    ["is", "are", "am", "will", "won't", "going", "gonna", "be", "shall", "plan", "planning"]
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


_DETERMINERS = frozenset(["the", "a", "an", "my", "your", "his", "her", "our", "their", "this"])


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
        # "-ed" after a determiner describes a thing ("send the signed NDA to Paul on Thursday")
        described = k > 0 and words[k - 1] in _DETERMINERS
        if word in _GONE or (word.endswith("ed") and len(word) > 4 and not described):
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
        weekday = m.group(0).lower().rsplit(" ", 1)[-1] in WEEKDAYS
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


MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip


def month_number(word: str) -> int:
    """1-12 for a month's name or its short form ("Sept." -> 9)."""
    word = word.lower().rstrip(".")[:3]
    return next(i for i, name in enumerate(MONTHS, 1) if name.startswith(word))
