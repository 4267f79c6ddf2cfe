"""Restatement steps of the dedup judge: the same claim in other words is a merge.

Two readings where the words differ but the claim does not:

- **The same value in another form.** "Six pounds fifty" and "£6.50", "half past seven" and
  "19:30", "turned 36" (said in 2024) and "born in 1988": `judge_forms` reads both to one typed
  value, and a value read from another form on one side only is a restatement of the item that
  holds it, unless something else differs (another value, subject or category).
- **A denial said another way.** "Refuses to fly red-eyes" and "Avoids overnight flights",
  "Can't stand cilantro" and "Dislikes coriander leaves": both statements deny or reject
  something, and the rejected things are near in meaning though no word is shared. The nearest
  stored item of the same category that also denies is the claim restated.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_types import JudgeDecision

DENIAL_FLOOR = 0.3  # cosine for "the same thing rejected", words aside


def _clean(p: Pair) -> bool:
    """Nothing else differs: no other value, subject, stance or thing in the same frame."""
    return not (
        p.value_conflicts or p.subject_conflict or p.contrast or p.polarity_flip or p.other_object
    )


def same_value_other_form(pairs: Sequence[Pair]) -> JudgeDecision | None:
    same = [p for p in pairs if p.other_form and p.same_category and _clean(p)]
    if not same:
        return None
    best = max(same, key=lambda p: p.cos)
    return JudgeDecision("merge", best.index, "the same value in another form")


def denial_restated(pairs: Sequence[Pair]) -> JudgeDecision | None:
    """The candidate denies something; the nearest stored item of its category denies too."""
    kin = [p for p in pairs if p.same_category]
    if not kin:
        return None
    best = max(kin, key=lambda p: p.cos)
    if not (best.both_deny and _clean(best) and best.cos >= DENIAL_FLOOR):
        return None
    return JudgeDecision(
        "merge", best.index, f"the same denial in other words (cos {best.cos:.2f})"
    )
