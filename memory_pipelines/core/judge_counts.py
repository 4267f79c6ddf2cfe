"""Uncued changes of a measured amount, for the dedup judge: one count of one unit, another number.

"Juno gets 300 g of kibble a day" beside "Juno's daily ration is 250 g of kibble", "Reading
target is 20 books" beside "Reading goal: 30 books": the two items measure one thing in the
same unit (grams, milligrams, kilometres, books) and differ in that number alone, so the
candidate is the thing's new amount even when the wording around it differs (ration / gets,
target / goal) more than `judge_slots.value_changed` allows.

Not every number with a unit measures one thing:

- A span of time ("27 days", "6 days left") or a number of times is said of many different
  attributes of one subject (an allowance and what is left of it; notice, age, frequency).
- A number after a name is its version ("Python 3.12", "Java 21"): two versions side by side
  are often two systems, not one that moved.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import stem, wordlist
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

COUNT_FLOOR = 0.6  # cosine for "the same measured thing" when only its amount differs
_TIME_UNITS = frozenset(
    stem(w) for w in wordlist("second minute hour day week month year decade night weekend time")
)
_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z]*")


def _measured(kind: str, c: Analysis, e: Analysis) -> bool:
    """A count keyed by a unit (not a bare number, a span of time or a version after a name)."""
    if not kind.startswith("n:") or kind == "n:":
        return False
    unit = kind[2:]
    if unit in _TIME_UNITS:
        return False
    names = {stem(w.lower()) for t in (c.text, e.text) for w in _CAPITALISED.findall(t)}
    return unit not in names


def amount_changed(c: Analysis, e: Analysis, best: Pair) -> JudgeDecision | None:
    """The nearest item measures the same thing in the same unit with another number, and
    nothing else (no other value, name, subject or contrast) differs."""
    if len(best.value_conflicts) != 1 or best.cos < COUNT_FLOOR:
        return None
    if best.subject_conflict or best.contrast or best.name_conflict or not best.same_category:
        return None
    kind = best.value_conflicts[0]
    if not _measured(kind, c, e):
        return None
    # one thing: the same subject words, or one side's within the other's
    if not (c.subject_stems <= e.subject_stems or e.subject_stems <= c.subject_stems):
        return None
    return JudgeDecision("supersede", best.index, f"same measure, {kind} changed (no cue)")
