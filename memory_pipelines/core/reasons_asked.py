"""A decision's reason, given when somebody asks why.

"we're going with Svelte instead of React for the admin dashboard" / "What tipped it?" /
"bundle size mostly, the React build was like 3x bigger": the spec saves a decision with its
why, and said within one turn it is joined to it (core/extract_parts._with_reasons). Asked for
in the next turn, the reason came in the turn after that, where it was a memory of its own
("Bundle size mostly, ...": of what?) or none at all ("yeah it floods every time it rains",
after "club decided to move all training to the indoor hall" / "why, the pitch again?").
So the first sentence of the decider's answer is the decision's reason, joined to it.
Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.window_turn import WindowTurn

# A question for a reason: "why?", "why, the pitch again?", "how come?", "What tipped it?",
# "what made you pick it?", "what's the reason?"
_WHY = re.compile(
    r"^\W*(?:(?:oh|ooh|ok|okay|so|and|but|wait|hm+|huh)\W+)*"
    r"(?:why\b|how come\b|what (?:tipped|swung|decided|changed|made)\b|"
    r"what(?:'s| is| was) the (?:reason|thinking)\b|any (?:reason|particular reason)\b)",
    re.IGNORECASE,
)
_MAX_QUESTION_WORDS = 12


def asks_why(text: str) -> bool:
    """Whether a turn asks for a reason, and nothing else: short, a question."""
    return "?" in text and len(text.split()) <= _MAX_QUESTION_WORDS and bool(_WHY.match(text))


def decision_asked_why(
    window: Sequence[WindowTurn], i: int, made: Sequence[dict[str, Any]]
) -> int | None:
    """The index in `made` (the candidates so far) of the decision that turn `i` gives the
    reason for: its speaker's decision two turns before, which the turn between, another
    speaker's, asked why of. None when turn `i` answers no such question."""
    if i < 2 or window[i - 2].context or window[i - 1].who == window[i].who:
        return None
    if window[i - 2].who != window[i].who or not asks_why(window[i - 1].text):
        return None
    decided = [
        n
        for n, cand in enumerate(made)
        if cand["category"] == "decision" and cand["to_seq"] == window[i - 2].seq
    ]
    return decided[-1] if decided else None


# "yeah" confirming the asker's guess ("why, the pitch again?" / "yeah it floods ..."), said
# with no comma to set it off
_YES = re.compile(r"^\W*(?:yeah|yep|yes|yup|well|honestly|basically)\b\W*", re.IGNORECASE)


def the_reason(turn: WindowTurn) -> str:
    """What a turn answering "why?" gives as the reason: its first sentence, without a "yeah"
    that only confirms the asker's guess."""
    said = sentence_kinds.sentences(turn.text)
    return _YES.sub("", said[0]) if said else ""
