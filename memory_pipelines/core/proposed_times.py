"""A new time asked for and agreed to: "ill have the budget draft to u by wed eod" ...
"scratch that, finance is late. can we say fri morning?" / "fine, fri morning works".

The one who set the time asks to move it ("can we say ...?", "could I make it ...
instead?", "how about ... instead?"), and the other agrees. The time agreed puts right the
asker's own earlier sentence that held a time, as "make that Friday morning" said by them
would (core/corrections.repair_earlier); the agreement is no fact of its own. A time asked
for and not agreed to ("can we say Friday?" / "no, Wednesday please") puts nothing right.
Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.corrections import repair
from memory_pipelines.core.window_turn import WindowTurn

# "can we say fri morning?", "could I make it Thursday instead?", "how about Monday instead?"
_ASKS_TO_MOVE = re.compile(
    r"(?:^|[.,;!]\s*)(?:(?:so|ok|okay|hmm|actually|instead)\W+)*"
    r"(?:(?:can|could)\s+(?:we|i)\s+(?:say|make\s+(?:it|that)|do|push\s+it\s+to|move\s+it\s+to)"
    r"|how\s+about|what\s+about)\s+(?P<time>[^?,.;!]+?)(?:\s+instead)?\s*\?\s*$",
    re.IGNORECASE,
)
# The other's yes, first thing in their turn: "fine", "sure", "ok", "works for me".
_AGREES = re.compile(
    r"^\W*(?:fine|sure|ok|okay|k|yes|yep|yeah|ya|yup|no problem|np|of course|deal|perfect"
    r"|great|works|that works|sounds good|all good|no worries)\b(?!\s*,?\s*but\b)",
    re.IGNORECASE,
)


def agreed_time(window: Sequence[WindowTurn], i: int) -> str | None:
    """The time the turn before turn `i` asked to move to, when turn `i` (another speaker's)
    agrees to it; None otherwise. The time is as said, read as a bare repair's value (a
    date, a weekday or a time of day)."""
    if i == 0 or window[i - 1].who == window[i].who or not _AGREES.match(window[i].text):
        return None
    asked = sentence_kinds.sentences(window[i - 1].text)
    m = _ASKS_TO_MOVE.search(asked[-1]) if asked else None
    if m is None:
        return None
    fixed = repair(f"make that {m.group('time')}")
    return fixed[1].new if fixed is not None and fixed[1].bare else None
