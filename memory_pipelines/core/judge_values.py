"""Typed values for the dedup judge: money, percentages, dates, clock times, weekdays, parts
of the day, counts.

Two items conflict on a value only when they hold different values of the same type, so "15 May"
against "28 April" is a changed date and "7 engineers" against "10 engineers" a changed count.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_amounts import CURRENCY_BEFORE, ISO_CURRENCY, yearly_amounts
from memory_pipelines.core.judge_calendar import weekday_range
from memory_pipelines.core.judge_forms import NUM, fmt_number, number, other_forms
from memory_pipelines.core.judge_lexicon import (
    CLAUSE_BREAKS,
    DAY_SETS,
    MONTH_RX,
    MONTHS,
    NUMBER_WORDS,
    PARTS_OF_DAY,
    PREPOSITIONS,
    STOPWORDS,
    WEEKDAYS,
    stem,
    wordlist,
)

# An amount with its currency: a sign before it ("£1,200", "$40k") or an ISO code before or
# after it ("GBP 600", "1,200 EUR").
_MONEY = re.compile(
    rf"{CURRENCY_BEFORE}(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn)?\b"
    rf"|\b(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn)?\s?{ISO_CURRENCY}\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?(%|percent|per cent)")
_DURATION = re.compile(r"\b(\d{1,2}):(\d{2}):(\d{2})\b")
# "3pm", "3:40pm", "3.40 pm", "15:40"
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s?(am|pm)\b|\b(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s?[-–]\s?(\d{{1,2}})(?:st|nd|rd|th)?)?\s+(?:of\s+)?"
    rf"({MONTH_RX})\b|\b({MONTH_RX})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s?[:,]?\d{{2}})",
    re.IGNORECASE,
)
# "no calls before 11": a bare hour after a time preposition is a clock time.
_BARE_HOUR = re.compile(
    r"\b(?:before|after|until|till|from|at) (1\d|2[0-4]|\d)\b(?![:.,]?\d|\s?%|\s?°|\s?degree)", re.I
)
# ... and so is one joined to it ("at 8 and 6", "at 7 or 8").
_JOINED_HOUR = re.compile(
    r"\b(?:before|after|until|till|from|at) (?:1\d|2[0-4]|\d) (?:and|or) (1\d|2[0-4]|\d)\b"
    # ... where the clause ends or goes on to when: "at 7 and 20 people" counts people
    r"(?=\s*(?:[,;:)]|\.(?!\d)|$)|\s(?:on|every|each|in|at|daily|most|during|for)\b)",
    re.I,
)
_ORDINAL = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
# An ordinal before the noun it counts ("the 4th floor", "on the fifth floor", "third child"):
# a number of that noun, not a day of the month ("every fourth week" is a frequency).
_ORDINAL_WORDS = {
    w: n
    for n, w in enumerate(
        wordlist(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
        ),
        1,
    )
}
_ORDINAL_OF = re.compile(
    rf"(?<!every )\b(?:(\d{{1,3}})(?:st|nd|rd|th)|({'|'.join(_ORDINAL_WORDS)}))\s+(?!of\b)([a-z]+)",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_NUMBER = re.compile(r"(?<![\w.:£$€])(\d+(?:[.,]\d+)*)(?:\s?-\s?|\s)?([a-z]+)?", re.IGNORECASE)
_DEGREE = re.compile(r"\s?°")  # "21°C", "70 °F": degrees, whatever the scale
_NUMWORD = re.compile(
    r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b\s*([a-z]+)?", re.I
)

# Words after a number that are not its unit ("16 after the upgrade", "13 in production").
_NOT_UNITS = STOPWORDS | PREPOSITIONS | CLAUSE_BREAKS
_NAME_BEFORE = re.compile(r"\b([A-Z][A-Za-z]+|[a-z]+[A-Z][A-Za-z]*) $")


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _number(text: str) -> str:
    """A number as read ("1,200" -> "1200"), or as written when it is none but a version, an
    address or a code ("4.2.1", "10.0.0.1")."""
    try:
        return fmt_number(_num(text))
    except ValueError:
        return text


Values = dict[str, frozenset[str]]


def typed_values(text: str, said_on: tuple[int, int] | None = None) -> Values:
    """Numbers, money, times, dates, weekdays and parts of the day, each under a type key.

    Two items conflict on a value only when they hold different values of the same type, so a
    count is keyed by the word after it ("7 engineers" vs "10 engineers").
    """
    return read_values(text, said_on)[0]


COLOURS = frozenset(
    [
        "red", "blue", "green", "yellow", "black", "white", "grey", "gray", "silver", "orange",
        "purple", "pink", "brown", "navy", "beige", "maroon", "teal", "turquoise",
    ]
)  # fmt: skip


def read_values(
    text: str, said_on: tuple[int, int] | None = None
) -> tuple[Values, frozenset[tuple[str, str, str]]]:
    """`typed_values`, and (kind, value, form) for each value read from another form (words,
    other units, a phrase relative to `said_on`; form: the words as written, lower-cased):
    see `judge_forms`."""
    vals: dict[str, set[str]] = {}
    used: list[tuple[int, int]] = []
    derived: set[tuple[str, str, str]] = set()

    def add(kind: str, value: str, span: tuple[int, int]) -> None:
        vals.setdefault(kind, set()).add(value)
        used.append(span)

    def free(span: tuple[int, int]) -> bool:  # not already read as a richer value
        return all(span[1] <= a or span[0] >= b for a, b in used)

    for kind, value, span, converted in other_forms(text, said_on):
        add(kind, value, span)
        if converted:
            derived.add((kind, value, " ".join(text[span[0] : span[1]].lower().split())))
    for m in _MONEY.finditer(text):
        if not free(m.span()):
            continue
        amount, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        mult = {"k": 1e3, "m": 1e6, "bn": 1e9}.get((scale or "").lower(), 1.0)
        add("money", fmt_number(_num(amount) * mult), m.span())
    for m in _PERCENT.finditer(text):
        if free(m.span()):
            add("percent", fmt_number(_num(m.group(1))), m.span())
    for m in _DURATION.finditer(text):
        add("duration", m.group(0), m.span())
    for m in _DAY_MONTH.finditer(text):
        if not free(m.span()):
            continue
        if m.group(3):
            month = MONTHS[m.group(3).lower()]
            for day in (m.group(1), m.group(2)):  # "22-29 August" holds two dates
                if day:
                    add("date", f"{int(day)} {month}", m.span())
        else:
            add("date", f"{int(m.group(5))} {MONTHS[m.group(4).lower()]}", m.span())
    for m in _CLOCK.finditer(text):
        if not free(m.span()):
            continue
        if m.group(3):
            hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
            add("clock", f"{hour}:{m.group(2) or '00'}", m.span())
        else:
            add("clock", f"{int(m.group(4))}:{m.group(5)}", m.span())
    for m in (*_BARE_HOUR.finditer(text), *_JOINED_HOUR.finditer(text)):
        if free(m.span(1)):
            hour = int(m.group(1))  # "at 7" says no am or pm: 7:00 or 19:00
            for h in {hour, hour + 12} if 1 <= hour <= 11 else {hour}:
                add("clock", f"{h}:00", m.span(1))
    for m in _YEAR.finditer(text):
        if free(m.span()):
            add("year", m.group(1), m.span())
    for m in _ORDINAL_OF.finditer(text):
        noun = m.group(3).lower()
        if free(m.span()) and noun not in MONTHS and noun.rstrip("s") not in WEEKDAYS:
            n = int(m.group(1)) if m.group(1) else _ORDINAL_WORDS[m.group(2).lower()]
            add(_unit_key(noun), str(n), m.span())
    for m in _ORDINAL.finditer(text):
        if free(m.span()):
            add("day", str(int(m.group(1))), m.span())
    low = text.lower()
    for tok in re.findall(r"[a-z]+", low):
        if tok in MONTHS and tok != "may":  # "may" is mostly the verb
            vals.setdefault("month", set()).add(MONTHS[tok])
        day = tok[:-1] if tok.endswith("s") else tok
        if day in WEEKDAYS:
            vals.setdefault("weekday", set()).add(WEEKDAYS[day])
        elif day in DAY_SETS:  # "on weekdays" names a set of days
            vals.setdefault("weekday", set()).update(DAY_SETS[day])
        elif day in PARTS_OF_DAY:  # "morning meetings" / "afternoon meetings"
            vals.setdefault("day_part", set()).add(day)
        elif tok in COLOURS:  # "a blue Golf" / "a red Golf"
            vals.setdefault("colour", set()).add("grey" if tok == "gray" else tok)
    if days := weekday_range(text):  # "Monday to Friday", "Mon-Fri"
        vals.setdefault("weekday", set()).update(days)
    if re.search(r"\bmay\b(?=\s+(\d|(19|20)\d\d))|\bin may\b", low):
        vals.setdefault("month", set()).add("may")
    for d in vals.get("date", set()):
        vals.setdefault("month", set()).add(d.split()[1])
    for m in _NUMBER.finditer(text):
        if free(m.span(1)):
            unit = "degrees" if _DEGREE.match(text, m.end(1)) else m.group(2)
            if not unit or unit.lower() in _NOT_UNITS:
                # "Postgres 16", "Python 3.12": a number after a name is its version.
                before = _NAME_BEFORE.search(text[: m.start(1)])
                unit = before.group(1) if before else ""
            vals.setdefault(_unit_key(unit), set()).add(_number(m.group(1)))
    for m in _NUMWORD.finditer(low):
        if not free(m.span(1)):
            continue
        unit = m.group(2)
        # "twice a week" is "two times a week"
        key = "n:tim" if m.group(1) in _TIMES else _unit_key(unit if unit not in STOPWORDS else "")
        vals.setdefault(key, set()).add(fmt_number(float(NUMBER_WORDS[m.group(1)])))
    if yearly := yearly_amounts(text):  # "£100 a month" is "£1,200 a year"
        vals["money a year"] = set(yearly)
    for noun, size in group_sizes(text):
        vals.setdefault(f"size:{noun}", set()).add(size)
    return {k: frozenset(v) for k, v in vals.items()}, frozenset(derived)


# How many a group holds, its members named or not: "a team of six" (no unit after the
# number), "the team is nine people", "team now has nine people" (a lower-case noun before).
_GROUP_OF = re.compile(rf"\b([a-z]+) of {NUM}\b(?:\s+([a-z]+))?", re.I)
_GROUP_IS = re.compile(
    rf"\b([a-z]+) (?:now |still )?(?:is|are|has|have) (?:now |about |around |roughly )?{NUM}"
    r" ([a-z]+)\b",
    re.I,
)


# Groups of people: their members are counted as the group's size whatever they are called
# ("a team of 7 engineers" is a team of seven).
_PEOPLE_GROUPS = frozenset(
    ("team", "squad", "crew", "class", "group", "band", "choir")
    + ("department", "committee", "board", "staff", "cohort")
)


def group_sizes(text: str) -> list[tuple[str, str]]:
    """(the group's stem, its size): "Leads a team of six" -> ("team", "6")."""
    out = []
    for m in _GROUP_OF.finditer(text):
        unit = (m.group(3) or "").lower()
        if unit and unit not in _NOT_UNITS and m.group(1).lower() not in _PEOPLE_GROUPS:
            continue  # "a pack of 10 nappies": ten nappies, counted as such
        out.append((m.start(1), m.group(1), m.group(2)))
    for m in _GROUP_IS.finditer(text):
        if m.group(3).lower() not in _NOT_UNITS:
            out.append((m.start(1), m.group(1), m.group(2)))
    sizes = []
    for start, noun, said in out:
        n = number(said)
        # a common noun: lower case, or capitalised as the first word ("Team now has ...")
        common = noun.islower() or (start == 0 and noun[1:].islower())
        if n is not None and noun.lower() not in _NOT_UNITS and common:
            sizes.append((stem(noun.lower()), fmt_number(n)))
    return sizes


# One unit in several spellings ("70 kilos" / "70 kg", "3x a week" / "3 times a week").
_UNIT_ALIASES = {
    "kilo": "kg", "kilogram": "kg", "kilogramm": "kg", "kgs": "kg", "kilometr": "km",
    "kilometer": "km", "kms": "km", "metr": "m", "meter": "m", "litr": "l", "liter": "l",
    "gram": "g", "centimetr": "cm", "centimeter": "cm", "millilitr": "ml", "milliliter": "ml",
    "x": "tim", "hr": "hour", "min": "minut", "degre": "degr",
}  # fmt: skip
_TIMES = frozenset(("once", "twice"))


def _unit_key(unit: str | None) -> str:
    if not unit:
        return "n:"
    key = stem(unit)
    return "n:" + _UNIT_ALIASES.get(key, key)


def value_conflicts(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> list[str]:
    """Types where each side holds a value the other lacks (a changed number, date, day...)."""
    b = _units_as_in(b, a)
    out = [kind for kind in a.keys() & b.keys() if a[kind] - b[kind] and b[kind] - a[kind]]
    if "date" in out and "month" in out:
        out.remove("month")  # 15 May vs 28 April is one change, not two
    if "date" in out and "weekday" in out:
        out.remove("weekday")  # Friday 30 May vs Wednesday 4 June: one day, named twice
    if any(k.startswith("n:") for k in out):  # "nine people" / "seven people" in a team
        out = [k for k in out if not k.startswith("size:")]
    if "money" in out and "money a year" in a.keys() & b.keys():
        if a["money a year"] & b["money a year"]:
            out.remove("money")  # "£100 a month" / "£1,200 a year": one amount
        elif "money a year" in out:
            out.remove("money a year")  # one change, not two
    return sorted(out)


def _units_as_in(b: Values, a: Values) -> Values:
    """`b` with a unit it abbreviates or spells out keyed as `a` keys it: "300 req/min" and "500
    requests per minute" count one unit (one key the start of the other, three letters or more,
    neither key on both sides)."""
    out = dict(b)
    for kb in b.keys() - a.keys():
        if not kb.startswith("n:") or len(kb) < 5:
            continue
        for ka in a.keys() - b.keys():
            if ka.startswith("n:") and len(ka) >= 5 and (ka.startswith(kb) or kb.startswith(ka)):
                out[ka] = out.pop(kb)
                break
    return out


def shared_values(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> int:
    """Values both sides hold; a bare count ("2.5k") is the same amount as a number with a
    unit on the other side ("£2,500", "2,200 kcal")."""
    same = sum(len(a[k] & b[k]) for k in a.keys() & b.keys())
    for one, other in ((a, b), (b, a)):
        if "count" in one and "count" not in other:
            units = [v for k, vs in other.items() if k == "money" or k.startswith("n:") for v in vs]
            same += len(one["count"] & set(units))
    return same
