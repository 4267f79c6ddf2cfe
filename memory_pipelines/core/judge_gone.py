"""A thing that is gone, for the dedup judge: which stored item ended with it.

"Biscuit was put to sleep" beside "Has a 17-year-old tabby called Biscuit" and "Biscuit sleeps
on the landing radiator"; "Sold the Vespa" beside "Owns a red Vespa" and "Vespa parking permit
is £60 a year". When a pet dies, a car is sold or a partner is left, the item that says the thing
is there (has, owns) is what ended. Its other attributes went with it, and none of them holds a
value that changed, however many words they share with the candidate ("sleeps", "parking").
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis

# Change cues that report a thing itself gone, not one value of it (judge_cues).
GONE_CUES = frozenset({"died", "ended"})
# Cosine that makes a stored item about the thing a plausible target (judge.NEAREST_FLOOR).
GONE_FLOOR = 0.33


def what_ended(c: Analysis, es: Sequence[Analysis], eligible: Sequence[Pair]) -> Pair | None:
    """The nearest eligible item that says the gone thing is there, if any."""
    if not c.cues & GONE_CUES:
        return None
    said = c.subject | c.stems | c.entities
    # ... the thing by its subject ("Biscuit is 11"), or by the name the item gives it ("Has
    # an old tabby called Marmalade" / "We buried Marmalade")
    held = [
        p
        for p in eligible
        if es[p.index].existence
        and ((es[p.index].subject - {"user"}) & said or es[p.index].entities & c.entities)
        and p.cos >= GONE_FLOOR
    ]
    return max(held, key=lambda p: p.cos) if held else None
