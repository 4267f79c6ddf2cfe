"""Updates said without a change cue, for the dedup judge: one slot, another value.

"Lives in Porto" beside "Lives in Lisbon", "Accountant is Raj" beside "Accountant is Mei": a slot
that holds one value at a time, another value in it (`slot_value_change`). "Has 6 points on the
licence after a second speeding fine" beside "Has 3 points on the driving licence": one typed
value changed and the rest of the slot agrees (`value_changed`): either the two sentences are
nearly one (a high cosine) and each says nothing of the slot the other does not, or they say one
thing in other words once every value is masked (their embeddings' cosine, `same_frame`), or
their frames (the words around the value: what it is a value of) hold each other, the value
clause of the candidate read apart from its reason ("after ...", "because ..."), and the subject
is the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from memory_pipelines.core.judge_claims import copular_slot
from memory_pipelines.core.judge_counts import amount_changed
from memory_pipelines.core.judge_forms import number
from memory_pipelines.core.judge_frames import SINGLE_VALUED_FRAMES
from memory_pipelines.core.judge_lexicon import (
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
    content_stems,
    words,
)
from memory_pipelines.core.judge_mentions import mentions
from memory_pipelines.core.judge_merge import two_attributes
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

SLOT_FLOOR = 0.5  # cosine for "same single-valued slot, another value" without any cue
STRICT_SAME_SLOT = 0.8  # cosine for "one value changed, nearly the same sentence"
FRAME_SHARE = 0.66  # share of each frame the other must hold
# Cosine of two sentences with their values masked above which they say the same thing of the
# same slot in other words ("Juno gets 300 g of kibble a day" / "Juno's daily ration is 250 g
# of kibble"). Read off the tuning sets (judge_b to _f and _h): pairs at 0.88 and above were all
# one slot; at 0.85-0.87 two attributes ("Spent £1,240 on the trip" / "Budget ... was £1,000",
# "screen time at weekends" / "on school days") come in.
SAME_FRAME_COS = 0.88
# Texts to unit vectors (the embedder's embed): the judge's one use of the model beyond the
# vectors it is handed.
Embed = Callable[[list[str]], np.ndarray]
# Words that make a slot hold one value ("favourite colour is green"); other slots need a named
# or typed value ("accountant is Mei") to be read as one value.
_ONE_VALUE_SLOT = content_stems(
    words("favourite favorite preferred main usual default current primary")
)
_DAY_STEMS = content_stems(WEEKDAYS) | content_stems(f"{d}s" for d in WEEKDAYS)
# Where a value clause ends and its reason or occasion begins.
_REASON = re.compile(
    r"[,;:(]|\s[-–—]\s|\b(?:after|because|since|following|due to|thanks to|now that)\b",
    re.IGNORECASE,
)


def _named(value: str) -> bool:
    return bool(value) and (value[0].isupper() or value[0].isdigit() or value[0] in "£$€")


def slot_value_change(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """Without a cue: one slot that holds one value at a time, another value in it. "Lives in
    Porto" beside "Lives in Lisbon"; "Accountant is Raj" beside "Accountant is Mei"."""
    c_slot = copular_slot(c.text)
    # A stored item of the slot whose value the candidate holds ("Lives in Berlin" beside
    # "Lives in Kreuzberg, Berlin"): the candidate adds detail, nothing changed.
    if any(
        c.frames & es[p.index].frames & SINGLE_VALUED_FRAMES
        and es[p.index].names
        and all(mentions(c, n) for n in es[p.index].names)
        for p in pairs
    ):
        return None
    for p in sorted(pairs, key=lambda p: -p.cos):
        e = es[p.index]
        if p.subject_conflict or p.contrast or not p.same_category:
            continue
        frames = c.frames & e.frames & SINGLE_VALUED_FRAMES
        # another name ("Lives in Porto" / "Lives in Lisbon"), or another amount of the same
        # kind ("Salary is £62k" / "Earns £54,000 a year"); a bare month or year dates the
        # change, it is not the slot's value
        moved = p.name_conflict or bool(set(p.value_conflicts) - {"month", "year"})
        if frames and moved and p.cos >= SLOT_FLOOR:
            return JudgeDecision("supersede", p.index, f"{min(frames)}: another value")
        e_slot = copular_slot(e.text)
        if not c_slot or not e_slot or c_slot[0] != e_slot[0] or c.subject_is_person:
            continue
        (slot, c_value), (_, e_value) = c_slot, e_slot
        one_value = (_named(c_value) and _named(e_value)) or bool(slot & _ONE_VALUE_SLOT)
        if one_value and not _head_stems(c_value) & _head_stems(e_value):
            return JudgeDecision("supersede", p.index, "same slot, another value")
    return None


# Where the value's head ends and what places it begins: "Dr Hale at Brookside Dental".
_PLACED = re.compile(r"\s(?:at|in|from|with|on|of|for|near|via)\s", re.IGNORECASE)
_TITLES = content_stems(words("dr doctor mr mrs ms miss mx prof professor sir dame"))


def _head_stems(value: str) -> frozenset[str]:
    """Content stems of a value's head, without titles: "Dr Okafor at Brookside Dental" ->
    {okafor}. Two values in one place ("Dr Hale at Brookside Dental") are still two."""
    return content_stems(words(_PLACED.split(value, maxsplit=1)[0])) - _TITLES


def _frame(text: str) -> frozenset[str]:
    """Content stems of a text without its values (numbers, number words, months, days)."""
    return frozenset(
        w
        for w in content_stems(words(text))
        if not any(ch.isdigit() for ch in w)
        and w not in MONTHS
        and w not in _DAY_STEMS
        and number(w) is None
    )


def _frames_agree(c: Analysis, e: Analysis) -> bool:
    """The words around the changed value hold each other: the candidate's value clause, its
    reason set apart, and the stored item (its own reason set apart too)."""
    c_frame = _frame(_REASON.split(c.text)[0])
    e_frame = _frame(_REASON.split(e.text)[0])
    if not c_frame or not e_frame:
        return False
    shared = c_frame & e_frame
    return len(shared) >= FRAME_SHARE * len(c_frame) and len(shared) >= FRAME_SHARE * len(e_frame)


def value_changed(
    c: Analysis, es: Sequence[Analysis], best: Pair, embed: Embed | None = None
) -> JudgeDecision | None:
    """The nearest item holds values of kinds that the candidate holds otherwise, and the
    rest of its slot agrees: an update said without a cue. `embed` (the embedder) compares the
    two with their values masked; without it, only their words are compared."""
    e = es[best.index]
    if (
        not best.value_conflicts
        or not best.same_category
        or best.subject_conflict
        or best.contrast
        or best.name_conflict
    ):
        return None
    kind = ", ".join(best.value_conflicts)
    one = len(best.value_conflicts) == 1  # one value changed, the rest of the slot agrees
    if best.cos >= STRICT_SAME_SLOT:
        if one and not two_attributes(c, e):
            return JudgeDecision("supersede", best.index, f"same slot, {kind} changed (no cue)")
        # "On-call handover is Monday at 11" / "... is on Wednesdays at noon": worded otherwise,
        # or with its day and time both moved, one slot all the same.
        if embed is not None and same_frame(c.text, e.text, embed):
            return JudgeDecision(
                "supersede", best.index, f"same slot in other words, {kind} changed (no cue)"
            )
    if not one:
        return None
    # "Has 6 points on the licence after a second speeding fine" / "Has 3 points on the
    # driving licence": the value is of one thing (the same subject) in one frame.
    # ... the subject one thing: the same words, or one side's words within the other's
    # ("Electricity bill" / "Electricity"), not two ("Grocery budget" / "Eating-out budget").
    one_thing = c.subject_stems <= e.subject_stems or e.subject_stems <= c.subject_stems
    if one_thing and _frames_agree(c, e):
        return JudgeDecision("supersede", best.index, f"same frame, {kind} changed (no cue)")
    return amount_changed(c, e, best)


# A value as `same_frame` masks it: a number (with its currency, ordinal, clock or percent
# mark), a number word, a month, a day of the week, noon or midnight.
_VALUE = re.compile(
    r"[£$€]?\d[\d,.:/]*(?:st|nd|rd|th|am|pm|k|%)?|\b(?:"
    + "|".join(
        sorted(
            [*NUMBER_WORDS, *MONTHS, *WEEKDAYS, *(f"{d}s" for d in WEEKDAYS)], key=len, reverse=True
        )
    )
    + r"|noon|midnight)\b",
    re.IGNORECASE,
)


def masked(text: str) -> str:
    """The text with every value replaced by one placeholder: what it is a value of."""
    return " ".join(_VALUE.sub("N", text).split())


def same_frame(a: str, b: str, embed: Embed) -> bool:
    """Whether two sentences say the same of one slot, their values set aside: the cosine of
    their embeddings with every value masked is at least SAME_FRAME_COS."""
    va, vb = embed([masked(a), masked(b)])
    return float(np.dot(va, vb)) >= SAME_FRAME_COS
