"""A choice that names what it passed over, for the dedup judge.

"Prefers audiobooks to podcasts on the commute" beside "Listens to podcasts on the commute",
"Chose Stripe over PayPal for the shop" beside "Going to use PayPal for checkout": the candidate
chooses one thing over another, and a stored item about the same subject holds that other thing
as its own (not as something it too passes over) and says nothing of the chosen one. The stored
item held the old value of the choice: the candidate replaces it (`passed_over`). An item that
already holds the chosen thing ("Wants a gas hob, not induction") is the same choice restated,
and one that passes over the same thing ("Books rentals instead of hotels") or denies it
("Doesn't fly in Europe" beside "would rather take the train than fly") agrees with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_lexicon import content_stems, words
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

# Where the thing passed over ends: a clause break, or the occasion or reason that follows it.
_END = r"(?=[,;.:]|$|\s(?:for|when|in|on|at|these|now|because|as|from|so|since|after)\b)"
# A verb of choosing, the chosen thing, then what it was chosen over. "Prefer ... to" reads a
# comparison; with other verbs "to" opens a purpose ("wants X to work"), so it is left out.
_CHOSEN_OVER = re.compile(
    r"\b(?:prefer\w*|would rather|'d rather|rather)\s+(.+?)\s+"
    r"(?:to|over|than|rather than|instead of)\s+(.+?)"
    + _END
    + r"|\b(?:cho(?:se|sen|oses?)|picks?|picked|went with|goes with|opt(?:s|ed)? for"
    r"|wants?|wanted|uses?|switched to|moving to|going with)\s+(.+?)\s+"
    r"(?:over|rather than|instead of)\s+(.+?)" + _END,
    re.IGNORECASE,
)
# The stored item must be near enough to be about the same slot at all.
PASSED_OVER_FLOOR = 0.4


def choice_pair(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(chosen, passed over) content stems of a choice said with its alternative, or None."""
    m = _CHOSEN_OVER.search(text)
    if not m:
        return None
    chosen = m.group(1) if m.group(1) is not None else m.group(3)
    other = m.group(2) if m.group(2) is not None else m.group(4)
    pair = content_stems(words(chosen)), content_stems(words(other))
    return pair if pair[0] and pair[1] and not pair[0] & pair[1] else None


def passed_over(c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]) -> JudgeDecision | None:
    """A stored item that holds, as its own, the thing the candidate chose something else over."""
    pair = choice_pair(c.text)
    if pair is None:
        return None
    chosen, other = pair
    for p in sorted(pairs, key=lambda p: -p.cos):
        e = es[p.index]
        if p.subject_conflict or p.cos < PASSED_OVER_FLOOR:
            continue
        if not other & e.stems or chosen & e.stems:
            continue
        e_pair = choice_pair(e.text) or e.preference or e.contrast
        if e_pair and other & e_pair[1]:
            continue  # the stored item passes it over too: the same choice
        if e.negated & other:
            continue  # ... or denies it ("Doesn't fly for European trips")
        return JudgeDecision("supersede", p.index, "a choice made over the stored value")
    return None
