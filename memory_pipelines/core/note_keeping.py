"""A future that only keeps a note ("I'll note it", "I'll put that in the calendar"): no
promise to anyone, and no part of the fact it follows ("Swimming moved to Thursdays, I'll add
it to the family calendar")."""

from __future__ import annotations

import re

from memory_pipelines.core.promises import future_act

# "I'll write it on the fridge whiteboard", "I'll put that in the calendar": a note kept.
_NOTED = re.compile(
    r"^(?:write|put|add|pop|stick|save|pin)\s+(?:it|that|this|them)\s+(?:down\b|(?:on|in|to|into)"
    r"\s+(?:the|my|our)\s+(?:[\w-]+\s+){0,2}(?:calendar|diary|notes?|whiteboard|board|list"
    r"|planner|phone|app|reminders?)\b)",
    re.IGNORECASE,
)


def bookkeeping(clause: str) -> bool:
    """'I'll note it', 'we will keep that in mind', 'I'll write it on the whiteboard': a future
    that only keeps a note."""
    m = future_act(clause)
    if m is None:
        return False
    verb = m.group("verb").lower()
    return verb in ("note", "remember", "keep", "bear", "jot") or bool(
        _NOTED.match(clause[m.start("verb") :])
    )


def without_bookkeeping(sentence: str) -> str:
    """The sentence without clauses that only keep a note ("...; I'll note it")."""
    clauses = re.split(r"(?<=[;,:])\s+|\s+(?=(?:and|so) (?:i|we)\b)", sentence)
    kept = [c for c in clauses if not bookkeeping(c)]
    if len(kept) == len(clauses):
        return sentence
    return " ".join(kept).strip(" ;,:") + ("." if kept else "")
