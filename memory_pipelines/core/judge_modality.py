"""Modality steps of the dedup judge: how sure each statement is, not what it says.

Two statements about one thing can differ only in how firmly they hold it:

- **A plan settled.** "Leaning towards AWS for staging", "Looking for an oak table", "Planning
  to camp in August": a stored plan or open choice, then a firm statement on the same topic
  ("Staging goes on Hetzner", "Ordered the oak table", "Booked a cottage instead"). The plan's
  status moved on, whether the choice changed or was made, so the firm item supersedes it.
  A choice made ("Bought a Kia", in the past) settles the one open choice of its category
  recalled beside it, worded apart ("Leaning towards a Nissan Leaf"), unless the plan is for
  another date or another thing of one kind ("car insurance" / "home insurance").
- **A process under way.** "Applying for lasting power of attorney for Dad" (a sentence that
  opens with a verb in -ing) is settled by "The power of attorney for Dad is registered now":
  the same topic, a change reported, and no longer under way.
- **An intention carried out.** "Chris will open a LISA this month", then "Chris opened the
  LISA with Moneybox in June": the owner did the act the stored item said they would, read as
  a kept promise is read (`fulfilment.reports_done`: the same verb in the past, the same things
  acted on), whenever it was done, so a month apart is no other value.
- **A goal reached.** A stored goal ("Pass the bar exam, first sitting booked for July") is
  settled by a firm report that it was reached or given up ("Passed the bar exam at the
  second attempt!"), not by progress towards it.
- **A hedged restatement.** "Probably works in healthcare", "Seems to favour window seats": an
  inference that is vaguer than a stated item it sits beside. It names no new value, so it
  confirms the nearest stated item (merge) rather than replacing or adding to it, unless it
  guesses another value of the kind that item holds.

Both read general English (modal verbs and hedges, `judge_modes.PLAN` and `HEDGE`), never
topic words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory_pipelines.core.answer_kept import question_and_answer
from memory_pipelines.core.fulfilment import reports_done
from memory_pipelines.core.judge_claims import STANCE_WORDS
from memory_pipelines.core.judge_lexicon import (
    DETERMINERS,
    IRREGULAR,
    LIGHT_VERBS,
    PREPOSITIONS,
    SENTENCE_VERBS,
    content_stems,
)
from memory_pipelines.core.judge_pairs import Pair, long_allowance, subject_names
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

PLAN_FLOOR = 0.45  # cosine for "a firm statement on the topic of this plan"
PLAN_NEAR = 0.1  # ... and the plan is about as near as the nearest stored item
# cosine for "the one open choice of its kind beside a choice made": the two often share no
# word ("Bought a Kia" / "Leaning towards a Nissan Leaf"), recall has put them side by side
SOLE_PLAN_FLOOR = 0.15
HEDGE_FLOOR = 0.45  # cosine for "an inference about this stated item"
HEDGE_CLEAR_FLOOR = 0.35  # ... when it is this far ahead of the next stated item:
HEDGE_MARGIN = 0.15


_GOES_ON = re.compile(
    r"\bstill\b|\bgoing to\b|\bgonna\b|\bcan(?:no|')?t wait\b|\blooking forward\b"
    # an aim said again: "her dream is to ...", "aims to ...", "would love to ..."
    r"|\b(?:dream|goal|aim|hope|plan|ambition|wish)s? (?:is|are|was) to\b|\baims? to\b"
    r"|\bwould love to\b",
    re.I,
)


def _under_way(c: Analysis) -> bool:
    """The text says something is going on: in the present progressive ("Dad says he is
    retiring from the bakery"), or of a verb in -ing with its object that the sentence goes on
    to tell of ("Hunting for a flat has been exhausting", "Finding a sitter is hard"). A note
    that opens in -ing with no verb after it is a choice ("Overpaying the mortgage with the
    bonus instead of investing it"), and "Morning runs ..." opens with a noun."""
    toks = c.tokens
    if not toks:
        return False
    gerund = toks[0].endswith("ing")
    if c.ongoing and not gerund:
        return True
    return (
        gerund
        and len(toks) > 2
        and toks[1] in PREPOSITIONS | DETERMINERS
        and any(t in _FINITE for t in toks[2:])
    )


_FINITE = frozenset(("is", "are", "was", "were", "has", "have", "had", "feels", "takes"))


def _nearest_open(pairs: Sequence[Pair], is_open: Callable[[Pair], bool]) -> Pair | None:
    """The nearest item still open (a plan, a process under way, a goal) about the candidate's
    subject, on its topic (PLAN_FLOOR) and about as near as the nearest item of all."""
    best_cos = max(p.cos for p in pairs)
    near = [
        p
        for p in pairs
        if is_open(p) and _eligible(p) and p.cos >= PLAN_FLOOR and p.cos >= best_cos - PLAN_NEAR
    ]
    return max(near, key=lambda p: p.cos) if near else None


def _on_topic(c: Analysis, e: Analysis, p: Pair) -> bool:
    """Whether a firm statement is on the topic of a stored plan: the two say one thing of
    it, not only of whom ("Met some investors" / "looking for investors"), and they are near
    for sentences of their length. Two long sentences about one person are near for the
    person and the telling ("Nate picked up a few new recipes!" / "Nate is looking forward to
    trying out different flavours"); a choice made worded apart is `_sole_plan_settled`'s."""
    shared = (c.stems & e.stems) - LIGHT_VERBS - STANCE_WORDS - subject_names(c, e)
    return bool(shared) and p.cos >= PLAN_FLOOR + long_allowance(c, e)


def _eligible(p: Pair) -> bool:
    return not (p.subject_conflict or p.contrast)


def plan_settled(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """A firm candidate beside a stored plan on its topic: the plan is superseded. A
    candidate under way that reports no change ("Searching for investors has been tough"),
    one that says the plan goes on ("still on the lookout") or looks ahead itself ("is going
    to", "can't wait") settles nothing."""
    if c.planned or c.hedged or c.tentative or _GOES_ON.search(c.text):
        return None
    # ... unless it reports a change
    if _under_way(c) and not c.cues:
        return None
    # A process under way ("Applying for a visa") is settled only by a statement that says its
    # state moved ("The visa is granted now"): the candidate reports a change and is under way
    # itself no longer.
    moved_on = bool(c.cues) and not c.ongoing

    def is_open(p: Pair) -> bool:
        e = es[p.index]
        return (e.planned or (e.ongoing and moved_on)) and _on_topic(c, e, p)

    best = _nearest_open(pairs, is_open)
    if best is None:
        return _sole_plan_settled(c, es, pairs)
    return JudgeDecision(
        "supersede", best.index, f"a plan settled by a firm statement (cos {best.cos:.2f})"
    )


def intention_carried_out(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair], statements: Sequence[bool]
) -> JudgeDecision | None:
    """A stored intention ("<owner> will <verb> ...", `statements`: which items may be one; a
    commitment is closed by dedup instead, core/fulfilment.py) that the firm candidate
    reports its owner did: the intention is superseded by what was done."""
    if c.planned or c.hedged or c.tentative:
        return None
    done = [
        p
        for p in pairs
        if statements[p.index] and _eligible(p) and reports_done(es[p.index].text, c.text)
    ]
    best = max(done, key=lambda p: p.cos, default=None)
    if best is None:
        return None
    return JudgeDecision("supersede", best.index, f"an intention carried out (cos {best.cos:.2f})")


# Cues that a goal was reached or given up ("Passed my driving test", "Gave up on the marathon").
_GOAL_ENDS = frozenset({"status", "stopped", "cancelled", "after all"})


def goal_reached(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair], goals: Sequence[bool]
) -> JudgeDecision | None:
    """A stored goal (`goals`: which items are of category goal; the candidate is not one)
    is settled by a firm report that it was reached or given up, on its topic: "Passed my
    driving test" beside "Pass the driving test, first attempt booked for 9 May". The goal's
    status moved on, as a plan's does; a report of progress ("Started lessons") settles
    nothing."""
    if c.planned or c.hedged or c.tentative or c.ongoing or not (c.cues & _GOAL_ENDS):
        return None
    best = _nearest_open(pairs, lambda p: goals[p.index])
    if best is None:
        return None
    return JudgeDecision(
        "supersede", best.index, f"a goal reached or given up (cos {best.cos:.2f})"
    )


def _sole_plan_settled(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """A choice made (the candidate opens with a verb in the past) settles the one open choice
    of its kind (category) among the items recalled beside it, though the two share few words:
    "Bought a second-hand Kia" beside "Leaning towards a used Nissan Leaf". The new value is
    another, and the plan said nothing of it."""
    if not _choice_made(c):
        return None
    kind = [p for p in pairs if p.same_category and _eligible(p)]
    plans = [p for p in kind if es[p.index].planned or es[p.index].tentative]
    if len(plans) != 1 or plans[0].cos < SOLE_PLAN_FLOOR:
        return None
    best = plans[0]
    # "Booked flights to Rome for October" beside "Planning a ski trip for February": a plan
    # for another date, or of another thing named alike, is another plan.
    if best.value_conflicts or best.contrast or c.additive or kinds_apart(c, es[best.index]):
        return None
    if any(p.cos > best.cos for p in kind):
        return None  # a nearer item of its kind is what the choice is about
    return JudgeDecision(
        "supersede", best.index, f"the one open choice of its kind settled (cos {best.cos:.2f})"
    )


def kinds_apart(c: Analysis, e: Analysis) -> bool:
    """One noun with another word before it on each side ("car insurance" / "home insurance"):
    two things of one kind, so a choice about one settles no plan about the other."""
    for i in range(1, len(c.tokens)):
        for j in range(1, len(e.tokens)):
            if c.tokens[i] != e.tokens[j] or not content_stems([c.tokens[i]]):
                continue
            before_c, before_e = c.tokens[i - 1], e.tokens[j - 1]
            if (
                _modifier(before_c)
                and _modifier(before_e)
                and before_c not in e.tokens
                and before_e not in c.tokens
            ):
                return True
    return False


def _modifier(word: str) -> bool:
    """A content word that may qualify the noun after it ("car", "payments"), not a verb that
    takes it as object ("prefers Christmas" / "spend Christmas")."""
    return bool(content_stems([word])) and word not in SENTENCE_VERBS and word not in IRREGULAR


_NOT_PAST = frozenset({"need", "bed", "red", "shed", "seed", "feed", "speed"})


def _choice_made(c: Analysis) -> bool:
    """A firm statement that opens with a verb in the past: "Bought ...", "Booked ...",
    "Decided to keep ..."."""
    if question_and_answer(c.text):
        return False  # 'Asked "...", Mateo said: "..."': an answer, its "Asked" the question's
    first = c.tokens[0] if c.tokens else ""
    past = (first.endswith("ed") and first not in _NOT_PAST) or first in IRREGULAR
    return "user" in c.subject and past and not c.ongoing


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
    # "Blood pressure seems to be 128/82" beside "Last BP reading was 145/95": a guess at
    # another value of the same kind restates nothing; the later steps read the change.
    if best.value_conflicts:
        return None
    return JudgeDecision(
        "merge", best.index, f"a hedged restatement of a stated item (cos {best.cos:.2f})"
    )
