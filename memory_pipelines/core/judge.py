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
4. A firm statement settles a stored plan on its topic, a reported change settles a process
   under way (one awaiting its outcome too), a report that its owner did the act a stored
   intention names settles the intention ("will open one this month" / "opened the LISA in
   June"), and a report that a stored goal was reached or given up settles the goal
   (supersede, `judge_modality`).
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
8. The rules' answer is not final: a learned chooser (`judge_model`) scores every option of
   the case (create; merge into or supersede each item) from the readings above and the
   option the rules chose, with weights fitted on the labelled cases of
   `benchmarks/data/judge`. Its choice stands; when it overrides the rules, its reason says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.judge_acronyms import read_out
from memory_pipelines.core.judge_amend import value_put_right
from memory_pipelines.core.judge_choice_stance import choice_stance
from memory_pipelines.core.judge_choices import passed_over
from memory_pipelines.core.judge_cues import END_CUES, TIME_KINDS, TIME_MOVING_CUES
from memory_pipelines.core.judge_deadlines import deadline_moved
from memory_pipelines.core.judge_history import began_in, corrects, past_happening
from memory_pipelines.core.judge_lists import name_list_grew
from memory_pipelines.core.judge_merge import (
    attribute_held_elsewhere,
    merge_blocker,
    merge_score,
    merge_threshold,
)
from memory_pipelines.core.judge_modality import (
    goal_reached,
    hedged_restatement,
    intention_carried_out,
    plan_settled,
)
from memory_pipelines.core.judge_model import Option, choose, option_rows
from memory_pipelines.core.judge_modes import chooses
from memory_pipelines.core.judge_names import kept_apart, said_otherwise
from memory_pipelines.core.judge_pairs import Pair, compare
from memory_pipelines.core.judge_pending import pending_change
from memory_pipelines.core.judge_rates import rate_restated
from memory_pipelines.core.judge_restate import (
    denial_restated,
    same_value_other_form,
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
from memory_pipelines.core.judge_supersede import (
    SUPERSEDE_FLOOR,
    cued_change,
    slot_given_away,
    supersede_score,
)
from memory_pipelines.core.judge_tied import tied
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.core.judge_units import same_measure


def _dated_apart(p: Pair, c: Analysis) -> bool:
    """Whether the pair differs only in when, and the candidate tells an end with no cue that
    moves a time: "Maya handed in her notice, she is joining Medisync from July 1st" ends a
    job, and moves no exam booked for May 27th."""
    kinds = set(p.value_conflicts)
    timed = bool(kinds) and kinds <= TIME_KINDS
    return timed and bool(c.cues & END_CUES) and not c.cues & TIME_MOVING_CUES


def _list_change(pairs: Sequence[Pair]) -> JudgeDecision | None:
    """A list that grew or shrank is a new value of its slot: the new item replaces the old,
    so no member is lost to a merge that keeps the old wording."""
    changed = [
        p
        for p in pairs
        if (p.list_grew or p.list_shrank or p.list_swapped) and not p.subject_conflict
    ]
    if not changed:
        return None
    best = max(changed, key=merge_score)
    how = "grew" if best.list_grew else "shrank" if best.list_shrank else "changed members"
    return JudgeDecision("supersede", best.index, f"the list {how}: a new value of the slot")


def analyse_case(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
) -> tuple[Analysis, list[Analysis], list[Pair]]:
    """Read the candidate and its neighbours, and compare the candidate with each."""
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
    # The speaker's name is whom the case is about, never a value the items share.
    about = candidate.speaker_words
    pairs = [
        compare(i, c, es, float(sims[i]), (candidate.category, x.category), about)
        for i, x in enumerate(existing)
    ]
    return c, es, pairs


def decide(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
    embed: Embed | None = None,
) -> JudgeDecision:
    """Judge one candidate against its recalled neighbours; `target` indexes `existing`.
    `embed` (the embedder's) lets an uncued update worded otherwise be read (judge_slots).
    The rules decide first; the learned chooser (judge_model) weighs their readings and
    their decision, and has the last word."""
    if not existing:
        return JudgeDecision("create", None, "nothing stored nearby")
    who = candidate.said_by
    candidate, existing = candidate.unattributed(who), [x.unattributed(who) for x in existing]
    candidate, existing, cand_vec, existing_vecs = read_out(
        candidate, existing, cand_vec, existing_vecs, embed
    )
    rules, rows, options, pairs, c, es = _case(candidate, existing, cand_vec, existing_vecs, embed)
    chosen = choose(rules, rows, options)
    if chosen is not rules and (
        _safety_lost(chosen, rules, existing)
        or _members_dropped(chosen, pairs)
        or _correction_undone(chosen, rules, candidate)
        or slot_given_away(chosen, rules, c, es)
        or _untied(chosen, c, es, pairs, embed, candidate.speaker_words)
    ):
        chosen = rules
    if _members_dropped(chosen, pairs):
        return JudgeDecision("create", None, f"a list holding a stored value ({chosen.reason})")
    if (apart := kept_apart(chosen, candidate, existing, c, es, pairs, embed)) is not None:
        return apart
    if _history_rewritten(chosen, candidate, existing):
        if chosen is not rules and not _history_rewritten(rules, candidate, existing):
            return rules
        return JudgeDecision("create", None, f"the past stays as told ({chosen.reason})")
    return chosen


def _history_rewritten(
    d: JudgeDecision, candidate: JudgeItem, existing: Sequence[JudgeItem]
) -> bool:
    """Whether `d` replaces, by anything but its correction, a happening of the past or an
    item said after the candidate's state began (judge_history)."""
    if d.action != "supersede" or d.target is None or corrects(candidate.context):
        return False
    replaced = existing[d.target]
    began = began_in(candidate.context)
    said = int(replaced.valid_from[:4]) if replaced.valid_from else None
    return past_happening(replaced.context) or (
        began is not None and said is not None and began < said
    )


def _safety_lost(
    chosen: JudgeDecision, rules: JudgeDecision, existing: Sequence[JudgeItem]
) -> bool:
    """Whether the learned chooser would replace a health or safety fact the rules kept
    ("He carries an EpiPen in his school bag" replaced by "Leo is off nuts of any kind at home
    now", a new-user probe): a guess from weights never loses one; a change the rules read
    still replaces it."""
    replaced = chosen.target if chosen.action == "supersede" else None
    kept = rules.target if rules.action == "supersede" else None
    return (
        replaced is not None
        and replaced != kept
        and bool(SAFETY.search(existing[replaced].context))
    )


def _correction_undone(chosen: JudgeDecision, rules: JudgeDecision, candidate: JudgeItem) -> bool:
    """Whether the learned chooser would keep the old value of an explicit correction ("in May,
    not April") or a date said to have moved (judge_history.corrects) that the rules read as
    replacing a stored item: the merge keeps the stored words, so the value the speaker put
    right stays current. A guess from weights never undoes what was said outright."""
    return (
        rules.action == "supersede" and chosen.action != "supersede" and corrects(candidate.context)
    )


def _untied(
    chosen: JudgeDecision,
    c: Analysis,
    es: Sequence[Analysis],
    pairs: Sequence[Pair],
    embed: Embed | None,
    about: frozenset[str],
) -> bool:
    """Whether the chooser would replace a stored item the candidate's change is not tied to
    (`judge_tied.tied`): a cue and a value of a kind both hold, of another thing."""
    if chosen.action != "supersede" or chosen.target is None:
        return False
    t = chosen.target
    return not tied(c, es[t], pairs[t], embed, about)


def _members_dropped(chosen: JudgeDecision, pairs: Sequence[Pair]) -> bool:
    """Whether `chosen` merges the candidate into a stored item whose value the candidate's
    list holds, with more (read by nearness alone, `judge_claims.list_change`): the merge
    keeps the stored wording, so the new members would be lost ("Omar's favourite cuisines
    are Lebanese and Georgian" merged into "Omar has loved Lebanese food since he was a
    boy"). Then the rules' decision stands, or both items do."""
    return (
        chosen.action == "merge"
        and chosen.target is not None
        and pairs[chosen.target].list_by_nearness
    )


def case_options(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
    embed: Embed | None = None,
) -> tuple[JudgeDecision, np.ndarray, list[Option]]:
    """The rules' decision and every option's row of readings (judge_model.option_rows);
    the learned chooser is fitted on these."""
    rules, rows, options, *_ = _case(candidate, existing, cand_vec, existing_vecs, embed)
    return rules, rows, options


def _case(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
    embed: Embed | None,
) -> tuple[JudgeDecision, np.ndarray, list[Option], list[Pair], Analysis, list[Analysis]]:
    c, es, pairs = analyse_case(candidate, existing, cand_vec, existing_vecs)
    rules = rules_decide(candidate, existing, c, es, pairs, embed)
    supersede = [supersede_score(p, c, es[p.index]) for p in pairs]
    rows, options = option_rows(c, es, pairs, supersede, rules)
    return rules, rows, options, pairs, c, es


def rules_decide(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    c: Analysis,
    es: Sequence[Analysis],
    pairs: Sequence[Pair],
    embed: Embed | None = None,
) -> JudgeDecision:
    """The rules' decision: the flow of this module's docstring, first answer wins."""
    # A hedged candidate ("Seems to like answers that start with the command and explain
    # afterwards") is an inference, never a new value: no list of its grew.
    listed = None if c.hedged else _list_change(pairs) or name_list_grew(c, es, pairs)
    decision = (
        listed
        or hedged_restatement(c, es, pairs)
        or value_put_right(c, es, pairs)
        or pending_change(c, es, pairs)
        or said_again(c, es, pairs)
        or cued_change(c, es, pairs, embed, candidate.speaker_words)
        or plan_settled(c, es, pairs)
        or intention_carried_out(c, es, pairs, [x.category != "commitment" for x in existing])
        or (
            None
            if candidate.category == "goal"
            else goal_reached(c, es, pairs, [x.category == "goal" for x in existing])
        )
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
    merges = merge_score(best) >= merge_threshold(c, es[best.index]) or best.contain_existing == 1.0

    @cache
    def restated_otherwise() -> bool:
        """The blocker lifted: the two say one thing in other words. Asked only where it
        changes the action, as it embeds both sentences again (it had been a sixth of the
        LoCoMo extraction pass, asked of every pair so blocked)."""
        return blocker == "same subject, different attribute" and said_otherwise(
            candidate.context, existing[best.index].context, c, es[best.index], embed
        )

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
        preferences = candidate.category == existing[best.index].category == "preference"
        if (
            c.cues - {"born"}
            and not _dated_apart(best, c)
            and tied(c, es[best.index], best, embed, candidate.speaker_words)
        ):
            supersede = JudgeDecision("supersede", best.index, f"value changed ({blocker}, cued)")
        elif preferences and chooses(candidate.context):
            supersede = JudgeDecision("supersede", best.index, f"another choice ({blocker})")
        else:
            supersede = None
        if supersede and not restated_otherwise():
            return supersede
    if blocker and not (merges and restated_otherwise()):
        return JudgeDecision("create", None, f"nearest is a near miss: {blocker}")
    if merges:
        return JudgeDecision("merge", best.index, f"same fact (cos {best.cos:.2f})")
    return JudgeDecision("create", None, f"no stored item states this (cos {best.cos:.2f})")
