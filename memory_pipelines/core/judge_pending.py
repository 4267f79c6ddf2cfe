"""A change only thought about, for the dedup judge: it changes no stored value yet.

"Considering moving the blog from WordPress to Hugo" beside "Blog runs on WordPress": the
change cue ("moving") sits under a verb of planning that governs the whole statement, so the
blog still runs on WordPress; the plan is a new item (create). Beside a stored plan or wish of
its own ("Thinking of switching the blog to Hugo", "Wants to leave WordPress") the usual readers
decide: a plan restated is a merge, a plan changed a supersede.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.patterns import rx

# A verb of planning or weighing up that opens the statement and so governs it.
_PENDING = rx(
    r"^\W*(?:user |she |he |they )?(?:is |are )?(?:considering|contemplating|thinking (?:of|about)"
    r"|weighing up|toying with|might|may|maybe|perhaps|mulling(?: over)?|undecided about"
    r"|leaning towards?|would (?:\w+ )?(?:consider|think about))\b"
)
PLAN_NEAR = 0.4  # cosine of a stored plan that the pending one may restate or change


def pending_change(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    if not c.cues or not _PENDING.search(c.text):
        return None
    if any((es[p.index].planned or es[p.index].tentative) and p.cos >= PLAN_NEAR for p in pairs):
        return None  # a stored plan: restated or changed, the usual readers tell
    return JudgeDecision("create", None, "a change only considered: no stored value moved")
