"""Reported speech: "The user asked me a question about the weather", "Ana said she moved to
Porto". The frame says who spoke to whom; only what was said can be a memory. Used by
core/sentence_kinds.py. Pure Python."""

from __future__ import annotations

import re

_ONE_PARTY = r"(?:the )?(?:user|assistant|agent|bot|customer|i|we|you|they|he|she|[A-Z][a-z]+)"
_PARTY = rf"{_ONE_PARTY}(?:\s+and\s+{_ONE_PARTY})?(?:\s+both)?"  # "The user and I talked ..."
# An interjection before the frame: "No, you misread my question".
_OPENER = r"^\W*(?:(?:no|yes|yeah|oh|well|sorry|lol|haha|hmm+|ok(?:ay)?|wait|actually|um+|ah)\W+)*"
# A frame may be progressive ("I was asking about ...", "I'm talking about ...").
_AUX = (
    r"(?:'m|'re|'s)?\s+(?:(?:was|were|am|is|are)\s+)?(?:just\s+|then\s+|also\s+|only\s+)?"
    r"(?:(?:never|didn't|did not|don't|do not)\s+)?"  # "I never said that"
)
_REPORT = re.compile(
    rf"{_OPENER}{_PARTY}{_AUX}(?P<verb>asked|told|said|mentioned|explained|noted"
    r"|wanted to know|wondered|thanked|greeted|replied|answered|responded|chatted|talked|spoke"
    r"|discussed|requested|wrote|messaged|pinged|apologi[sz]ed|welcomed|clarified|confirmed"
    r"|brought up|inquired|enquired|suggested|recommended|proposed|advised"
    # pointing at what was meant, and getting it wrong: the talk itself is the topic
    r"|meant|mean|asking|talking|referring|misunderstood|misunderstand|misread|misheard"
    r"|misspoke|say|ask)\b"
    r"(?:\s+(?:to\s+|with\s+)?(?:me|us|you|him|her|them|the (?:user|assistant|agent|bot)))?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# Reports of a proposal: what follows is a suggestion, not something that is so.
PROPOSED = re.compile(
    rf"{_OPENER}{_PARTY}{_AUX}(?:suggested|recommended|proposed|advised)\b",
    re.IGNORECASE,
)
# Reports of a request to the other party: "The user asked me to redo the chart".
# The parties are the chat's: "the doctor told me to cut back on salt" is the doctor's advice,
# a fact of the speaker's health, not a task asked of the assistant.
_CHAT_PARTY = (
    r"(?:(?:the )?(?:user|assistant|agent|bot|customer)|i|we|you|they|he|she|(?-i:[A-Z][a-z]+))"
)
REQUESTED = re.compile(
    rf"{_OPENER}{_CHAT_PARTY}(?:\s+and\s+{_CHAT_PARTY})?{_AUX}(?:asked|requested|wanted|told)\s+"
    r"(?:me|us|you|the (?:assistant|agent|bot))\s+to\b",
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
    + ("misunderstood", "misunderstand", "misread", "misheard", "misspoke")
)
# Verbs that point at something said before ("I meant the red one", "I was asking about the
# second table"): a noun phrase after them is a referent in the talk, not a statement; a clause
# is one ("I meant that we move in June", "I mean we're moving in June"). The progressive ones
# point only with their preposition ("talking about", not "talking to a lawyer").
_POINTING = {"meant": "", "mean": "", "asking": "about", "talking": "about", "referring": "to"}
_CLAUSE = re.compile(r"^\W*(?:that\s|(?:i|we|you|he|she|they|it|there)(?:'\w+)?\s+\w)", re.I)


def reported_content(sentence: str) -> str | None:
    """What a sentence of reported speech says, without its frame: "" when it only reports a
    speech act ("The user asked me a question about the weather"), the statement when it
    reports one ("The user told me that she is allergic to kiwi" -> "she is allergic to kiwi"),
    None when the sentence is no report."""
    m = _REPORT.match(sentence.strip())
    if not m:
        return None
    verb, rest = m.group("verb").lower(), m.group("rest").strip()
    if verb in _ONLY_ACTS:
        return ""  # "thanked me for the recipe", "apologised for the delay"
    if verb in _POINTING:
        if not rest.lower().startswith(_POINTING[verb]) or rest.lower().startswith("to "):
            # "I'm talking to a lawyer", "I meant to tell you ...": the sentence says it
            return None
        if re.search(r"\d|,\s*(?:which|who|where|whose)\b", rest):
            return rest  # the referent carries a fact: "the Leeds flat, which we bought in 2021"
        if not _CLAUSE.match(rest):
            return ""  # "I meant the red one"
    if verb == "said" and re.match(r"(?:yes|no)\s+to\b", rest, re.I):
        return None  # "Leah said yes to Edinburgh": an offer taken or turned down, no report
    frame = sentence[: m.start("rest")]
    if re.match(r"^\W*i\s", frame, re.I) and not re.search(
        r"\b(?:you|the (?:user|assistant|agent|bot))\b", sentence, re.I
    ):
        return None  # "I talked about my journey at the school event": what the speaker did
    if _SOCIAL.search(frame):
        return ""  # thanking, greeting, chatting: the act is all there is, whatever it was for
    if re.fullmatch(r"\W*(?:that|this|it|so)\W*", rest, flags=re.IGNORECASE):
        return ""  # "I never said that": pointing at what was said
    rest = re.sub(r"^(?:that|:)\s+", "", rest, flags=re.IGNORECASE)
    return "" if _SPEECH_ACT.match(rest) else rest
