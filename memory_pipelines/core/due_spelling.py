"""A time as due_dates reads it, written out from the forms people type: chat's short weekdays
and "eod" ("by wed eod" -> "by wednesday end of day"), a day's ordinal word as a number
("the first of April" -> "1th of April"), and a time told by what the day holds ("after
lunch"). Pure Python."""

from __future__ import annotations

import re

from memory_pipelines.core.dates import WEEKDAYS

MONTH_RX = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"

# The ordinal words of a day ("the first of April", "April the third"), read as numbers.
_ORDINAL_WORDS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth",
]  # fmt: skip
_ORDINALS = {w: n for n, w in enumerate(_ORDINAL_WORDS, 1)}
_ORDINALS |= {f"twenty-{w}": 20 + n for n, w in enumerate(_ORDINAL_WORDS[:9], 1)}
_ORDINALS |= {"thirtieth": 30, "thirty-first": 31}
_ORDINAL_RX = "|".join(w.replace("-", "[- ]?") for w in sorted(_ORDINALS, key=len, reverse=True))
_ORDINAL_DAY = re.compile(
    rf"\b(?:the\s+)?(?P<o1>{_ORDINAL_RX})\s+of\s+(?={MONTH_RX}(?![a-z]))"
    rf"|(?P<month>\b{MONTH_RX}\s+)(?:the\s+)?(?P<o2>{_ORDINAL_RX})\b"
    rf"|(?P<due>\b(?:by|before|on|until|due)\s+the\s+)(?P<o3>{_ORDINAL_RX})\b",
    re.IGNORECASE,
)


# A weekday as chat shortens it ("by wed eod", "fri morning", "sat 7pm"), where it can only be
# a day: after a word that dates or before a time of that day ("sat" and "sun" alone are words).
_SHORT_DAYS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3,
               "thurs": 3, "fri": 4, "sat": 5, "sun": 6}  # fmt: skip
_SHORT_DAY = re.compile(
    rf"(?:(?<=\bby )|(?<=\bon )|(?<=\bbefore )|(?<=\buntil )|(?<=\btill )|(?<=\bthis )"
    rf"|(?<=\bnext ))(?P<a>{'|'.join(_SHORT_DAYS)})\.?\b"
    rf"|\b(?P<b>{'|'.join(_SHORT_DAYS)})\.?(?=\s+(?:eod|cob|morning|afternoon|evening|night|at\s+\d"
    r"|\d{1,2}(?::\d\d)?\s*(?:am|pm)\b))",
    re.IGNORECASE,
)
_EOD = re.compile(r"\b(?:eod|cob)\b", re.IGNORECASE)  # end of day, close of business


def days_spelled(text: str) -> str:
    """Chat's short weekdays and "eod" written out: "by wed eod" -> "by wednesday end of day"."""
    text = _SHORT_DAY.sub(
        lambda m: WEEKDAYS[_SHORT_DAYS[(m.group("a") or m.group("b")).lower()]], text
    )
    return _EOD.sub("end of day", text)


def _numbered(text: str) -> str:
    """Ordinal words of a day written as numbers: "the first of April" -> "1th of April"
    (the suffix is read, never shown), "April the third" -> "April 3th"."""

    def number(m: re.Match[str]) -> str:
        word = re.sub(r"[- ]+", "-", (m.group("o1") or m.group("o2") or m.group("o3")).lower())
        n = _ORDINALS[word]
        if m.group("o1"):
            return f"{n}th of "
        return f"{m.group('month') or m.group('due')}{n}th"

    return _ORDINAL_DAY.sub(number, text)


def spelled_out(text: str) -> str:
    """The text with short weekdays, "eod" and ordinal days written out (both above)."""
    return _numbered(days_spelled(text))


# A time of the day told by what the day holds: "after lunch" (by the afternoon's end), "before
# work", "after dinner" (by the day's end); "before" and "by" bind, "after" is when it is done.
MEALTIME = re.compile(
    r"\b(?P<rel>before|by|after)\s+(?P<what>lunch(?:time)?|dinner|work|school|class)\b", re.I
)
_MEAL_HOURS = {
    ("before", "lunch"): (12, 0), ("after", "lunch"): (17, 0), ("before", "dinner"): (18, 0),
    ("after", "dinner"): (23, 59), ("before", "work"): (9, 0), ("after", "work"): (23, 59),
    ("before", "school"): (8, 0), ("after", "school"): (23, 59), ("before", "class"): (9, 0),
    ("after", "class"): (23, 59),
}  # fmt: skip


def mealtime(m: re.Match[str]) -> tuple[int, int]:
    rel = "after" if m.group("rel").lower() == "after" else "before"
    return _MEAL_HOURS[rel, m.group("what").lower().removesuffix("time")]
