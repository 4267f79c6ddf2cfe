"""Whether a change a candidate tells is tied to the stored item it would replace: between
items of one named speaker, which hold the dates and sums of many things, a change cue and a
value of one kind in conflict are not enough (a new user's chats: the move's new date replaced
a birthday, the florist's price the caterer's)."""

from __future__ import annotations

from memory_pipelines.core.judge_names import cos_masked
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_slots import Embed, masked

# Cosine of two items of one speaker's chat with their values and the speaker's name masked,
# under which a cue and a value of one kind (a date, a sum) name the value of another thing:
# "The move is now March 16" beside "Mom's 60th birthday is on March 9" (0.12), "Petal
# Pushers is $2,200" beside "catering goes up to about $8,700" (0.06), where the same move or
# dose moved reads 0.64 ("Movers are booked for March 2", "lowered the cetirizine to every
# other day" beside "a daily cetirizine"). Chosen on the tuning sets with a speaker (_t, _u,
# _v, _x: 0.5 lost four of their cases, 0.4 gained one; benchmarks/QUALITY-LOG.md, stop 71).
ONE_THING_FLOOR = 0.4


def tied(
    c: Analysis,
    e: Analysis,
    p: Pair,
    embed: Embed | None,
    about: frozenset[str],
    gone: Pair | None = None,
) -> bool:
    """Whether a change the candidate tells is tied to the stored item. Between two items of
    one speaker's chat (`about`: the speaker's name, lower-cased words), which name the speaker
    and hold dates and sums of many things, a cue, a nearness and a value of one kind that
    differs are not enough: something the two hold (`_anchored`) or saying something of one
    thing (`_one_thing`) must tie them. Items of no named speaker, and a change told with no
    value in conflict ("Maya passed!!" beside "Maya booked the exam"), as the rules read
    them."""
    if not about or not p.value_conflicts:
        return True
    return _anchored(p, gone) or _one_thing(c, e, embed, about)


def _anchored(p: Pair, gone: Pair | None) -> bool:
    """Whether something the two hold ties the change to the stored item beyond a cue, a
    nearness and a value of one kind: its old value named, a frame or slot of both, a name in
    both values, a stance or a negation turned, the holder replaced, the thing said gone."""
    return bool(
        p.old_hit > 0
        or p.frame_match
        or p.slot_hit
        or p.aside_hit
        or p.polarity_flip
        or p.stance_turned
        or p.shared_value_names > 0
        or p.holder_replaced
        or gone is not None
    )


def _one_thing(c: Analysis, e: Analysis, embed: Embed | None, about: frozenset[str]) -> bool:
    """Whether the two say something of one thing once their values and the speaker's name
    are set aside (ONE_THING_FLOOR); without an embedder, as the rules read it."""
    if embed is None:
        return True
    return cos_masked(masked(c.text), masked(e.text), about, embed) >= ONE_THING_FLOOR
