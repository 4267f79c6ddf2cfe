"""A request agreed to in a word: "can you send me the slides by Thursday?" / "sure, will do" is
a promise of the one who agreed, of what was asked, owed to the one who asked and due when the
request said. The agreement names nothing of the act, so the request is said again as the
pledge it became ("I'll send you the slides by Thursday"), and read as any pledge is."""

from __future__ import annotations

import re

from memory_pipelines.core.window_talk import ASKED_TO, REMIND_ME

# A turn that only agrees: "sure", "will do!", "ok, on it", "yes of course", "no problem",
# "consider it done", "you got it", "happy to", "I can do that".
_AGREES = re.compile(
    r"^\W*(?:(?:sure(?: thing)?|ok(?:ay)?|k|yes|yeah|yep|yup|of course|absolutely|definitely"
    r"|no problem|no prob|np|no worries|will do|can do|on it|i'?m on it|got it|you got it"
    r"|consider it done|happy to|glad to|i will|i can do that|i'?ll do that|i'?ll do it"
    r"|done|deal|for sure|sounds good)\b[\s,.!]*)+"
    r"(?:\W*(?:[a-z]+\W*)?)$",  # a name or an emoji after it: "will do, Maya!"
    re.IGNORECASE,
)
# ... or agrees and says when, nothing else: "will do, first thing tomorrow", "sure, by friday".
_AGREES_BY = re.compile(
    r"^\W*(?:sure(?: thing)?|ok(?:ay)?|yes|yeah|yep|of course|no problem|will do|can do|on it)"
    r"[\s,.!-]+(?P<when>(?:by |before |on |at |first thing |later )?(?:today|tonight|tomorrow"
    r"(?: morning| afternoon| evening)?|this (?:morning|afternoon|evening|week|weekend)"
    r"|(?:this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|next week|the weekend|end of (?:the )?(?:day|week|month)|\d{1,2}(?::\d{2})?\s*[ap]m"
    r"|noon|first thing(?: tomorrow)?))[\s.!]*$",
    re.IGNORECASE,
)
# What may end the act asked for: "please", the question mark.
_ASK_END = re.compile(r"[\s,]*(?:please|pls|plz)?[\s?!.]*$", re.IGNORECASE)
# The asker's own words, turned to the one who agreed ("send me" -> "send you").
_TURNED = {"me": "you", "my": "your", "mine": "yours", "us": "you", "our": "your"}
_TURN = re.compile(r"\b(?:me|my|mine|us|our)\b", re.IGNORECASE)
# An act the asker does themself ("can you tell mum I'll be late") cannot be turned round
# word for word.
_ASKER_ACTS = re.compile(r"\b(?:i|i'm|i'll|i've|i'd|we|we're|we'll)\b", re.IGNORECASE)


def agreed_pledge(reply: str, requests: list[str]) -> str | None:
    """The pledge a reply makes by agreeing to the request before it ("I'll send you the
    slides by thursday."), or None when the reply says more than yes, or the request asks no
    act that can be said back."""
    agreed = _AGREES.match(reply.strip()) or _AGREES_BY.match(reply.strip())
    if not requests or not agreed:
        return None
    request = requests[-1].strip()
    asked = ASKED_TO.match(request) or REMIND_ME.match(request)
    act = _ASK_END.sub("", request[asked.start("act") :], count=1) if asked else ""
    if not act or _ASKER_ACTS.search(act):
        return None
    act = _TURN.sub(lambda w: _TURNED[w.group(0).lower()], act)
    when = agreed.groupdict().get("when")
    return f"I'll {act} {when}" if when else f"I'll {act}"
