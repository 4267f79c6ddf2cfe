"""Merge steps of the dedup judge: is the nearest stored item the same fact, or a near miss?

Cosine similarity alone cannot tell a paraphrase from "same attribute, other person" (both score
high). `merge_score` ranks the stored items (cosine plus word containment); `merge_blocker` says
why the nearest is a near miss (another subject, another value, another slot, an exception,
...), and `attribute_held_elsewhere` reads the store itself: an item about another subject that
says what the candidate says shows which attribute the candidate is about. `two_attributes`
keeps an uncued value change to one attribute.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.answer_kept import question_and_answer
from memory_pipelines.core.judge_forms import number
from memory_pipelines.core.judge_history import past_happening
from memory_pipelines.core.judge_lexicon import MONTHS
from memory_pipelines.core.judge_pairs import Pair, long_allowance
from memory_pipelines.core.judge_rules import Analysis

MERGE_THRESHOLD = 0.52  # merge score (cosine + containment) for "the same fact"
LONG_CAP = 0.8  # the merge threshold of long sentences rises to this (judge_pairs.long_allowance)
TWIN_SHARE = 0.6  # share of the candidate's words (subject aside) another subject's item repeats


def merge_score(p: Pair) -> float:
    score = p.cos + 0.25 * p.contain_existing + 0.05 * min(p.shared_values, 2) - 0.05 * p.narrower
    return score + 0.15 * p.negation_agrees


def merge_threshold(c: Analysis, e: Analysis) -> float:
    """The merge score two items need to be one fact, higher for long sentences."""
    return min(LONG_CAP, MERGE_THRESHOLD + long_allowance(c, e))


def _other_question(c_text: str, e_text: str) -> bool:
    """Whether both are answers kept with their questions (core/answer_kept.py), to two
    questions, and say different things: "down to about 15k" answering "What's left?" is no
    restatement of "around 5.5%" answering "What's the rate?", however alike the two
    sentences' frames make them."""
    c, e = question_and_answer(c_text), question_and_answer(e_text)
    if not c or not e:
        return False
    plain = [re.sub(r"\W+", " ", said).strip().lower() for said in (*c, *e)]
    return plain[0] != plain[2] and plain[1] != plain[3]


def merge_blocker(p: Pair, c: Analysis, e: Analysis) -> str | None:
    """Why the nearest item is a near miss rather than the same fact (None if it is not)."""
    whole = p.contain_existing >= 0.99  # the candidate restates all of it (and maybe more)
    if p.subject_conflict:
        return "different subject"
    if _other_question(c.text, e.text):
        return "an answer to another question"
    if p.contrast:
        return "same attribute, other subject"
    if p.value_conflicts:
        return f"different {p.value_conflicts[0]}"
    if p.name_conflict:
        return "different named value"
    if p.other_object:
        return "same frame, different object"
    if p.frame_mismatch:
        return "different slot"
    # "Doc just doubled my metformin" beside "On metformin, 500mg twice a day": an amount said
    # to have moved, without its new value, is news of the stored one, never the same fact.
    moved = "number moved" in c.cues or _TIMES.search(c.text)
    if moved and not c.values and "number moved" not in e.cues and _amount(e):
        return "an amount said to move"
    if (
        p.shared_subject
        and not p.negation_agrees  # "never by phone" / "no phone calls": one claim
        and p.predicate_overlap < 0.4
        and not p.shared_value_words  # both state the same value: one slot, reworded
        and p.cos < 0.85
        and not whole
        and not c.existence  # "has a daughter" is confirmed by anything about her
    ):
        return "same subject, different attribute"
    # An exception leaves the rule standing, even when it repeats the rule's words.
    if c.exception and not e.exception:
        return "exception beside a rule"
    # ... and a rule beside an exception ("Checks a bag on long-haul flights" / "Travels
    # carry-on only on short trips") says something else unless it restates all of it.
    if e.exception and not c.exception and not whole:
        return "rule beside an exception"
    if c.additive and not whole:
        return "an additional item"
    if not whole and past_happening(c.text) and not past_happening(e.text):
        return "a happening, not the lasting fact beside it"
    if not p.same_category and not p.negation_agrees and p.cos < 0.65:
        return "different category"
    return None


# A number moved by a factor ("doubled", "halved"): no change cue of the rules' (it tells a
# story as often as a new value: "the spoken price for the fence doubled").
_TIMES = re.compile(r"\b(?:doubled|halved|tripled)\b", re.IGNORECASE)


def _amount(a: Analysis) -> bool:
    """Whether the item states an amount: money, or a number with its unit ("500mg"), not a
    bare count ("a written one")."""
    return any(kind == "money" or (kind.startswith("n:") and kind != "n:") for kind in a.values)


def attribute_held_elsewhere(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair], best: Pair
) -> str | None:
    """The store holds what the candidate says for another subject ("Daughter Mira is taking
    GCSE Spanish" beside "Son Theo is taking GCSE Spanish"): that is the candidate's attribute,
    and a nearest item about its subject that lacks it ("Theo has a Spanish tutor") is another
    attribute of the same subject, not the same fact."""
    said = c.stems - c.subject
    target = es[best.index].stems
    for p in pairs:
        if p is best or not p.subject_conflict:
            continue
        twin = said & (es[p.index].stems - es[p.index].subject)
        held = len(twin) >= 2 and len(twin) >= TWIN_SHARE * len(said)
        if held and len(twin & target) < 0.5 * len(twin):
            return "its attribute is stored for another subject"
    return None


def two_attributes(c: Analysis, e: Analysis) -> bool:
    """Each side says something of the slot that the other does not, values aside: "Spent
    £1,240 on the trip in total" / "Budget for the trip was £1,000" (spent vs budget). A changed
    value keeps the rest of one side ("Book club has 11 members since ..." / "... has eight
    members")."""

    def plain(words: frozenset[str]) -> set[str]:
        return {
            w
            for w in words
            if not any(ch.isdigit() for ch in w) and w[:3] not in MONTHS and number(w) is None
        }

    return bool(plain(c.stems - e.stems)) and bool(plain(e.stems - c.stems))
