"""The deterministic dedup judge: merge, supersede or create for a new memory item.

Recall hands the judge a candidate and its nearest stored items. Cosine similarity alone cannot
tell a paraphrase from "same attribute, other person" (both score high), nor find the item whose
value moved (often a low score: "moved to Berlin" vs "lives in Lisbon"). So the judge combines the
cosine with structure read by `judge_rules` and `judge_pairs`: who each item is about
(`judge_who`), typed values in any form (`judge_values`, `judge_forms`, `judge_calendar`,
`judge_amounts`, `judge_rhythms`, `judge_terms`), change cues outside clauses of condition, the
old value or the slot a change names, the stance of each clause (`judge_claims`,
`judge_stance`) and a few slot frames.

The flow of `decide()`, first answer wins; every answer carries its reason:
1. A list that grew or shrank is a new value of its slot (supersede, `judge_claims`), and so is
   a list of names with a member more, its members written with asides (`judge_lists`); a
   hedged candidate names no new value, so no list of its grew.
2. A hedged restatement confirms the nearest stated item (merge, `judge_modality`). A
   correction naming the old value ("X, not Y") replaces the item holding Y (`judge_amend`); a
   change only considered replaces nothing (`judge_pending`); a claim "confirmed again" merges
   (`judge_said_again`).
3. A change cue ("no longer", "moved", "pushed to", "instead"), a flipped negation or a contrast
   turned round sends the candidate to the supersede branch. Among the items about the
   candidate's subject (or one whose holder it says left), the one with the best change
   evidence (the old value or the slot named, a value of the kind that moved, a one-valued
   slot holding another name, the words of the change's other clauses, a stance turned, a plan)
   is replaced, unless it already holds the candidate's value (then merge); a thing gone
   (died, sold) ends the item that says it is there (`judge_gone`). The same person and
   a near cosine are no such evidence for a weak cue; a strong cue may take the clearly nearest
   item (its old value named by a wider word). One more of a kind ("another quilt") and an
   exception ("makes an exception for ...") replace nothing.
4. A firm statement settles a stored plan on its topic, and a reported change settles a process
   under way (supersede, `judge_modality`).
5. The same value in another form (a rate per another period, `judge_rates`; a measure in
   another unit, `judge_units`), or the same denial in other words (merge, `judge_restate`).
6. One single-valued slot with another value, one typed value changed with the rest of its
   frame kept, or one thing measured in one unit with another number (`judge_counts`), is an
   uncued update (supersede, `judge_slots`).
   A deadline of one thing (deadline, due, by a date) at another date replaces the stored one
   (`judge_deadlines`).
   A choice that names what it passed over ("prefers X to Y", "chose X over Y") replaces the
   stored item that holds Y as its own (supersede, `judge_choices`), or agrees with the
   stance a stored item takes on X and Y (`judge_choice_stance`).
7. Otherwise the nearest item about the candidate's own subject (cosine plus word containment,
   against a threshold that rises for long sentences) is merged into, unless it is a near miss
   (other subject, value, slot, object, an exception or a rule beside one, an attribute the
   store holds for another subject, `judge_merge`): then create. A near miss that holds
   another value of the candidate's slot (a named value, an object of the same frame, a typed
   value) is what changed when the candidate carries a change cue (supersede).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory_pipelines.core.judge_amend import value_put_right
from memory_pipelines.core.judge_choice_stance import choice_stance
from memory_pipelines.core.judge_choices import passed_over
from memory_pipelines.core.judge_cues import (
    ANOTHER,
    VALUE_MOVE_CUES,
    WEAK_CUES,
    chooses,
)
from memory_pipelines.core.judge_deadlines import deadline_moved, sets_deadline
from memory_pipelines.core.judge_frames import SINGLE_VALUED_FRAMES
from memory_pipelines.core.judge_gone import what_ended
from memory_pipelines.core.judge_lists import name_list_grew
from memory_pipelines.core.judge_merge import (
    attribute_held_elsewhere,
    merge_blocker,
    merge_score,
    merge_threshold,
)
from memory_pipelines.core.judge_modality import hedged_restatement, plan_settled
from memory_pipelines.core.judge_pairs import Pair, compare
from memory_pipelines.core.judge_pending import pending_change
from memory_pipelines.core.judge_rates import rate_restated
from memory_pipelines.core.judge_restate import (
    cue_value_stored,
    denial_restated,
    same_value_other_form,
    stored_in_other_form,
)
from memory_pipelines.core.judge_rules import (
    Analysis,
    analyse_in_case,
    case_names,
    lowercase_vocabulary,
    said_on,
)
from memory_pipelines.core.judge_said_again import said_again
from memory_pipelines.core.judge_slots import Embed, slot_value_change, value_changed
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.core.judge_units import same_measure

SUPERSEDE_FLOOR = 0.45  # cosine that makes a stored item the plausible target of a strong cue
# ... of a weak cue, which often rides along with an unchanged fact: there the cosine is
# evidence only beside a typed value that changed ("now £1,500" beside "rent is £1,400").
WEAK_CUE_FLOOR = 0.55
# A strong cue may name the old value by a wider word: the nearest item about the subject, this
# near and this far ahead of the next, is its target.
NEAREST_FLOOR = 0.33
NEAREST_MARGIN = 0.1
PLAN_CHANGE_FLOOR = 0.3  # cosine for "a strong cue changes this stored plan"


def _supersede_score(p: Pair, c: Analysis, e: Analysis) -> float:
    # Under a change cue the old value is often worded unlike the new one, so explicit
    # old-value mentions, shared frames and same-type value changes outweigh the cosine.
    score = p.cos + 0.3 * p.contain_existing
    score += 0.5 * min(p.old_hit, 1.0) + 0.45 * p.frame_match + 0.3 * p.polarity_flip
    score += 0.2 * (p.shared_value_names > 0) + 0.3 * p.slot_hit + 0.1 * e.tentative
    # A slot that holds one value, with another name in it ("lives in Bath" / "Lives in
    # Bristol"), held the old value; "Works in Bath" only shares the new one.
    score += 0.3 * bool(c.frames & e.frames & SINGLE_VALUED_FRAMES and p.name_conflict)
    # "Decided on a van after all" beside "Thinking about hiring movers": a stored plan is
    # what a firm change settles.
    score += 0.15 * (e.planned and bool(c.cues - WEAK_CUES))
    # A bare month or year in a change ("replaced the boiler in March") dates the change
    # itself and says nothing about which stored value changed.
    changed = set(p.value_conflicts) - {"month", "year"}
    # "Slipped to 15 May" needs an item that holds a date: weigh value changes by the cue.
    score += (0.35 if c.cues & VALUE_MOVE_CUES else 0.15) * bool(changed)
    score -= 0.5 * p.subject_conflict + 0.15 * (not p.same_category) + 0.05 * p.narrower
    # "Gave up the choir" beside "Choir rehearses on Wednesdays": an item about the old thing
    # (its subject) is not the one that held it ("Sings in the choir").
    score -= 0.6 * (p.old_is_subject and not p.holder_replaced)
    # "Now wants aisle seats; the window is a pain with her knee": the change's other clauses
    # name the old value or the reason, so an item sharing their words held the old value.
    score += 0.2 * p.aside_hit + 0.2 * p.stance_turned
    # "Deadline pushed back to 9 May" beside "Hand in by 25 April" and "Presentation on 2 May":
    # a moved deadline was a deadline.
    score += 0.1 * (sets_deadline(c) and sets_deadline(e))
    return score


def _count_changed(p: Pair) -> bool:
    """A count of a named thing differs ("9 people" / "7 people", a team of six / of nine); a
    bare number ("Ruby is nine") names no thing."""
    return any(k.startswith(("n:", "size:")) and k != "n:" for k in p.value_conflicts)


def _denial_restated(pairs: Sequence[Pair]) -> bool:
    """Without a cue, a stored item that denies what the candidate denies ("won't buy fast
    fashion" / "avoids fast fashion") and is at least as near as any item it turns round is
    the claim the candidate restates; the flip is with a neighbour about something else."""
    agree = [p.cos for p in pairs if p.negation_agrees and not p.subject_conflict]
    flipped = [p.cos for p in pairs if p.polarity_flip]
    return bool(agree) and max(agree) >= max(flipped, default=0.0)


def _supersede(c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]) -> JudgeDecision | None:
    flips = any(p.polarity_flip and p.cos >= SUPERSEDE_FLOOR for p in pairs)
    if not c.cues and not flips:
        return None
    if not c.cues and _denial_restated(pairs):
        return None  # the same denial said another way: the merge path takes it
    if c.exception and not c.cues - WEAK_CUES:
        return None  # "makes an exception and works late": the rule stands, nothing reversed
    # Only an item about the candidate's subject held the old value, unless the candidate says
    # that item's subject gave its place up ("Ellie covers the shifts now that Marcus left").
    eligible = [p for p in pairs if not p.subject_conflict or p.holder_replaced]
    if not eligible:
        return None
    stored = [p for p in eligible if stored_in_other_form(p)]
    if stored:
        best = max(stored, key=lambda p: p.cos)
        return JudgeDecision(
            "merge", best.index, "change cue but the value is stored, in another form"
        )
    best = max(eligible, key=lambda p: _supersede_score(p, c, es[p.index]))
    best = what_ended(c, es, eligible) or best
    nearest = sorted((p.cos for p in eligible), reverse=True) + [0.0]
    # A weak cue ("now", "new", "started") rides along with unchanged facts as often as not:
    # nearness alone ("started to realise self-care matters" beside "ran a charity race", both
    # about one person) does not tie it to a stored value; something the two hold must. A moved
    # number or date ("pushed to 30 May", "up to three sessions") names a value of its kind;
    # without one, "pushed" is another verb ("pushed her to keep going").
    moves = VALUE_MOVE_CUES if not c.values else frozenset()
    strong = bool(c.cues - WEAK_CUES - moves) or flips
    evidence = (
        (strong and best.cos >= SUPERSEDE_FLOOR)
        # "Has stopped drinking alcohol" beside "Has a glass of red wine most nights": the old
        # value may be named by a wider word; the item clearly nearest of those about the
        # subject is what ended.
        or (
            strong
            and best.cos == nearest[0] >= NEAREST_FLOOR
            and best.cos - nearest[1] >= NEAREST_MARGIN
        )
        or best.holder_replaced
        # "Loves hot food now" beside "Can't handle spicy food": the stance turned, with a cue.
        or (best.stance_turned and best.cos >= SUPERSEDE_FLOOR)
        or (best.cos >= WEAK_CUE_FLOOR and bool(set(best.value_conflicts) - {"month", "year"}))
        # "Her team is nine people now" beside "Leads a team of six": a count of one named
        # thing that moved is what a weak cue reports, a little further off than other values.
        or (best.cos >= SUPERSEDE_FLOOR and _count_changed(best))
        or (best.old_hit > 0 and not (best.old_is_subject and not best.holder_replaced))
        or best.frame_match
        or best.polarity_flip
        or best.shared_value_names > 0
        or best.slot_hit
        or best.aside_hit
        # "Booked movers instead" beside "Leaning towards hiring a van": a firm change of a
        # stored plan, whose wording it need not share.
        or (es[best.index].planned and bool(c.cues - WEAK_CUES) and best.cos >= PLAN_CHANGE_FLOOR)
        # "Pushed to 30 November" beside the one item due on another date: the cue names the
        # kind of value that moved, and the item holds one.
        or bool(c.cues & VALUE_MOVE_CUES and set(best.value_conflicts) - {"month", "year"})
    )
    if not evidence:
        return None  # a cue, but no stored item it could be about: judge it as a new fact
    if ANOTHER.search(c.text) and not best.old_hit:
        return None  # "finished another quilt", "a second job": a new thing beside the old
    cue = ", ".join(sorted(c.cues)) or "negation flipped"
    if cue_value_stored(best, c, es[best.index]):
        return JudgeDecision("merge", best.index, f"change cue ({cue}) but the value is stored")
    return JudgeDecision("supersede", best.index, f"value changed ({cue})")


def _list_change(pairs: Sequence[Pair]) -> JudgeDecision | None:
    """A list that grew or shrank is a new value of its slot: the new item replaces the old,
    so no member is lost to a merge that keeps the old wording."""
    changed = [p for p in pairs if (p.list_grew or p.list_shrank) and not p.subject_conflict]
    if not changed:
        return None
    best = max(changed, key=merge_score)
    how = "grew" if best.list_grew else "shrank"
    return JudgeDecision("supersede", best.index, f"the list {how}: a new value of the slot")


def decide(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
    embed: Embed | None = None,
) -> JudgeDecision:
    """Judge one candidate against its recalled neighbours; `target` indexes `existing`.
    `embed` (the embedder's) lets an uncued update worded otherwise be read (judge_slots)."""
    if not existing:
        return JudgeDecision("create", None, "nothing stored nearby")
    # Words seen in lower case anywhere in the case are common nouns, not names ("Rent ...").
    texts = [candidate.context, *(x.context for x in existing)]
    vocab = lowercase_vocabulary(texts)
    # ... and words capitalised inside a sentence are names, wherever they open one.
    names = case_names(texts)
    c = analyse_in_case(candidate.context, vocab, None, names)
    # Relative phrases ("last year") of a stored item are read from its valid_from; the
    # candidate is said now, which the judge is not told, so its own are left unread.
    es = [analyse_in_case(x.context, vocab, said_on(x.valid_from), names) for x in existing]
    sims = np.asarray(existing_vecs, dtype=np.float32) @ np.asarray(cand_vec, dtype=np.float32)
    pairs = [
        compare(i, c, es, float(sims[i]), (candidate.category, x.category))
        for i, x in enumerate(existing)
    ]

    # A hedged candidate ("Seems to like answers that start with the command and explain
    # afterwards") is an inference, never a new value: no list of its grew.
    listed = None if c.hedged else _list_change(pairs) or name_list_grew(c, es, pairs)
    decision = (
        listed
        or hedged_restatement(c, es, pairs)
        or value_put_right(c, es, pairs)
        or pending_change(c, es, pairs)
        or said_again(c, es, pairs)
        or _supersede(c, es, pairs)
        or plan_settled(c, es, pairs)
        or rate_restated(c, es, pairs, embed)
        or same_measure(c, es, pairs)
        or same_value_other_form(pairs)
        # an exception beside a rule denies nothing the rule denies ("hotfixes are the one
        # exception to the no-Friday-deploys rule")
        or (None if c.exception else denial_restated(pairs))
        or slot_value_change(c, es, pairs)
        or deadline_moved(c, es, pairs)
        or choice_stance(c, es, pairs)
        or passed_over(c, es, pairs)
    )
    if decision:
        return decision

    # The nearest item may be another person's ("Partner's gym is £40 a month"): the claim
    # restated, if any, is among the items about the candidate's own subject.
    own = [p for p in pairs if not p.subject_conflict]
    best = max(own or pairs, key=merge_score)
    changed = value_changed(c, es, best, embed)
    if changed:
        return changed
    blocker = merge_blocker(best, c, es[best.index]) or attribute_held_elsewhere(c, es, pairs, best)
    # "Now takes oat milk in coffee" beside "Takes coffee with semi-skimmed milk": the nearest
    # item says the same of the same subject with another value, and the candidate says
    # something changed. The cue alone tied it to no item (step 3 wants the old value or the
    # slot named); the near miss of its value does.
    # "Wants config files in TOML" beside "Prefers YAML for config files": a preference is a
    # choice, so a new one said with a verb of choosing, in the same frame with another value
    # and for no occasion of its own ("When eating out, prefers ..."), replaces the old one.
    other_value = best.value_conflicts or best.name_conflict or best.other_object
    own_slot = not (best.subject_conflict or best.contrast)
    if blocker and other_value and own_slot and best.cos >= SUPERSEDE_FLOOR:
        # A birth ("was born in Dublin") fixes a value once: another place or date beside it
        # is another slot (where they live), not the old value of the birth.
        if c.cues - {"born"}:
            return JudgeDecision("supersede", best.index, f"value changed ({blocker}, cued)")
        preferences = candidate.category == existing[best.index].category == "preference"
        if preferences and chooses(candidate.context):
            return JudgeDecision("supersede", best.index, f"another choice ({blocker})")
    if blocker:
        return JudgeDecision("create", None, f"nearest is a near miss: {blocker}")
    if merge_score(best) >= merge_threshold(c, es[best.index]) or best.contain_existing == 1.0:
        return JudgeDecision("merge", best.index, f"same fact (cos {best.cos:.2f})")
    return JudgeDecision("create", None, f"no stored item states this (cos {best.cos:.2f})")
