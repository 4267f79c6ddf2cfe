"""Episodes: a one-off happening of the last few hours told as news ("Just burnt my toast",
"Spilled coffee all over my notes this morning", "Had a weird dream about exams last night",
"My cat just walked across the keyboard"). Nothing in it holds tomorrow, so the save policy
reads it as small talk, not a fact (core/policy.py).

An episode is a past verb anchored in the very recent past ("just", "just now", "this morning",
"last night", "earlier today", "on the way in", "an hour ago", "at lunch"). A change that lasts
is no episode, however recent: a move, an adoption, a purchase, a job or a relationship begun or
ended, a switch of tool ("We adopted a puppy this morning", "Just switched banks"); nor is a
result with a number, a cause or a finding, nor anything about health and safety
(core/health_safety.SAFETY). Outcomes ("Passed my driving test this morning") are read before
this, as shipped outcomes.

A recap (`is_recap`) tells what a conversation was about, not what came of it ("Today we had a
long session about the family, work and plans", "This conversation covered the importer, the
billing bug and the offsite"): the history channel keeps the conversation itself, so it is no
memory either. One with an outcome (a decision, an agreement, a plan, a number, a finding) is
no recap. Pure Python."""

from __future__ import annotations

import re

from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.patterns import rx as _rx
from memory_pipelines.core.sentence_kinds import norm

# past forms in -t and others the shared list lacks: "burnt", "spilt", "woke up"
_PAST_MORE = r"burnt|spilt|slept|woke|stuck|tore|threw|shook|drew|bit|hid|slid|spun|stole|wore|dug"
_RECENT = _rx(
    rf"\bjust (?:now\b|(?:\w+ly )?(?:{PAST_VERB}|{_PAST_MORE})\b)|"
    r"\bthis (?:morning|afternoon|evening)\b|"
    r"\blast night\b|\bearlier\b|\bon the (?:way|drive|walk|train|bus) "
    r"(?:in|home|back|to work|over)\b|\b(?:an|one|two|a few|\w+ty|ten|twenty) "
    r"(?:minutes?|hours?) ago\b|\bwhen i woke up\b|\b(?:at|over) lunch(?:time)?\b|"
    r"\bon my lunch break\b|\bafter work\b|\b(?:the )?(?:whole|entire) (?:morning|afternoon|day)\b"
)
_PAST = _rx(rf"\b(?:was|were|{PAST_VERB}|{_PAST_MORE})\b")
# Changes that last: what follows them still holds after today.
LASTING_CHANGE = _rx(
    r"\bmoving (?:in|into|out|house|home)\b|"
    r"\bnew (?:flat|house|home|job|place|office|school|role|car|baby|puppy|kitten)\b|"
    r"\b(?:mov|adopt|marri|engag|divorc|separat|join|retir|hir|fir|promot|graduat|diagnos|"
    r"switch|chang|replac|cancell?|decid|opt|settl|start|stopp|sign|book|register|enroll?|"
    r"install|upgrad|renew|subscrib|rent|launch|accept|resign|pick)ed\b|"
    r"\b(?:bought|sold|quit|chose|left|born|died|passed away|broke up|split up|took up|gave up "
    r"(?!and)\w+|got (?:a|an|the|my|our) (?:new )?(?:job|house|flat|dog|cat|puppy|kitten|car|"
    r"place|offer|keys)|got (?:married|engaged|divorced|promoted|hired|fired|the job))\b"
)

# A number, a cause or a finding after a colon tells a result worth keeping ("Last night's
# backup took 14 minutes", "I checked the logs this morning: the disk was full").
_FINDING = _rx(r"\d|\bbecause\b|\bsince\b|\bdue to\b|\bso that\b|:\s*\S")


# A clause with no past verb that says what is or will be ("Dad rang earlier, he's moving to
# Spain") tells something beside the happening.
_CLAUSE = re.compile(r"\s*[,;\u2013\u2014]\s*|\s+-\s+|\s+(?:so|but|and|because)\s+")
_NOW = _rx(
    r"(?:'re|'m|'ll)\b|\b(?:is|are|am|will|won't|isn't|aren't|has|have)\b|"
    r"\b(?:he|she|it|that|there|who|what)'s\b"
)


def _tells_more(low: str) -> bool:
    return any(_NOW.search(c) and not _PAST.search(c) for c in _CLAUSE.split(low))


def is_episode(sent: str) -> bool:
    """Whether a sentence tells a one-off happening of the last few hours and nothing lasting."""
    low = norm(sent)
    return bool(
        not _tells_more(low)
        and _RECENT.search(low)
        and _PAST.search(low)
        and not LASTING_CHANGE.search(low)
        and not SAFETY.search(low)
        and not _FINDING.search(low)
    )


# A conversation of any kind, named as a thing ("the session", "our call", "today's standup").
_MEETING = (
    r"(?:conversation|session|chat|call|meeting|discussion|catch-?up|talk|thread|sync|"
    r"stand-?up|one-on-one|1:1)s?"
)
# ... as the subject of what it was about: "This conversation covered ...", "The call was
# about ...", "Today's meeting focused on ..." (not "was on": "The call was on Tuesday")
_ITS_TOPICS = _rx(
    r"\b(?:this|the|that|our|today's|yesterday's|tonight's|last|the whole)\s+(?:\w+\s+)?"
    rf"{_MEETING}\s+(?:was (?:all |mostly |mainly )?about|covered|went over|touched on|"
    r"focused on|dealt with|centred on|centered on|revolved around|ranged over)\b"
)
# ... or had about something: "we had a long session about ...", "Ana and others spent an
# hour-long call going over ..." (not "did a talk on Kubernetes": a talk given)
_HAD_ONE = _rx(
    r"\b(?:had|spent)\s+(?:a|an|the|our|another|some)\s+(?:[\w-]+\s+){0,2}?"
    rf"{_MEETING}\s+(?:about|covering|going over|regarding)\b"
)
# ... or topics gone over, listed: "we talked about the garden, the roof and the budget"
_TALKED_OVER = _rx(
    r"\b(?:we|they|\w+ and (?:i|others))\s+(?:\w+ly\s+)?(?:talked|chatted|spoke|went over|"
    r"covered|caught up)\s+(?:about|on)\b[^.;]*,[^.;]*\band\b"
)
# What came of it: a decision, an agreement, a plan, a next step, something learned
_OUTCOME = _rx(
    r"\b(?:decid|agree|chose|choos|picked|settled|conclud|learn|found out|realis|realiz|promis|"
    r"planned|planning|plans? to|resolv|fixed|signed|booked|will|won't|going to|gonna|need to|"
    r"needs to|must|should|next step|action item)\w*"
)
# ... or anything told beside it, in a clause of its own: "... and I loved it", "..., which
# we lost", "... and now I'm maxing out my ISA"
_MORE_SAID = _rx(
    r"(?:\b(?:and|but|which|who|so|because|then|where|after)|[,;:])\s+(?:\w+\s+)?"
    r"(?:i|we|he|she|they|it|that|this|now|i'm|we're|it's|they're)\b"
)


def is_recap(sent: str) -> bool:
    """Whether a sentence tells what a conversation was about and nothing that came of it."""
    low = norm(sent)
    found = _ITS_TOPICS.search(low) or _HAD_ONE.search(low) or _TALKED_OVER.search(low)
    return bool(
        found
        and not _MORE_SAID.search(low, found.end())
        and not _OUTCOME.search(low)
        and not SAFETY.search(low)
        # a date put beside it ("Today (1 June 2024) we had ...") is no finding
        and not _FINDING.search(re.sub(r"\([^)]*\)", "", low))
    )
