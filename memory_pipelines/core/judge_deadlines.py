"""Deadlines, for the dedup judge: a date by which one thing is due, moved without a cue.

"Board pack deadline is Wednesday 4 June" beside "Board pack due Friday 30 May", "Tax return
goes in by 20 January" beside "Promised to file the self-assessment tax return before 31
October": each sets a deadline (deadline, due, by or before a date) for one thing, with another
date. A thing has one deadline at a time, so the new date replaces the old one, even worded
apart ("goes in" / "file"). A date of another kind ("Board meeting is on 11 June") or a deadline
of another thing ("VAT return by 7 November") is no old value of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_lexicon import content_stems, words
from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

DEADLINE_FLOOR = 0.45  # cosine for "a deadline of the same thing"
_DATE_KINDS = frozenset({"date", "month", "weekday", "day"})
_DEADLINE = re.compile(
    r"\b(?:deadline|due|by|before|no later than)\b(?=[^,;:.]{0,30}\d)", re.IGNORECASE
)
_DEADLINE_WORDS = content_stems(words("deadline due"))


def sets_deadline(a: Analysis) -> bool:
    """A date by which something is due: "due Friday 30 May", "by 20 January"."""
    return bool(_DEADLINE.search(a.text)) and bool(a.values.keys() & _DATE_KINDS)


def same_thing(c: Analysis, e: Analysis) -> bool:
    """The thing the candidate's deadline is for (its subject's words, "deadline" aside) is
    named by the stored item too."""
    thing = c.subject_stems - _DEADLINE_WORDS
    return bool(thing) and thing <= e.stems


def deadline_moved(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """The stored deadline of the candidate's thing, at another date, is replaced."""
    if not sets_deadline(c) or c.planned or c.hedged:
        return None
    moved = [
        p
        for p in pairs
        if not (p.subject_conflict or p.contrast)
        and set(p.value_conflicts) & _DATE_KINDS
        and p.cos >= DEADLINE_FLOOR
        and sets_deadline(es[p.index])
        and same_thing(c, es[p.index])
    ]
    return nearest(moved, "supersede", "the deadline of one thing moved (no cue)")
