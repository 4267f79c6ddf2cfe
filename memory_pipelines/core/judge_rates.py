"""One amount of money per period in another form, for the dedup judge (beside `judge_amounts`).

"Salary is 96k a year" and "Earns £8,000 per month gross", "Rent is 1,450 euros per month" and
"Pays €17,400 a year in rent", "£15 an hour for 20 hours a week" and "£300 a week for 20 hours":
each pair states one yearly amount. `judge_amounts.yearly_amounts` reads a currency sign before
an amount per year, month or week; this reader also takes the currency named after the amount
("1,450 euros", "300 pounds"), an amount in thousands with no currency ("96k a year": a bare
number with a period is more often a count), days and hours as periods, and an hourly rate times
the hours a week it is paid for.

`rate_restated()` merges a candidate into the stored item of its category and subject that
holds the same yearly amount, when nothing but the money differs and what is paid for, read
without the amounts, is near in meaning (the embedder's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_amounts import CURRENCY_BEFORE
from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_slots import Embed
from memory_pipelines.core.judge_types import JudgeDecision

RATE_FLOOR = 0.4  # cosine for "the same amount of the same thing"
# ... and of the two sentences with their amounts cut out: "Salary is" / "Earns gross" name one
# income, "Savings goal is" / "Puts into a pension" two things that happen to cost the same.
THING_FLOOR = 0.45
_AMOUNT = r"(\d[\d,]*(?:\.\d+)?)"
_CURRENCY_AFTER = r"(?:euros?|pounds?|dollars?|quid|francs?|kr|krona|kronor|zloty|gbp|eur|usd)"
_PERIOD = r"(?:a|an|per|each|every|/)\s?(year|annum|month|week|day|hour|hr)\b"
_PERIOD_ADV = r"(annually|yearly|monthly|weekly|daily|hourly)\b"
# "£1,450 a month", "1,450 euros per month", "96k a year", "£250 monthly"
_RATE = re.compile(
    rf"(?:{CURRENCY_BEFORE}{_AMOUNT}\s?(k)?|{_AMOUNT}\s?(k)?\s?{_CURRENCY_AFTER}|{_AMOUNT}(k))"
    rf"\s?(?:{_PERIOD}|{_PERIOD_ADV})",
    re.I,
)
# "for 20 hours a week", "20 hours per week": the hours an hourly rate is paid for
_HOURS_A_WEEK = re.compile(
    r"\b(\d+(?:\.\d+)?) ?(?:hours?|hrs?) (?:a|per|each|every|/) ?week\b", re.I
)
_PER_YEAR = {"year": 1.0, "annum": 1.0, "annually": 1.0, "yearly": 1.0, "month": 12.0}
_PER_YEAR |= {"monthly": 12.0, "week": 52.0, "weekly": 52.0, "day": 365.0, "daily": 365.0}
_HOURLY = frozenset({"hour", "hr", "hourly"})


def rates(text: str) -> frozenset[int]:
    """Money per period said in `text`, each as a yearly amount (whole units)."""
    out: set[int] = set()
    hours = [float(m.group(1)) for m in _HOURS_A_WEEK.finditer(text)]
    for m in _RATE.finditer(text):
        said = m.group(1) or m.group(3) or m.group(5)
        thousands = m.group(2) or m.group(4) or m.group(6)
        period = (m.group(7) or m.group(8)).lower()
        amount = float(said.replace(",", "")) * (1000 if thousands else 1)
        if period in _HOURLY:
            # an hourly rate is a yearly amount only with the hours a week it is paid for
            out.update(round(amount * h * 52) for h in hours)
        else:
            out.add(round(amount * _PER_YEAR[period]))
    return frozenset(out)


def _without_amounts(text: str) -> str:
    return " ".join(_HOURS_A_WEEK.sub(" ", _RATE.sub(" ", text)).split())


def _same_thing(a: str, b: str, embed: Embed | None) -> bool:
    """What the two amounts are paid for, read without them, is one thing."""
    if embed is None:
        return False
    va, vb = embed([_without_amounts(a), _without_amounts(b)])
    return float(va @ vb) >= THING_FLOOR


def _money_only(p: Pair) -> bool:
    return set(p.value_conflicts) <= {"money", "money a year", "count"}


def rate_restated(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair], embed: Embed | None = None
) -> JudgeDecision | None:
    """The stored item that holds the candidate's yearly amount in another form."""
    mine = rates(c.text)
    if not mine or c.cues:
        return None
    same = [
        p
        for p in pairs
        if p.same_category
        and not (p.subject_conflict or p.contrast or p.polarity_flip or p.list_grew)
        and p.cos >= RATE_FLOOR
        and _money_only(p)
        and mine & rates(es[p.index].text)
        and _same_thing(c.text, es[p.index].text, embed)
    ]
    return nearest(same, "merge", "the same amount per period in another form")
