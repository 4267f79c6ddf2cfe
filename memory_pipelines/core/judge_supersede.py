"""Step 3 of the judge (core/judge.py): a change cue, a flipped negation or a contrast turned
round replaces the stored item with the best evidence of holding the old value."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_cues import VALUE_MOVE_CUES, WEAK_CUES
from memory_pipelines.core.judge_deadlines import sets_deadline
from memory_pipelines.core.judge_frames import SINGLE_VALUED_FRAMES
from memory_pipelines.core.judge_gone import GONE_CUES, what_ended
from memory_pipelines.core.judge_lexicon import stem, wordlist
from memory_pipelines.core.judge_modes import ANOTHER
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_restate import (
    cue_value_stored,
    stored_in_other_form,
)
from memory_pipelines.core.judge_rules import (
    Analysis,
)
from memory_pipelines.core.judge_slots import Embed
from memory_pipelines.core.judge_tied import tied
from memory_pipelines.core.judge_types import JudgeDecision

SUPERSEDE_FLOOR = 0.45  # cosine that makes a stored item the plausible target of a strong cue
# ... of a weak cue, which often rides along with an unchanged fact: there the cosine is
# evidence only beside a typed value that changed ("now £1,500" beside "rent is £1,400").
WEAK_CUE_FLOOR = 0.55
NAMED_FLOOR = 0.6  # ... when both name the same person (the name alone makes them near)
# A strong cue may name the old value by a wider word: the nearest item about the subject, this
# near and this far ahead of the next, is its target.
NEAREST_FLOOR = 0.33
NEAREST_MARGIN = 0.1
PLAN_CHANGE_FLOOR = 0.3  # cosine for "a strong cue changes this stored plan"


def supersede_score(p: Pair, c: Analysis, e: Analysis) -> float:
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


# Words that name only a time, not the thing whose time it is ("the deadline moved").
_TIME_WORDS = frozenset(
    stem(w) for w in wordlist("deadline date time day due schedule appointment slot start")
)


# The candidate names the value it replaces ("X instead of Y", "X rather than Y").
_INSTEAD_OF = re.compile(r"\b(?:instead of|rather than)\b", re.IGNORECASE)


def _moved_elsewhere(c: Analysis, e: Analysis) -> bool:
    """The candidate names the thing whose date or number moved ("Tom's dentist appointment
    moved to 10 December") and the stored item names none of it ("Tom is planning a surprise
    party on 19 December"): another thing's date, which the move leaves as it was."""
    thing = c.subject_stems - c.owners - {stem(n) for n in c.entities} - _TIME_WORDS
    return bool(thing) and not thing & e.stems


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


def _clearly_nearest(cos: Sequence[float], best: int) -> bool:
    """Whether item `best` of these cosines is the nearest, NEAREST_FLOOR near and
    NEAREST_MARGIN ahead of the next."""
    rest = sorted((x for i, x in enumerate(cos) if i != best), reverse=True) + [0.0]
    return (
        cos[best] >= max(cos)
        and cos[best] >= NEAREST_FLOOR
        and cos[best] - rest[0] >= (NEAREST_MARGIN)
    )


def _without_names(text: str, names: frozenset[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "someone", text, flags=re.IGNORECASE)
    return text


def _nearest_without_names(
    c: Analysis, es: Sequence[Analysis], eligible: Sequence[Pair], best: Pair, embed: Embed
) -> bool:
    """Whether `best` is still clearly the nearest of the eligible items once the names the
    candidate says are taken out of every text: items about one person are near for the name
    alone ("Maya is planning to quit her job" / "Maya's therapist appointment is every
    Tuesday"), and the nearest of two such is no more what ended than the other."""
    texts = [c.text] + [es[p.index].text for p in eligible]
    vecs = embed([_without_names(t, c.entities) for t in texts])
    cos = [float(x) for x in vecs[1:] @ vecs[0]]
    return _clearly_nearest(cos, list(eligible).index(best))


ENDING_CUES = frozenset({"no longer", "stopped"})


def _end_stored(p: Pair) -> bool:
    """Whether the stored item already denies what the candidate says has ended, nothing else
    apart, as near as two items about one person must be (NAMED_FLOOR)."""
    apart = p.subject_conflict or p.polarity_flip or p.value_conflicts or p.other_object
    return p.both_deny and not apart and p.cos >= NAMED_FLOOR


def _own_slot(c: Analysis, es: Sequence[Analysis], eligible: list[Pair]) -> list[Pair]:
    """The eligible items, less those holding the candidate's one-value slot for somebody else
    when an item holds it for the candidate's own subject: "Moved in with my girlfriend Chloe in
    Didsbury" changes where the user lives ("Lives in Fallowfield"), not where Chloe does
    ("Chloe lives in Didsbury"), though it names her and her place."""
    slots = c.frames & SINGLE_VALUED_FRAMES
    if not slots or not c.subject:
        return eligible
    in_slot = {p.index for p in eligible if es[p.index].frames & slots}
    others = {i for i in in_slot if es[i].subject != c.subject}
    if others == in_slot:  # nobody's slot is the candidate's own
        return eligible
    return [p for p in eligible if p.index not in others]


# Cues of a step taken once (an end, a promotion, a loan paid off): told again, it is the same step.
STEP_CUES = frozenset({"stopped", "status", "outcome"})
STEP_SHARE = 0.75  # share of the stored item's words the candidate says again


def _step_told(p: Pair, c: Analysis, e: Analysis) -> bool:
    """Whether the stored item reports the step the candidate reports, of the same subject,
    nothing apart (no other value, name or object), in nearly all of its words."""
    same_who = c.subject == e.subject or bool(c.subject_stems & e.subject_stems)
    apart = p.subject_conflict or p.value_conflicts or p.name_conflict or p.other_object
    return (
        bool(c.cues & e.cues & STEP_CUES)
        and same_who
        and not apart
        and p.contain_existing >= STEP_SHARE
        and p.cos >= NAMED_FLOOR
    )


def slot_given_away(
    chosen: JudgeDecision, rules: JudgeDecision, c: Analysis, es: Sequence[Analysis]
) -> bool:
    """Whether `chosen` merges into an item about somebody else a change of the candidate's own
    one-value slot that the rules read as replacing the item holding it for the candidate's
    subject ("Moved in with my boyfriend Arjun" merged into "Arjun lives in Headingley"): the
    merge keeps Arjun's words, and the user's old home stays current."""
    if rules.action != "supersede" or rules.target is None:
        return False
    if chosen.action != "merge" or chosen.target is None:
        return False
    held = es[rules.target]
    return (
        bool(c.frames & held.frames & SINGLE_VALUED_FRAMES)
        and held.subject == c.subject
        and es[chosen.target].subject != c.subject
    )


_AHEAD = frozenset({"moved", "since"})


def _kept(c: Analysis, es: Sequence[Analysis], eligible: Sequence[Pair]) -> JudgeDecision | None:
    """ "Still £14 per candle, sticking with that": what is kept changes nothing. It settles a
    stored plan to change it, which says what it would change ("Staying on MySQL after all"
    beside "Migrating from MySQL to Postgres"), or confirms the item holding its value: that
    merge, or None."""
    if any(es[p.index].planned and p.contain_existing > 0 for p in eligible):
        return None
    # ... a value held, not one a move ahead would bring ("Moving the newsletter to
    # fortnightly from next month" beside "Staying on a weekly newsletter; fortnightly lost
    # readers")
    holding = [
        p
        for p in eligible
        if p.shared_values and not p.value_conflicts and not es[p.index].cues & _AHEAD
    ]
    if not holding:
        return None
    best = max(holding, key=lambda p: p.cos)
    return JudgeDecision("merge", best.index, "kept as it was: the value is stored")


_ONLY_IF = re.compile(r"\b(?:if|unless|provided|as long as)\b", re.IGNORECASE)


# An event being planned ("Planning a trip to Iceland"), which "Iceland's off" calls off.
_PLANNING_A = re.compile(r"\bplanning an? \w+", re.IGNORECASE)


def cued_change(
    c: Analysis,
    es: Sequence[Analysis],
    pairs: Sequence[Pair],
    embed: Embed | None = None,
    about: frozenset[str] = frozenset(),
) -> JudgeDecision | None:
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
    if not c.cues:
        # Nothing says a change but a negation turned: only an item it turned round changed
        # ("Audrey can't get bored at all" turns nothing of "Audrey can't imagine life without
        # them", whatever else near it does).
        eligible = [p for p in eligible if p.polarity_flip and p.cos >= SUPERSEDE_FLOOR]
    if c.cues & VALUE_MOVE_CUES and not c.cues - WEAK_CUES - VALUE_MOVE_CUES:
        if _ONLY_IF.search(c.text):
            # "goes up to 50 after 2 weeks if she's ok on it": a move that may come, none made
            return None
        eligible = [p for p in eligible if not _moved_elsewhere(c, es[p.index])]
    eligible = _own_slot(c, es, eligible)
    if c.cues - WEAK_CUES == {"kept"}:
        kept = _kept(c, es, eligible)
        if kept is not None:
            return kept
        # a plan it gives up says what it would change
        eligible = [p for p in eligible if not es[p.index].planned or p.contain_existing > 0]
    if not eligible:
        return None
    # "Isn't talking to his brother anymore" beside "fell out with his brother and haven't
    # spoken since": the end is stored already, both deny the same thing of one subject.
    if c.cues and c.cues <= ENDING_CUES:
        ended = [p for p in eligible if _end_stored(p)]
        if ended:
            best = max(ended, key=lambda p: p.cos)
            return JudgeDecision("merge", best.index, "the end is stored already (both deny)")
    # "Finally quit smoking, hasn't had one since March" beside "Stopped smoking in March": the
    # stored item tells the same end or the same step (a promotion, a loan paid off) already.
    told = [p for p in eligible if _step_told(p, c, es[p.index])]
    if told:
        best = max(told, key=lambda p: p.cos)
        return JudgeDecision("merge", best.index, "the same step is stored already")
    stored = [p for p in eligible if stored_in_other_form(p)]
    if stored:
        best = max(stored, key=lambda p: p.cos)
        return JudgeDecision(
            "merge", best.index, "change cue but the value is stored, in another form"
        )
    best = max(eligible, key=lambda p: supersede_score(p, c, es[p.index]))
    gone = what_ended(c, es, eligible)
    best = gone or best
    nearest = sorted((p.cos for p in eligible), reverse=True) + [0.0]
    # A weak cue ("now", "new", "started") rides along with unchanged facts as often as not:
    # nearness alone ("started to realise self-care matters" beside "ran a charity race", both
    # about one person) does not tie it to a stored value; something the two hold must. A moved
    # number or date ("pushed to 30 May", "up to three sessions") names a value of its kind;
    # without one, "pushed" is another verb ("pushed her to keep going").
    moves = VALUE_MOVE_CUES if not c.values else frozenset()
    strong = bool(c.cues - WEAK_CUES - moves) or flips
    # Two items that name the same person are near for the name alone ("Tom is off the
    # crutches again" / "Send Tom a video sometime": 0.48): nearness says more when it is not,
    # unless what the cue says is gone is the one named ("Rufus was put to sleep").
    named = bool(c.entities & es[best.index].entities) and not c.cues & GONE_CUES
    floor = NAMED_FLOOR if named else SUPERSEDE_FLOOR
    evidence = (
        (strong and best.cos >= floor)
        # "Has stopped drinking alcohol" beside "Has a glass of red wine most nights": the old
        # value may be named by a wider word; the item clearly nearest of those about the
        # subject is what ended.
        # With a name in common, "clearly nearest" needs another item to be nearer than: alone,
        # the name makes it near ("Tom is off the crutches again" / "Send Tom a video").
        # Two items naming the candidate's person: clearly nearest once the names are out.
        or (
            strong
            and best.cos == nearest[0] >= NEAREST_FLOOR
            and best.cos - nearest[1] >= NEAREST_MARGIN
            and not (named and len(eligible) < 2)
            and (not named or embed is None or _nearest_without_names(c, es, eligible, best, embed))
        )
        or best.holder_replaced
        # "We buried Marmalade" beside "Has an old tabby called Marmalade": the gone thing
        # named by the item that says it is there
        or bool(gone and c.entities & es[gone.index].entities)
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
        # "Iceland's off this year" beside "Planning a trip to Iceland": the plan called off
        # by the thing it names
        or (
            (es[best.index].planned or bool(_PLANNING_A.search(es[best.index].text)))
            and "cancelled" in c.cues
            and bool(c.entities & es[best.index].entities)
        )
        # "Pushed to 30 November" beside the one item due on another date: the cue names the
        # kind of value that moved, and the item holds one.
        or bool(c.cues & VALUE_MOVE_CUES and set(best.value_conflicts) - {"month", "year"})
    )
    if not evidence:
        return None  # a cue, but no stored item it could be about: judge it as a new fact
    if ANOTHER.search(c.text) and not best.old_hit:
        return None  # "finished another quilt", "a second job": a new thing beside the old
    if _INSTEAD_OF.search(c.text) and c.old_words and not any(p.old_hit for p in eligible):
        # "going with quartz instead of laminate" names what was replaced: a stored item
        # holding none of it ("just bought a house in Bristol") is not what changed.
        return None
    if not tied(c, es[best.index], best, embed, about, gone):
        return None  # a cue and a value of a kind both hold, but the value of another thing
    cue = ", ".join(sorted(c.cues)) or "negation flipped"
    if cue_value_stored(best, c, es[best.index]):
        return JudgeDecision("merge", best.index, f"change cue ({cue}) but the value is stored")
    return JudgeDecision("supersede", best.index, f"value changed ({cue})")
