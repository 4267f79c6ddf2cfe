"""What makes small talk concrete enough to keep: a detail (a number, somebody's thing, "by the
way"), a lasting state ("I'm ..."), an event with its time ("I graduated last week"); and whether
a plain sentence says enough to keep ("the train got cancelled again this morning" is the day's
news). Used by core/sentence_kinds.py (which re-exports norm and plain_statement). Pure Python."""

from __future__ import annotations

import re

from memory_pipelines.core.patterns import rx as _rx

DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
SPAN = r"(?:week|month|year|weekend|morning|afternoon|evening|quarter|term)"
FACT_SIGNAL = _rx(  # a concrete detail that makes small talk worth keeping
    # "my flat", not "saved my afternoon": a time of the speaker's is no detail to keep
    r"\d|\b(?:my|our|his|her|their) (?!(?:morning|afternoon|evening|night|day|week|weekend)\b)\w+|"
    r"\b(?:i'm|i am|we're|we are) (?:a|an)\b|\bbtw\b|\bfyi\b|"
    r"\bbefore i forget\b|\bby the way\b|\bjust so you know\b|\bfor the record\b|\bheads up\b|"
    r"\b(?:is|are) now\b"
)
STATIVE = _rx(r"^\W*(?:i'm|i am|we're|we are|i have|we have|i've got|we've got)\b")
# A detail beyond somebody's thing: "I'm practising my French today" is the day's doing, where
# "I'm in room 4 today" or "btw I'm off today" still tells a detail.
STRONG_SIGNAL = _rx(
    r"\d|\b(?:i'm|i am|we're|we are) (?:a|an)\b|\bbtw\b|\bfyi\b|\bby the way\b|"
    r"\bbefore i forget\b|\bjust so you know\b|\bfor the record\b|\bheads up\b"
)
TRANSIENT = _rx(r"\b(?:today|tonight|right now|this (?:morning|afternoon|evening)|at the moment)\b")
# Something that happened to the speaker: "I adopted a dog last week", "we went to Lisbon".
EVENT = _rx(
    r"^\W*(?:i|we)(?: just| finally| also| recently)? (?:\w+ed|went|got|made|took|ran|saw|met|"
    r"bought|found|gave|won|lost|began|wrote|built|sold|left|became|moved)\b"
)
# When an event happened: "I graduated last week" tells something where "I missed it" does not.
WHEN = _rx(
    rf"\b(?:yesterday|today|tonight|(?:last|this|next) {SPAN}|{DAY}|ago|recently|january|"
    r"february|march|april|june|july|august|september|october|november|december)\b|"
    r"\b(?:19|20)\d\d\b"
)


# The thing an event of the speaker's got, lost or changed, named by a noun after "a", "an",
# "my" or "our" that ends the sentence ("adopted a dog", "sold my car"); not a pronoun ("did
# it") nor a time of theirs ("lost my morning").
_THING_GOT = _rx(
    r"\b(?:a|an|my|our)\s+(?!(?:morning|afternoon|evening|night|day|week|weekend|time|mind|"
    r"bit|lot|go|chance|moment|break|look|minute|while|nap|blast|ball)\b)[a-z-]{3,}\W*$"
)


# A change in who a person is to others, news however short: a job got or lost, a union begun
# or ended, a birth, a death, a move of home, a test passed or failed ("I got fired", "we got
# engaged!!", "Rita fired me", "mum passed away", "moved out last week", "I PASSED!!"). Not the
# same words of a mood or a thing ("I'm fired up", "engaged in the talk", "let go of it"):
# a word of such a change ending its clause or followed by what may follow its verb, not
# by a noun it qualifies ("a retired pilot", "married life")
_CHANGED = (
    r"(?:engaged(?! (?:in|with|by)\b)|married|divorced|separated|pregnant|fired(?! up\b)|sacked"
    r"|hired|promoted|retired|graduated|redundant|dumped|widowed|laid off|let go(?! of\b)|born"
    r"|quit|passed(?! away| out| by| on| off| through| over| round| around| it| him| her| them)"
    r"|failed(?! to\b))"
    rf"(?=\s*(?:$|[^\w\s']|\d|{DAY}|(?:me|us|him|her|them|you|from|in|on|at|last|this|next|"
    r"yesterday|today|tonight|recently|and|but|to|with|after|since|so|lol|haha|omg|again|now|"
    r"early|finally|a|an|"
    r"the|my|his|her|our|their|for|over|because|just|too|btw|tbh|yet|already|ago|when|while)\b))"
)
_LIFE_EVENT = _rx(
    rf"\b(?:{_CHANGED}|(?:broke|broken|split|splitting|breaking) up|passed away"
    r"|moved (?:out|in|house|away|back|abroad|home)|proposed to (?:me|us|him|her|them)"
    r"|(?:quit|resigned from|left) (?:my|his|her|their|our) (?:job|work|post|role|position)"
    r"|(?:had|having|expecting) (?:a|our|her|their|my) (?:baby|first|second|third))\b"
)


def life_event(sent: str) -> bool:
    """Whether a sentence tells a change in somebody's life that is news however briefly told
    (`_LIFE_EVENT`): a job got or lost, an engagement, a marriage or its end, a birth, a
    death, a move of home."""
    low = norm(sent)
    # of a person, not a thing's ("The married couple next door are loud")
    if _THING_FIRST.match(low):
        return False
    # done, not willed, feared or denied ("I won't quit", "want to get married")
    return any(not _NOT_DONE.search(low, 0, m.start()) for m in _LIFE_EVENT.finditer(low))


_THING_FIRST = _rx(r"^\W*(?:the|a|an|this|that|these|those|some|any|every)\b")
_NOT_DONE = _rx(
    r"\b(?:won't|wont|will|would|wouldn't|don't|dont|never|not|can't|cant|to|gonna|should|might|"
    r"may|could|if|'ll|'d)\s+(?:(?:get|be|been|ever|just|really|finally)\s+)?$"
)


def norm(text: str) -> str:
    """Lower case, straight apostrophes, single spaces."""
    return " ".join(text.lower().replace("\u2019", "'").split())


def plain_statement(sent: str) -> bool:
    """Whether a plain sentence (no save reason, no concrete detail) still says something
    worth keeping: five words or more, and not dated to this very day ("the train got cancelled
    again this morning" is the day's news, not a fact to remember). A clause of five words or
    more that is not so dated keeps it ("The tracker's cheaper today but I can't cope with the
    payment jumping around")."""
    low = norm(sent)
    if life_event(low):
        return True  # "I got fired today": news of a life, however short and however recent
    if len(low.split()) == 4 and EVENT.search(low) and _THING_GOT.search(low):
        return True  # "We adopted a dog!", "I sold my car": an event of four words
    if len(low.split()) < 5 or not TRANSIENT.search(low):
        return len(low.split()) >= 5
    clauses = re.split(r"[,;:]\s+|\s+[-–—]\s+|\s+(?:but|because|though|although)\s+", low)
    return any(len(c.split()) >= 5 and not TRANSIENT.search(c) for c in clauses)
