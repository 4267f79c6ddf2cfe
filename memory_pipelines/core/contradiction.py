"""Plain rules for the `local` contradiction judge: can two memory records both be true?

The maintenance pass asks about near records of one person. Most contradictions in personal
notes are one of three shapes, and the rules look for those only:

1. One record negates the other ("Ana is vegetarian" / "Ana is no longer vegetarian",
   "Drinks coffee" / "Doesn't drink coffee"), or a preference is turned round.
2. The same slot holds another number, time or date ("Standup at 9:30" / "Standup at 10:00",
   "Has 2 kids" / "Has 3 kids").
3. A single-valued slot (where someone lives or works, their diet, relationship, work mode)
   holds another value ("Lives in Leeds" / "Lives in York", "is vegetarian" / "is vegan").

Anything else is not a contradiction: records about different subjects, a tentative or
additive record ("might move", "also works at"), or one that only adds detail. The subject,
value and frame analysis is `judge_rules` (with `judge_values`, `judge_cues`), shared with the
dedup judge. Pure string work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_pipelines.core.judge_frames import SINGLE_VALUED_FRAMES
from memory_pipelines.core.judge_lexicon import MONTHS, WEEKDAYS, content_stems, words
from memory_pipelines.core.judge_pairs import compare
from memory_pipelines.core.judge_rules import Analysis, analyse, lowercase_vocabulary

# A year or month alone often dates an occasion ("went to Rome in 2019") rather than a value;
# it is one only for what happens once ("born in 1990", "joined Acme in 2019").
_OCCASION_VALUES = frozenset({"month", "year"})
_ONCE = re.compile(
    r"\b(born|died|founded|graduated|married|joined|retired|moved in|bought)\b", re.IGNORECASE
)
_NEGATORS = re.compile(
    r"\b(?:no longer|not any ?more|any ?more|never|not|no|cannot|stopped|quit|gave up"
    r"|given up)\b|\b\w+n[’']t\b",
    re.IGNORECASE,
)
# Words that only say which slot it is ("lives in" / "is based in"), never its value.
_SLOT_WORDS = content_stems(
    words(
        "lives living live based resides settled moved relocated moving home works working job "
        "employer joined hired employed"
    )
)
SAME_STATEMENT = 0.67  # share of the negated statement's words the other record must hold
SAME_SLOT = 0.67  # share of the shorter record's plain words (no values) the other must hold


@dataclass(frozen=True)
class Contradiction:
    """A judgement on one pair of records: whether they contradict, and why (for the logs)."""

    contradicts: bool
    reason: str


def _plain(stems: frozenset[str]) -> frozenset[str]:
    """Stems without numbers, times, months or weekdays: the words that name the slot."""
    return frozenset(
        s
        for s in stems
        if not any(ch.isdigit() for ch in s)
        and s not in MONTHS
        and s.rstrip("s") not in WEEKDAYS
        and s not in ("am", "pm")
    )


def _containment(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of `a` found in `b` (0 when `a` is empty)."""
    return len(a & b) / len(a) if a else 0.0


def _negated_statement(text: str) -> tuple[bool, frozenset[str]]:
    """Whether the text carries a negation, and its content words with the negation removed."""
    stripped, n = _NEGATORS.subn(" ", text)
    return n > 0, content_stems(words(stripped))


def _negation(a: str, b: str, pair_flip: bool, x: Analysis, y: Analysis) -> str | None:
    if x.preference and y.preference and pair_flip:
        return "preference turned round"
    neg_a, rest_a = _negated_statement(a)
    neg_b, rest_b = _negated_statement(b)
    if neg_a == neg_b:
        return None  # both or neither negated: no reversal of polarity
    negated, other = (rest_a, rest_b) if neg_a else (rest_b, rest_a)
    # "Doesn't drink coffee after 3pm" beside "Drinks coffee every morning" negates a narrower
    # statement: most of the negated statement must be in the other record.
    if _containment(negated, other) >= SAME_STATEMENT and _containment(other, negated) >= 0.5:
        return "one record negates the other"
    return None


def _value_change(x: Analysis, y: Analysis, conflicts: tuple[str, ...]) -> str | None:
    if not conflicts:
        return None
    kinds = set(conflicts)
    if "weekday" in kinds and len(kinds) > 1:
        return None  # another day and another time: two occasions, not one changed value
    px, py = _plain(x.stems), _plain(y.stems)
    if kinds <= _OCCASION_VALUES and (px != py or not _ONCE.search(x.text)):
        return None  # a bare year or month: the same one-off event, all else the same
    shorter, longer = (px, py) if len(px) <= len(py) else (py, px)
    if not shorter or _containment(shorter, longer) < SAME_SLOT:
        return None  # "Standup at 9:30" and "Retro at 10:00": different slots
    return f"same slot, another {sorted(kinds)[0].removeprefix('n:') or 'number'}"


def _other_subject(x: Analysis, y: Analysis) -> bool:
    """ "Lives in Leeds" (the person) beside "Tom lives in York": maybe Tom is someone else.
    judge_rules only calls that a conflict when both subjects are surely people."""
    for a, b in ((x, y), (y, x)):
        if a.subject == {"user"} and (b.subject - {"user"}) & b.names:
            return True
    return False


def _slot_value(x: Analysis, y: Analysis, name_conflict: bool) -> str | None:
    frames = x.frames & y.frames & SINGLE_VALUED_FRAMES
    if not frames:
        return None
    if name_conflict:
        return f"{sorted(frames)[0]}: another named value"
    only_x = _plain(x.stems - y.stems) - _SLOT_WORDS
    only_y = _plain(y.stems - x.stems) - _SLOT_WORDS
    # "Lives in Leeds" / "Lives in a flat in Leeds" adds detail (one side has nothing new);
    # "is vegetarian" / "is vegan" swaps the value word.
    if only_x and only_y and len(only_x) <= 2 and len(only_y) <= 2:
        return f"{sorted(frames)[0]}: another value"
    return None


def judge(a: str, b: str) -> Contradiction:
    """Do records `a` and `b` contradict? Rules only; the reason names the rule that fired."""
    if " ".join(a.lower().split()) == " ".join(b.lower().split()):
        return Contradiction(False, "same wording")
    vocab = lowercase_vocabulary([a, b])
    x, y = analyse(a, vocab), analyse(b, vocab)
    pair = compare(0, y, [x], 1.0, ("fact", "fact"))
    if pair.subject_conflict:
        return Contradiction(False, "about different subjects")
    reason = _negation(a, b, pair.polarity_flip, x, y)
    if reason:
        return Contradiction(True, reason)
    if any(t.tentative or t.additive or t.exception for t in (x, y)):
        return Contradiction(False, "tentative, additional or an exception")
    if _other_subject(x, y):
        return Contradiction(False, "maybe about different subjects")
    reason = _value_change(x, y, pair.value_conflicts) or _slot_value(x, y, pair.name_conflict)
    if reason:
        return Contradiction(True, reason)
    return Contradiction(False, "both can be true")
