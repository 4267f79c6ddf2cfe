"""Modality steps of the dedup judge: how sure each statement is, not what it says.

Two statements about one thing can differ only in how firmly they hold it:

- **A plan settled.** "Leaning towards AWS for staging", "Looking for an oak table", "Planning
  to camp in August": a stored plan or open choice, then a firm statement on the same topic
  ("Staging goes on Hetzner", "Ordered the oak table", "Booked a cottage instead"). The plan's
  status moved on, whether the choice changed or was made, so the firm item supersedes it.
- **A process under way.** "Applying for lasting power of attorney for Dad" (a sentence that
  opens with a verb in -ing) is settled by "The power of attorney for Dad is registered now":
  the same topic, a change reported, and no longer under way.
- **A hedged restatement.** "Probably works in healthcare", "Seems to favour window seats": an
  inference that is vaguer than a stated item it sits beside. It names no new value, so it
  confirms the nearest stated item (merge) rather than replacing or adding to it.

Both read general English (modal verbs and hedges, `judge_cues.PLAN` and `HEDGE`), never
topic words.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

PLAN_FLOOR = 0.45  # cosine for "a firm statement on the topic of this plan"
PLAN_NEAR = 0.1  # ... and the plan is about as near as the nearest stored item
HEDGE_FLOOR = 0.45  # cosine for "an inference about this stated item"
HEDGE_CLEAR_FLOOR = 0.35  # ... when it is this far ahead of the next stated item:
HEDGE_MARGIN = 0.15


def _eligible(p: Pair) -> bool:
    return not (p.subject_conflict or p.contrast)


def plan_settled(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """A firm candidate beside a stored plan on its topic: the plan is superseded."""
    if c.planned or c.hedged or c.tentative:
        return None
    best_cos = max(p.cos for p in pairs)
    # A process under way ("Applying for a visa") is settled only by a statement that says its
    # state moved ("The visa is granted now"): the candidate reports a change and is under way
    # itself no longer.
    moved_on = bool(c.cues) and not c.ongoing
    plans = [
        p
        for p in pairs
        if (es[p.index].planned or (es[p.index].ongoing and moved_on))
        and _eligible(p)
        and p.cos >= PLAN_FLOOR
        and p.cos >= best_cos - PLAN_NEAR
    ]
    if not plans:
        return None
    best = max(plans, key=lambda p: p.cos)
    return JudgeDecision(
        "supersede", best.index, f"a plan settled by a firm statement (cos {best.cos:.2f})"
    )


def hedged_restatement(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """A hedged candidate without a change cue confirms the nearest stated item."""
    if not c.hedged or c.cues:
        return None
    stated = [p for p in pairs if not es[p.index].hedged and _eligible(p)]
    if not stated:
        return None
    ranked = sorted(stated, key=lambda p: -p.cos)
    best = ranked[0]
    # A vague guess ("Might be into cycling") shares few words with the precise item it is
    # about ("Rides 150 km a week"): a lower cosine does when no other item comes near.
    runner_up = ranked[1].cos if len(ranked) > 1 else 0.0
    if best.cos < HEDGE_FLOOR and not (
        best.cos >= HEDGE_CLEAR_FLOOR and best.cos - runner_up >= HEDGE_MARGIN
    ):
        return None
    return JudgeDecision(
        "merge", best.index, f"a hedged restatement of a stated item (cos {best.cos:.2f})"
    )
