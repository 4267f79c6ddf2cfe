"""Reactions: a sentence that only judges what was just said, shown or told ("That's a really
popular option", "That sounds like a lovely trip!", "Sounds like a hectic week", "Absolutely, that
makes a lot of sense", "What a game last night", "You're right, my bad"). It tells the listener
how the speaker takes something, not a fact about anybody, so it is small talk, like thanks.

A reaction is read by its form: a pointer with no content of its own ("that", "this", "it", or no
subject at all) judged by a verb of seeming ("sounds", "looks like") or by a copula and a word
of degree ("that's really ..."), "makes sense", an exclamation ("What a day", "How lovely"),
the listener's words granted ("You're right", "Good call") or feelings understood ("That must
have been exhausting", "I understand how stressful moving can be"). A concrete detail (a number, a
name, somebody's thing: "That's our house style") makes it a statement about the world. A
clause after the reaction keeps its own kind ("You're right, the deadline is the 14th").
Used by core/sentence_kinds.py. Pure Python."""

from __future__ import annotations

import re

from memory_pipelines.core.patterns import rx as _rx

_OPEN = (
    r"^\W*(?:(?:oh|ah+|aw+|right|wow|ha+|haha|lol|man|gosh|ugh|yeah|yes|yep|absolutely|definitely|"
    r"totally|honestly|well|oh no|no|ok(?:ay)?|hmm+|ooh|phew|whew|blimey|jeez|crikey|oof|god|"
    r"goodness|yikes|not gonna lie|ngl|tbh|to be honest|nice|cool|interesting|huh)\W+)*"
)
_POINTER = r"(?:that|this|it|which)"
_DEGREE = (
    r"(?:really|so|very|such|quite|pretty|way|too|super|rather|a bit|a little|kind of|sort of|"
    r"completely|perfectly|totally|entirely)"
)
REACTION = _rx(
    _OPEN + r"(?:"
    # a verb of seeming, with or without its pointer: "That sounds like a plan", "Looks great"
    rf"(?:{_POINTER}(?:'s| is| was)?\s+)?(?:sounds?|looks?|seems?|feels?)\s+(?:like\s+)?"
    r"(?!(?:it|they|he|she|we|you|i)\b)\w+|"
    # a copula and a word of degree: "That's a really popular option", "this is way too long"
    rf"{_POINTER}(?:'s| is| was)\s+(?:(?:a|an)\s+)?{_DEGREE}\s+\w+|"
    rf"{_POINTER}(?:'s| is| was)\s+(?:(?:quite|such) (?:a|an)\s+\w+|a lot\b)|"
    # the answer taken in: "that clears it up", "that helps"
    rf"{_POINTER} (?:clears?|cleared) (?:it|that|this|things) up\b|{_POINTER} (?:helps|helped)\W*$|"
    # sense made or not: "that makes a lot of sense", "makes total sense"
    rf"(?:{_POINTER}\s+)?makes?\s+(?:(?:a lot of|total|perfect|complete|more|no)\s+)?sense\b|"
    # what the listener must have felt: "That must have been exhausting", "Must be a relief"
    rf"(?:{_POINTER}(?:'s| is)?\s+)?must (?:have been|be)\s+\w+|"
    # understanding granted: "I understand how stressful moving can be", "I can see why"
    r"i (?:completely |totally |really |can )?(?:understand|see|get|know) (?:how|why)\b|"
    # news taken in: "Glad to hear it went well", "Can't believe it's December already"
    r"(?:(?:i'm|i am) )?(?:so |really )?(?:glad|happy|pleased|sad|relieved|thrilled) to hear\b|"
    r"(?:i )?can(?:'t|not) believe\b|(?:i )?(?:didn't|did not|never) know (?:that|this)\W*$|"
    # an exclamation, not a question: "What a game", "How lovely"
    r"what (?:a|an)\s+\w+(?![^?]*\?)|how (?:lovely|nice|cool|awful|annoying|funny|exciting|sad)\b|"
    # the listener's point granted, a choice praised: "You're right", "Good call", "Great choice"
    r"you(?:'re| are) (?:(?:absolutely|totally|quite|so) )?(?:right|correct)\b|"
    r"(?:great|good|nice|smart|wise|solid|excellent|fair) (?:choice|call|pick|plan|idea|"
    r"point|catch|start)\b"
    r")"
)
# A feeling said with a degree after a reaction carries it on: "That sounds amazing, I'm so
# jealous of my future self", "Oh no, I'm really sorry for them".
FEELING = _rx(
    r"^\W*(?:and\s+)?(?:i'm|i am|i feel|i was|we're|we are) (?:so+|really|very|super|quite|"
    r"totally|a bit|a little|kind of|incredibly|absolutely|honestly) (?!not\b)[a-z]+\b"
)
# A concrete detail: a number, a name inside the sentence, somebody's thing, somebody it is for.
_DETAIL = re.compile(
    r"\d|\b(?i:my|our|his|her|their)\b(?! (?i:bad)\b)|(?<=\w\W)\b[A-Z][a-z]+|"
    # somebody the judgement is about: "It's really hard for him to sleep without the fan"
    r"\b(?i:for (?:him|her|them|me|us|the (?:kids|children|baby)))\b"
)


def reaction_end(sent: str) -> int | None:
    """Where the reaction that opens sent ends (at its first clause break), or None when sent
    opens with no reaction or the reaction holds a concrete detail."""
    m = REACTION.match(sent)
    if not m:
        return None
    brk = re.search(r"[,;:!]|\s[-–—]\s", sent[m.end() :])
    end = m.end() + brk.start() if brk else len(sent)
    return None if _DETAIL.search(sent[:end]) else end


def feeling_after_reaction(sent: str) -> bool:
    """A reaction carried on by a feeling: "That sounds amazing, I'm so jealous of my future
    self" reacts; whatever its words, it states nothing. Not when a clause of its own follows:
    "..., I'm so glad we chose the heat pump because gas keeps climbing"."""
    reacted = reaction_end(sent)
    feeling = FEELING.match(sent[reacted:].lstrip(" ,;:!-\u2013\u2014")) if reacted else None
    rest = sent[reacted:].lstrip(" ,;:!-\u2013\u2014")[feeling.end() :] if feeling else ""
    own_clause = r"[,;:]|\b(?:but|because|since)\b|^\W*(?:that )?(?:i|we|he|she|they|you)\b"
    return bool(feeling) and not re.search(own_clause, rest, re.IGNORECASE)
