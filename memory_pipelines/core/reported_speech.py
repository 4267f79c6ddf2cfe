"""Reported speech in a chat sentence: "The user asked me a question about the weather" reports
a speech act and says nothing; "Ana said she moved to Porto" reports a statement, and only what
was said can be a memory. Pure Python, no model.
"""

from __future__ import annotations

import re

# Reported speech: "The user asked me a question about the weather", "I told the user that
# ...". The frame says who spoke to whom; only what was said can be a memory.
_ONE_PARTY = r"(?:the )?(?:user|assistant|agent|bot|customer|i|we|you|they|he|she|[A-Z][a-z]+)"
_PARTY = rf"{_ONE_PARTY}(?:\s+and\s+{_ONE_PARTY})?(?:\s+both)?"  # "The user and I talked ..."
_REPORT = re.compile(
    rf"^\W*{_PARTY}\s+(?:just\s+|then\s+|also\s+)?(?P<verb>asked|told|said|mentioned|explained|noted"
    r"|wanted to know|wondered|thanked|greeted|replied|answered|responded|chatted|talked|spoke"
    r"|discussed|requested|wrote|messaged|pinged|apologi[sz]ed|welcomed|clarified|confirmed"
    r"|brought up|inquired|enquired|suggested|recommended|proposed|advised)\b"
    r"(?:\s+(?:to\s+|with\s+)?(?:me|us|you|him|her|them|the (?:user|assistant|agent|bot)))?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# Reports of a proposal: what follows is a suggestion, not something that is so.
PROPOSED = re.compile(
    rf"^\W*{_PARTY}\s+(?:just\s+|then\s+|also\s+)?(?:suggested|recommended|proposed|advised)\b",
    re.IGNORECASE,
)
# Speech acts that carry no statement whatever follows them ("thanked me for the recipe").
_SOCIAL = re.compile(
    r"\b(?:thanked|greeted|welcomed|apologi[sz]ed|chatted|talked|spoke)\b", re.IGNORECASE
)
# What a report is about when it carries no statement: "a question about X", "about X", "for
# help", "hello", "thanks", "how to ...".
_SPEECH_ACT = re.compile(
    r"^\W*(?:(?:a|an|some|the|another|few|couple of|several)\s+)*(?:\w+\s+)?"
    r"(?:questions?|things?|favou?rs?|help|advice|clarification|hello|hi|thanks|goodbye|bye"
    r"|greetings?|chat|conversation|summary|recap|update|request)\b"
    r"|^\W*for\s+(?:(?:a|an|some|more)\s+)?(?:help|advice|clarification|a hand|hand|summary"
    r"|recap|update|feedback|ideas|suggestions|tips|examples?|explanation)\b"
    r"|^\W*(?:about|how|what|when|where|why|who|which|if|whether)\b"
    r"|^\W*(?:to|with)\s+(?:the\s+)?\w+\W*$"
    r"|^\W*$",
    re.IGNORECASE,
)


# Verbs whose object is never a statement.
_ONLY_ACTS = frozenset(
    ("thanked", "greeted", "welcomed", "apologised", "apologized", "pinged", "chatted")
)


def reported_content(sentence: str) -> str | None:
    """What a sentence of reported speech says, without its frame: "" when it only reports a
    speech act ("The user asked me a question about the weather"), the statement when it
    reports one ("The user told me that she is allergic to kiwi" -> "she is allergic to kiwi"),
    None when the sentence is no report."""
    m = _REPORT.match(sentence.strip())
    if not m:
        return None
    if m.group("verb").lower() in _ONLY_ACTS:
        return ""  # "thanked me for the recipe", "apologised for the delay"
    rest = m.group("rest").strip()
    frame = sentence[: m.start("rest")]
    if re.match(r"^\W*i\s", frame, re.I) and not re.search(
        r"\b(?:you|the (?:user|assistant|agent|bot))\b", sentence, re.I
    ):
        return None  # "I talked about my journey at the school event": what the speaker did
    if _SOCIAL.search(frame):
        return ""  # thanking, greeting, chatting: the act is all there is, whatever it was for
    rest = re.sub(r"^(?:that|:)\s+", "", rest, flags=re.IGNORECASE)
    return "" if _SPEECH_ACT.match(rest) else rest
