"""A choice beside a stored item's stance on its two sides, for the dedup judge.

"Would rather get a text than a phone call" beside "Dislikes phone calls; prefers SMS or
WhatsApp": the candidate chooses one thing over another, and the stored item rejects that other
thing too: the same choice, said another way (merge). "Prefers Slack messages over email for
anything urgent" beside "Wants urgent things by email; rarely checks Slack": the stored item
favours what the candidate passes over and shuns what it chooses: the choice turned round
(supersede). `judge_choices.passed_over` reads a stored item that holds the other thing and
says nothing of the chosen one; this reader weighs the stance of the clause each side is in
(`judge_claims.claims`: a negator or a verb of aversion makes a clause negative; so does a
word of rarity, "rarely checks Slack").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_choices import PASSED_OVER_FLOOR, choice_pair
from memory_pipelines.core.judge_claims import claims
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.patterns import rx

_SELDOM = rx(r"\b(?:rarely|seldom|hardly ever|hardly|barely)\b")
_CLAUSE = re.compile(r"[,;:()]|\s[-–—]\s|\bbut\b|\bwhereas\b|\bthough\b")


def _stance(text: str, thing: frozenset[str]) -> int:
    """+1: a clause of `text` favours or holds `thing`; -1: only clauses that shun it do;
    0: `text` says nothing of it."""
    signs = []
    for part in _CLAUSE.split(text):
        for clause in claims(part).clauses:
            if thing & clause.content:
                negative = clause.negative or bool(_SELDOM.search(part))
                signs.append(-1 if negative else 1)
    if not signs:
        return 0
    return 1 if 1 in signs else -1


def choice_stance(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    pair = choice_pair(c.text)
    if pair is None:
        return None
    chosen, other = pair
    for p in sorted(pairs, key=lambda p: -p.cos):
        if p.subject_conflict or p.cos < PASSED_OVER_FLOOR or not p.same_category:
            continue
        text = es[p.index].text
        on_chosen, on_other = _stance(text, chosen), _stance(text, other)
        if on_other == -1 and on_chosen >= 0:
            return JudgeDecision(
                "merge", p.index, "the same choice: the store shuns what it passed over"
            )
        if on_other == 1 and on_chosen == -1:
            return JudgeDecision("supersede", p.index, "a choice turned round")
    return None
