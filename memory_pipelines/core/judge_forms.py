"""One value in several forms, for the dedup judge: words, other units and relative phrases.

"Six pounds fifty" is £6.50, "half past seven" is 7:30 (or 19:30), "three quarters of an hour"
is 45 minutes, "the end of January" is 31 January, "last year" said in 2024 is 2023, and "turned
36" said in 2024 means born in 1987 or 1988, and a two-year lease starting September 2024 ends
in August 2026 (`judge_terms`). `other_forms()` reads these into the typed values
of `judge_values` (same kinds, same canonical strings), so a restatement in another form holds
the same value as the item it restates and a changed value still conflicts.

General English only: number words, currency and time units, months. A phrase relative to the
time it was said is read only when that time is known (a stored item's `valid_from`).
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Iterator

from memory_pipelines.core.judge_amounts import amount_forms
from memory_pipelines.core.judge_calendar import calendar_forms
from memory_pipelines.core.judge_lexicon import MONTH_RX, MONTHS, wordlist
from memory_pipelines.core.judge_terms import term_ends

_UNITS = {
    w: n
    for n, w in enumerate(
        wordlist(
            """zero one two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen"""
        )
    )
}
_TENS = {
    w: 10 * n
    for n, w in enumerate(wordlist("twenty thirty forty fifty sixty seventy eighty ninety"), 2)
}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True))
# "forty-five", "twenty five", "six", "a hundred and twenty": a run of number words.
_WORDS_RX = (
    rf"(?:(?:{_NUMBER_WORD}|a|one) hundred(?: and)? )?(?:{_NUMBER_WORD})(?:[- ](?:{_NUMBER_WORD}))?"
)
NUM = rf"(\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|{_WORDS_RX})"


def number(text: str) -> float | None:
    """The value of digits or English number words ("forty-five", "a hundred and ten")."""
    text = text.strip().lower().replace(",", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    current = 0
    seen = False
    for tok in re.split(r"[- ]+", text):
        if tok in _UNITS:
            current += _UNITS[tok]
        elif tok in _TENS:
            current += _TENS[tok]
        elif tok == "hundred":
            current = max(current, 1) * 100
        elif tok in ("a", "and"):
            continue
        else:
            return None
        seen = True
    return float(current) if seen else None


def fmt_number(value: float) -> str:
    """A number as the judge compares it: "1200", "2.5"; "inf" past a float's range (a run of
    digits such as "9" * 400, which int() cannot take)."""
    if not math.isfinite(value):
        return "inf"
    return str(int(value)) if value == int(value) else f"{value:g}"


_CURRENCY = r"(pounds?|quid|dollars?|bucks|euros?)"
# "six pounds fifty", "ten quid", "twelve euros and fifty cents"
_MONEY_WORDS = re.compile(
    rf"\b{NUM} {_CURRENCY}(?:(?: and)? {NUM}(?! {_CURRENCY})(?: (?:pence|p|cents?))?)?\b", re.I
)
# "half past seven", "quarter to eight", "ten past six", "seven o'clock", "noon"
_CLOCK_WORDS = re.compile(
    rf"\b(half|quarter|twenty[- ]five|twenty|ten|five) (past|to) ({_WORDS_RX}|\d{{1,2}})\b"
    r"(?! (?:people|times|minutes|hours|days|weeks|months|years|of)\b)"
    rf"|\b({_WORDS_RX}|\d{{1,2}}) o['’]clock\b|\b(noon|midday|midnight)\b",
    re.I,
)
# "45 minutes", "an hour and a half", "1.5 hours", "three quarters of an hour", "half an hour"
_DURATION = re.compile(
    rf"\b(?:(a|one|two|three) )?quarters? of an hour\b|\bhalf an hour\b"
    rf"|\b(an?|{NUM[1:-1]}) (?:and a half )?(hours?|hrs?|h)\b(?: and a half\b)?"
    rf"(?:,? and (?:a )?{NUM} (?:minutes?|mins?)\b)?"
    rf"|\b{NUM} (minutes?|mins?)\b",
    re.I,
)
_RATE_BEFORE = re.compile(
    rf"(?:\d|\b{_CURRENCY[1:-1]}|\b(?:miles?|km|times?|words?|pence|p))\s*$", re.I
)
# "10k steps", "ten thousand", "1.5k": a count in thousands.
_THOUSANDS = re.compile(rf"\b{NUM} thousand\b|\b(\d+(?:\.\d+)?)k\b", re.I)
_MONTH_END = re.compile(rf"\b(?:the )?end of ({MONTH_RX})\b", re.I)
_AGE = re.compile(
    rf"\b(?:turned|turns|turning|aged) {NUM}\b(?![.,]\d)(?! (?:years? |months? |weeks? )?ago)"
    rf"(?! (?:months?|weeks?|days?|minutes?|hours?|percent|%))"
    rf"|\b{NUM} years? old\b",
    re.I,
)
# "born in 2019", "born in March 2018", "born on 3 May 2019", "born in the spring of 2021"
_BORN = re.compile(r"\bborn (?:in |on )?(?:[\w,]+ ){0,3}?(19\d\d|20\d\d)\b", re.I)

Found = tuple[str, str, tuple[int, int], bool]  # kind, value, span, read from another form

# Words every match of a pattern holds, looked for first: the patterns above try number words
# at every word of a text (13-27 µs a text each), and most texts the judge reads hold none.
_HINTS = {
    _MONEY_WORDS: re.compile(r"pound|quid|dollar|bucks|euro", re.I),
    _CLOCK_WORDS: re.compile(
        r"(?:half|quarter|ten|five|twenty) (?:past|to) |o['’]clock|noon|midday|midnight", re.I
    ),
    _DURATION: re.compile(
        r"quarters? of an hour|half an hour| (?:hours?|hrs?|h)\b| (?:minutes?|mins?)\b", re.I
    ),
    _THOUSANDS: re.compile(r"thousand|\dk", re.I),
    _AGE: re.compile(r"turned|turns|turning|aged| years? old", re.I),
}


def _matches(rx: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """rx.finditer(text), none without the words its matches hold (_HINTS)."""
    return rx.finditer(text) if _HINTS[rx].search(text) else iter(())


def other_forms(text: str, said_on: tuple[int, int] | None = None) -> Iterator[Found]:
    """Typed values written in words, in other units or relative to `said_on` (year, month).

    The last field says the value was converted (words, units, relative phrase), so a match
    with a plainly written value is a restatement in another form."""
    for m in _matches(_MONEY_WORDS, text):
        whole, cents = number(m.group(1)), number(m.group(3)) if m.group(3) else 0.0
        if whole is not None and cents is not None and (m.group(3) is None or cents < 100):
            yield "money", fmt_number(whole + cents / 100), m.span(), True
    for m in _matches(_CLOCK_WORDS, text):
        if m.group(5):
            hour, minute = (0 if m.group(5).lower() == "midnight" else 12), 0
        elif m.group(4):
            hour, minute = int(number(m.group(4)) or 0), 0
        else:
            first = m.group(1).lower()
            minutes = {"half": 30, "quarter": 15}.get(first) or number(first)
            target = number(m.group(3))
            if minutes is None or target is None or minutes >= 60:
                continue
            past = m.group(2).lower() == "past"
            hour, minute = (
                (int(target), int(minutes)) if past else (int(target) - 1, 60 - int(minutes))
            )
        if not 0 <= hour <= 23:
            continue
        # Words rarely say am or pm: "half past seven" is 7:30 or 19:30 (noon is noon).
        for h in {hour % 24, (hour + 12) % 24} if hour <= 12 and not m.group(5) else {hour}:
            yield "clock", f"{h}:{minute:02d}", m.span(), True
    for m in _matches(_DURATION, text):
        g = m.groups()
        if m.group(0).lower().startswith(("half an", "half-an")):
            minutes = 30.0
        elif "quarter" in m.group(0).lower():
            minutes = 15.0 * (number(g[0]) if g[0] and g[0].lower() != "a" else 1.0)  # type: ignore[operator]
        elif g[1] is not None:  # hours, maybe "and a half", maybe "and N minutes"
            if g[1].lower() in ("a", "an") and _RATE_BEFORE.search(text[: m.start()]):
                continue  # "£9 an hour", "60 miles an hour": a rate, not a duration
            hours = 1.0 if g[1].lower() in ("a", "an") else number(g[1])
            if hours is None:
                continue
            half = "a half" in m.group(0).lower()
            extra = number(g[3]) if g[3] else 0.0
            minutes = 60 * hours + 30 * half + (extra or 0.0)
        else:
            value = number(g[4])
            if value is None:
                continue
            yield "minutes", fmt_number(value), m.span(), not g[4][0].isdigit()
            continue
        yield "minutes", fmt_number(minutes), m.span(), True
    for m in _matches(_THOUSANDS, text):
        count = number(m.group(1) or m.group(2))
        if count is not None and not text[: m.start()].rstrip().endswith(("£", "$", "€")):
            yield "count", fmt_number(count * 1000), m.span(), True
    for m in _MONTH_END.finditer(text):
        month = MONTHS[m.group(1).lower()]
        index = list(calendar.month_abbr).index(month.title())
        last = calendar.monthrange(2001, index)[1]  # a year that is not a leap year
        yield "date", f"{last} {month}", m.span(), True
    for m in _BORN.finditer(text):
        yield "birth year", m.group(1), m.span(), False
    yield from calendar_forms(text, said_on)
    yield from term_ends(text, said_on)
    yield from amount_forms(text)
    if said_on is None:
        return
    year = said_on[0]
    for m in _matches(_AGE, text):
        age = number(m.group(1) or m.group(2) or m.group(3))
        if age is None or not 1 <= age <= 110 or age != int(age):
            continue
        # Before or after this year's birthday; "turns 7" is a birthday still to come.
        ahead = m.group(0).lower().startswith(("turns", "turning"))
        for born in (year - int(age), year - int(age) + (1 if ahead else -1)):
            yield "birth year", str(born), m.span(), True
