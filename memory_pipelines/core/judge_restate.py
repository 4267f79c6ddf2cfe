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
- **A change told before.** "Moved to Bristol for the new job" beside "Lives in Bristol",
  "Went with SQLite for the field app" beside "Field app stores its data in SQLite": a cue
  whose new value the stored item already holds, with no other value beside it
  (`cue_value_stored`), or holds in another form (`stored_in_other_form`); `judge.py` merges.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_claims import change_clauses
from memory_pipelines.core.judge_cues import TO_CUES, WEAK_CUES
from memory_pipelines.core.judge_lexicon import stem
from memory_pipelines.core.judge_mentions import mentions
from memory_pipelines.core.judge_modality import kinds_apart
from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

DENIAL_FLOOR = 0.3  # cosine for "the same thing rejected", words aside


def _clean(p: Pair) -> bool:
    """Nothing else differs: no other value, subject, stance or thing in the same frame."""
    return not (
        p.value_conflicts or p.subject_conflict or p.contrast or p.polarity_flip or p.other_object
    )


def same_value_other_form(pairs: Sequence[Pair]) -> JudgeDecision | None:
    same = [p for p in pairs if p.other_form and p.same_category and _clean(p)]
    return nearest(same, "merge", "the same value in another form")


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


def cue_value_stored(p: Pair, c: Analysis, e: Analysis) -> bool:
    """A cue whose value the store already holds: "moved to Bristol for the new job" beside
    "lives in Bristol", "vegan for five years now" beside "is vegan"."""
    if p.value_conflicts or p.old_hit or p.polarity_flip or not c.cues <= WEAK_CUES | TO_CUES:
        return False
    if c.cues - WEAK_CUES and (p.name_conflict or not c.names - c.subject):
        return False  # "switched to X": X named, and the stored item names no other value
    if p.list_grew or p.list_shrank or e.planned or e.ongoing:
        return False  # a plan or a process under way holds no value yet
    values = c.names - c.subject  # the place or thing moved to, not who moved
    # "Now on Quillby's platform team, looking after the Kubernetes clusters": the clause with
    # the cue holds the value; the others add detail.
    new, _ = change_clauses(c.text)
    in_change = frozenset(n for n in values if stem(n) in new)
    values = in_change or values
    if any(not mentions(e, n) or stem(n) in e.conditional for n in values):
        # "manager is now Tom" beside "manager is Priya": a new value; "replies in German from
        # now on" beside "Answer in English even when they write in German": German is only
        # the stored rule's condition
        return False
    if kinds_apart(c, e):
        return False  # "now on the payments team" beside "on the data team": another team
    return p.contain_existing >= 0.99 or bool(values)


def stored_in_other_form(p: Pair) -> bool:
    """The value a cue reports is stored, written in another form: "Was born in March 2018"
    beside "Turns 7 next March" (said in November 2024). The dates each side reads around it
    (2018, next March) are no change of it."""
    if not p.other_form or p.old_hit or p.polarity_flip or p.list_grew or p.list_shrank:
        return False
    return not p.subject_conflict and not set(p.value_conflicts) - {"month", "year"}
