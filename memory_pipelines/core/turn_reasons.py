"""The save reason of a whole turn, when its sentences have several: the most durable one, with
two exceptions that read the turn as a whole. Used by core/policy.py. Pure Python.

- A rule for oneself backed by a past mishap is a lesson: "Never buy X. They refused my claim.",
  "Third time the invoice was wrong. From now on I check every line." A rule that mentions
  me/you ("Never book me on red-eyes") is a preference about the service.
- A sentence that details a request just made ("Can you make that shorter? Like, three bullets
  max, I'm reading it on my phone") is part of that request, unless it names a lasting scope.
- A future with neither a due time nor a pledge ("We'll overpay when we can") beside a decision
  with its why belongs to that decision: it is its consequence, not a promise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.patterns import rx as _rx
from memory_pipelines.core.sentence_kinds import is_pledge

_TO_SERVICE = r"(?!.*\b(?:me|my|you|your)\b)"
# an imperative rule ("Don't ever X", "Always Y"), perhaps after a short label ("Tip: never X")
_SELF_RULE = _rx(rf"^\W*(?:[\w' ]{{1,25}}:\s*)?(?:never|always|don't|do not) {_TO_SERVICE}")
# a resolution in the first person ("From now on I check every line"), not a wish ("I want")
_RESOLUTION = _rx(
    rf"\b(?:from now on|going forward|in future|from here on|next time),? (?:i|we)(?:'ll| will)? "
    rf"(?!(?:want|would|like|prefer|need|'d)\b){_TO_SERVICE}\w+"
)
_PAST = re.compile(rf"\b(?:was|were|{PAST_VERB})\b", re.IGNORECASE)
_NOT_STATEMENTS = ("hedge", "meta", "ack", "greeting")
# A sentence opened as a detail of the one before: "Like, ...", "I mean, ...", "As in ...", "e.g."
_DETAIL_OPEN = _rx(r"^\W*(?:like|i mean|as in|say|e\.?g\.?|for example|something like)\b[,:]?")
_SCOPED = _rx(
    r"\b(?:always|never|whenever|from now on|going forward|in future|by default|any|every|all)\b"
)


def request_details(sents: Sequence[str], kinds: Sequence[str]) -> list[str]:
    """The kinds, with a sentence that details the request before it (a meta sentence) read as
    part of that request; a lasting scope ("Like, always in bullets") or a health fact keeps
    its kind."""
    out = list(kinds)
    for i in range(1, len(sents)):
        if (
            out[i - 1] == "meta"
            and out[i] in ("stable_preference", "fact", "plain")
            and _DETAIL_OPEN.match(sents[i])
            and not _SCOPED.search(sents[i])
            and not SAFETY.search(sents[i])
        ):
            out[i] = "meta"
    return out


def is_self_rule_lesson(sents: Sequence[str], kinds: Sequence[str]) -> bool:
    """A rule for oneself, with a past mishap in another sentence or after the rule's colon or
    semicolon ("Never X; we got caught")."""
    rules = [
        i
        for i, (s, k) in enumerate(zip(sents, kinds, strict=True))
        if k not in _NOT_STATEMENTS and (_SELF_RULE.search(s) or _RESOLUTION.search(s))
    ]
    mishaps = [s for i, s in enumerate(sents) if i not in rules]
    mishaps += [
        re.split(r"[;:]", sents[i], maxsplit=1)[-1] for i in rules if re.search("[;:]", sents[i])
    ]
    return bool(rules) and any(_PAST.search(s) for s in mishaps)


def turn_reason(sents: Sequence[str], kinds: Sequence[str], order: Sequence[str]) -> str | None:
    """The save reason of the turn: the first of order among its kinds, with the two
    exceptions above; None when no sentence has a save reason and none is a self-rule lesson."""
    top = next((r for r in order if r in kinds), None)
    if top in (None, "stable_preference", "decision_with_why", "durable_fact") and (
        is_self_rule_lesson(sents, kinds)
    ):
        return "hard_lesson"
    if top == "commitment" and "decision_with_why" in kinds:
        promises = [s for s, k in zip(sents, kinds, strict=True) if k == "commitment"]
        if not any(is_pledge(s) for s in promises):
            return "decision_with_why"
    return top
