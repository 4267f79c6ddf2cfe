"""Corrections said in conversation: "March 10, not March 3", "Sorry, May, not April".

A correction names a new value and the old one it replaces. When the sentence says what the
value is of ("The appointment is March 10, not March 3"), it is the corrected fact once the
"not ..." part is taken out. A bare correction ("May, not April") fixes an earlier sentence of
the conversation that holds the old value: that sentence with the new value in its place is
the corrected fact. Either way the dedup judge then supersedes the record that held the old
value (the same slot, another value).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORDISH = r"[\w$£€][\w$£€:/'-]*(?:\.\d+)?"
# ", not March 3", " not Monday", "; not April": the old value, up to 3 words, at a clause end.
_NOT_OLD = re.compile(
    rf"\s*(?:,|;|-|–|—)?\s+(?:and\s+)?not\s+(?:on\s+|in\s+|at\s+|the\s+)?"
    rf"(?P<old>{_WORDISH}(?: {_WORDISH}){{0,2}}?)(?=\s*(?:[.,;!?)]|$))",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^\W*(?:(?:sorry|oops|oh|ah|actually|correction|no|wait|my bad|i mean|i meant|it's|it is"
    r"|that's|that is)(?:\W+|$))*",
    re.IGNORECASE,
)
_APOLOGY = re.compile(r"^\W*(?:(?:sorry|oops|oh|ah|correction|my bad|wait|actually)\W+)+", re.I)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


@dataclass(frozen=True)
class Correction:
    new: str
    old: str
    bare: bool  # the sentence says nothing but the two values
    span: tuple[int, int] = (0, 0)  # where "not <old>" lies in the sentence


def _kind(value: str) -> str:
    low = value.lower()
    if any(ch.isdigit() for ch in low):
        return "number"
    if low[:3] in _MONTHS or low[:3] in _DAYS:
        return "date"
    return "name" if value[:1].isupper() else "word"


def correction(sentence: str) -> Correction | None:
    """The new and old value of a correction, when the sentence is one: both of one kind (a
    number or date, a month or weekday, a name), so "tea, not coffee" is a preference, not a
    correction of an earlier value. The new value is as many words as the old, just before
    "not" ("the appointment is March 10, not March 3")."""
    for m in _NOT_OLD.finditer(sentence):
        old = m.group("old")
        before = sentence[: m.start()].split()
        n = len(old.split())
        if len(before) < n:
            continue
        new = " ".join(before[-n:]).strip(" ,;:-—–")
        if not new or _kind(new) != _kind(old) or _kind(new) == "word":
            continue
        rest = _OPENER.sub("", " ".join(before[:-n])).strip(" ,;:-—–")
        return Correction(new=new, old=old, bare=not rest, span=(m.start(), m.end()))
    return None


def corrected(sentence: str, fix: Correction) -> str:
    """A sentence that states its value itself, its apology taken off ("Sorry, the appointment
    is March 10, not March 3" -> "the appointment is March 10, not March 3"): the old value
    stays named, so the judge sees which record it replaces."""
    return _APOLOGY.sub("", sentence).strip() or sentence


def apply_to_earlier(fix: Correction, earlier: Sequence[str]) -> tuple[int, str] | None:
    """(index, rewritten sentence) of the latest earlier sentence holding the old value, the
    new value in its place and the old one still named ("We fly in April" + "May, not April"
    -> "We fly in May, not April,"), so the judge sees which record it replaces."""
    rx = re.compile(rf"\b{re.escape(fix.old)}\b", re.IGNORECASE)
    for i in range(len(earlier) - 1, -1, -1):
        if rx.search(earlier[i]):
            fixed = rx.sub(f"{fix.new}, not {fix.old},", earlier[i], count=1)
            return i, re.sub(r",(?=\s*(?:[.,;:!?)]|$))", "", fixed)
    return None
