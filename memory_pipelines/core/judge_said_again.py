"""A claim said again, for the dedup judge: "again" on the saying, not on the habit.

"User confirmed again that they are allergic to shellfish" beside "Shellfish allergy: prawns,
crab, lobster": "again" belongs to the verb of saying (confirmed, said, mentioned, repeated),
so nothing resumed; the claim is restated (merge). "Eating fish again" keeps its cue: there
the habit itself came back (`judge_cues` "resumed").
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_mentions import mentions
from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.patterns import rx

_SAID_AGAIN = rx(
    r"\b(?:confirm|say|said|mention|repeat|state|remind|tell|told|stress|note)\w*"
    r"(?: \w+)?? again\b|\b(?:reconfirm|reiterat|restat)\w*"
)
SAID_AGAIN_FLOOR = 0.5  # cosine of the stored claim restated


def said_again(c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]) -> JudgeDecision | None:
    if not _SAID_AGAIN.search(c.text) or not c.cues <= {"resumed"}:
        return None
    same = [
        p
        for p in pairs
        if not (p.subject_conflict or p.value_conflicts or p.polarity_flip or p.contrast)
        and p.cos >= SAID_AGAIN_FLOOR
        # the reported claim may be about someone the sentence's subject is not: each person
        # or thing it names must be in the stored item too ("that daughter Mia is ...")
        and all(mentions(es[p.index], n) for n in c.entities - {"user"})
    ]
    return nearest(same, "merge", "the claim said again (cos {cos:.2f})")
