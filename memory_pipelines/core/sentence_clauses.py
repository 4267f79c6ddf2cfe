"""Clauses of a chat sentence that are no part of its claim, taken off before it is judged.

Talk about the conversation's own time ("Much has happened since we last spoke - I went to a
conference" -> "I went to a conference") and a mood set beside a fact ("It's been tough, but
I'm living my true self" -> "I'm living my true self"; "I took my fam camping last week - it
was a really nice time!" -> "I took my fam camping last week") make a memory longer and less
about its one claim. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory_pipelines.core.moods import is_mood

_TALKED = (  # the longer first: "since we chatted last" leaves no "last"
    r"(?:(?:talked|spoke|chatted) last(?: time)?|spoke|talked|chatted|caught up|saw each other)"
)
# "since we last spoke", "since our last chat": when the conversation last took place.
_SINCE = re.compile(
    rf"\s*,?\s*\bsince (?:we|i) (?:last |had )?{_TALKED}\b|"
    r"\s*,?\s*\bsince (?:our|the) (?:last|previous) (?:chat|talk|conversation|catch-up|call)\b",
    re.IGNORECASE,
)
# "A lot's happened", "Some big things have happened", "Crazy thing happened": news announced,
# not told.
_ANNOUNCED = re.compile(
    r"^\W*(?:(?:a lot|lots|much|so much|loads|tons|a bunch)(?:'s| has)?|"
    r"(?:some|a few|many|so many)?\s*(?:\w+\s+)?things?(?:'ve| have| has)?|"
    r"something(?: \w+)?(?:'s| has)?)\s+(?:happened|been (?:going on|happening))\b"
    r"(?=\s*(?:[-–—,;:.!]|$))[\s,;:.!–—-]*",
    re.IGNORECASE,
)
# Where a sentence breaks into clauses that each say something: a dash, a semicolon, ", but".
_BREAK = re.compile(r"\s+[-–—]+\s+|\s*;\s+|,\s+but\s+|\s+but\s+(?=(?:i|we|it|that)\b)", re.I)


def without_chat_time(sentence: str) -> str:
    """The sentence without talk of the conversation's own time ("" when that is all of it)."""
    rest = _SINCE.sub("", sentence).strip().lstrip(",;: ")
    rest = _ANNOUNCED.sub("", rest, count=1).strip()
    if not rest or not re.search(r"[A-Za-z]{2}", rest):
        return ""
    if rest == sentence:
        return sentence
    rest = rest[:1].upper() + rest[1:]
    return rest if re.search(r"[.!?]$", rest) else rest.rstrip(" ,;:-") + "."


# A clause that asks or wishes something of the listener beside the fact: "My show opens on
# Friday, it'd mean a lot if you came", "I'm in Leeds now, you should visit".
_TO_LISTENER = re.compile(
    r"\b(?:if you (?:came|come|could|can|would)|hope (?:you|to see you)|you should (?:come|visit"
    r"|join|drop by|pop by)|you'?re (?:welcome|invited) to|would you like to|let me know if you)\b",
    re.IGNORECASE,
)


# An apology for a slip, closing the sentence: "peanuts are totally fine, my bad", "..., sorry
# about that". No part of the fact, and in the third person it reads as somebody's ("Paula's
# bad").
_APOLOGY_END = re.compile(
    r"(?:\s*[,;:]|\s+-)\s*(?:(?:oops|whoops|sorry|lol|haha)\W+)*(?:my bad|my mistake|"
    r"my apologies|sorry about that|sorry for the confusion|sorry)\W*$",
    re.IGNORECASE,
)


def without_apology(sentence: str) -> str:
    """The sentence without an apology closing it, when something is said before it."""
    m = _APOLOGY_END.search(sentence)
    if m is None or len(sentence[: m.start()].split()) < 3:
        return sentence
    end = sentence.rstrip()[-1:] if sentence.rstrip()[-1:] in ".!" else ""
    return sentence[: m.start()].rstrip() + end


def without_mood_clause(sentence: str, about: Callable[[str], bool]) -> str:
    """The sentence without the clauses that only tell a mood or ask something of the listener
    (_TO_LISTENER), when another clause tells more and is still `about` somebody: "It's been
    tough, but I'm living my true self" -> "I'm living my true self"; not "Contemporary dance
    is graceful - it really speaks to me"."""
    pieces = _BREAK.split(sentence)
    if len(pieces) < 2:
        return sentence
    kept = [p for p in pieces if not is_mood(p) and not _TO_LISTENER.search(p)]
    if not kept or len(kept) == len(pieces) or not any(about(p) for p in kept):
        return sentence
    end = sentence.rstrip()[-1:] if sentence.rstrip()[-1:] in ".!?" else "."
    text = ", ".join(p.strip().rstrip(".!?,;") for p in kept)
    return text[:1].upper() + text[1:] + end


# A last clause that only asks the listener to keep what was said: "my EpiPen expires in June,
# remind me?" says what to keep before it.
_KEEP_IT = re.compile(
    r"^(?:(?:can|could|would|will) you |pls |please )?(?:remind me|note (?:that|it|this)"
    r"|make a note(?: of (?:that|it|this))?|remember (?:that|this|it)|keep (?:that|this|it) in"
    r" mind|save (?:that|this|it)|write (?:that|this|it) down|don't let me forget)"
    r"(?: (?:please|pls|thanks|ok|okay))?\W*$",
    re.IGNORECASE,
)


# ... or asks the listener's help with it: "my daughter starts school on sept 4th, can you help
# me make a checklist"
_HELP_ME = re.compile(
    r"^(?:so |and )?(?:(?:can|could|would|will) you (?:please |pls )?|pls |please )?help me\b",
    re.IGNORECASE,
)


def without_ask_of_listener(sentence: str) -> str:
    """The sentence without a last clause that asks or wishes something of the listener
    ("My first show opens on Friday, it'd mean a lot if you came" -> "My first show opens on
    Friday."; "My EpiPen expires in June, remind me?" -> "My EpiPen expires in June."; "...,
    can you help me make a checklist"), when
    what is left is a statement of its own (four words or more)."""
    head, comma, tail = sentence.rpartition(", ")
    if not comma or len(head.split()) < 4:
        return sentence
    if not (_TO_LISTENER.search(tail) or _KEEP_IT.match(tail) or _HELP_ME.match(tail)):
        return sentence
    return head.rstrip(" ,;") + "."


# A request first and the speaker's own statement after it: "can you help me outline the q3
# report, I told Ingrid I'd have it to her by Thursday"
_REQUEST_FIRST = re.compile(
    r"^\W*(?:(?:so|ok|okay|hey|hi)\W+)?(?:(?:can|could|would|will) you |pls |please )"
    r"(?:please |pls )?(?:help me )?(?P<act>[^,;?]+?)\s*[,;]\s+"
    r"(?P<rest>(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b.+)$",
    re.IGNORECASE,
)
_ITS_OBJECT = re.compile(r"\b(?:the|my|our|this|that)\s+[\w' -]+$", re.IGNORECASE)


def without_request_first(sentence: str) -> str:
    """The speaker's statement after a request that opens the sentence, its "it" put as what the
    request named ("can you help me outline the q3 report, I told Ingrid I'd have it to her by
    Thursday" -> "I told Ingrid I'd have the q3 report to her by Thursday"); the sentence itself
    when it opens with no request, or no statement of four words or more follows it."""
    m = _REQUEST_FIRST.match(sentence)
    if m is None or len(m["rest"].split()) < 4:
        return sentence
    rest = m["rest"]
    thing = _ITS_OBJECT.search(m["act"])
    if thing is not None:
        rest = re.sub(r"\b(?:it|them)\b", thing.group(), rest, count=1)
    return rest[:1].upper() + rest[1:]
