"""What a promise's "it" is: the one thing the talk just before it was about.

"did u ever find the camping stove??" ... "yeah it was in the garage the whole time" ... "I'll
bring it round to yours by the 3rd" promises the camping stove; "my drill's still at ur place"
... "omg sorry!! I'll drop it off Saturday" promises Dmitri's drill. Kept as said, the memory
holds a promise of nothing anyone could find again.

`the_thing_promised` reads the sentences before the promise, nearest first (the promise's own
turn, then the turns before it), and stops at the first that names a thing with a determiner
("my drill", "the field trip form"): a sentence that names none ("it's due", "omg sorry!!") is
passed over. That sentence must name exactly one thing that is not a place or time after a
preposition ("in the garage", "after the Peaks trip"), not a stretch of time ("the whole time")
and not the subject a question opens with ("How was the trip?"); a question naming none but a
thing after its preposition ("Are you done with the drill?") names that. Two things, a thing
that is someone's by "his", "her" or "their", or "them" and a thing that is not plural (or "it"
and one that is), and the promise is left as said. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_lexicon import PREPOSITIONS, STOPWORDS, wordlist
from memory_pipelines.core.past_tense import SIMPLE_PAST
from memory_pipelines.core.promise_whom import ROLE_WORDS
from memory_pipelines.core.promises import future_act

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|[^\sA-Za-z]+")
_DETERMINERS = frozenset(wordlist("my your our the his her their"))
MAX_WORDS = 3  # words of a thing after its determiner ("field trip form")
_PREPOSITION = PREPOSITIONS | frozenset(
    wordlist("after before since through until off behind around across inside outside past")
    + wordlist("between beside along towards toward")
)
_TIME = frozenset(
    wordlist("time times day days week weeks weekend month months year years morning afternoon")
    + wordlist("evening night moment minute minutes hour hours while")
)
# words after a thing that end it ("your essay yet", "the van back")
_ENDS = frozenset(
    wordlist("yet already again back now today tonight tomorrow anymore anyway though too")
    + wordlist("either btw lol haha pls please")
)
_STOP = STOPWORDS | _ENDS  # words that end a thing
_AUXILIARIES = frozenset(
    wordlist("is was are were isn't wasn't aren't weren't does did do doesn't didn't don't")
    + wordlist("has have had hasn't haven't can could will would should")
)
_OPENERS = frozenset(wordlist("how what where when why who which so and but well"))
MAX_TURNS = 3  # turns before the promise's own that are read
_IT = re.compile(r"\s+(?P<it>it|them)\b", re.IGNORECASE)
# Acts done to a thing: "bring it", "drop them off". Not the idioms of make, do, get or take
# ("we'll make it", "I'll get it": to succeed, to understand).
_HANDLING = frozenset(
    wordlist("bring send return drop give post mail email lend hand pass deliver fetch pick")
    + wordlist("collect fix repair sign forward share print read check clean wash swap")
)

# Acts whose "it" is money: "I'll transfer it", "I'll pay it back".
_PAYING = frozenset(wordlist("transfer pay repay wire venmo paypal"))
_NO_MONEY = re.compile(r"\s+(?:a visit|forward|no mind|any mind|attention)\b", re.IGNORECASE)
# An amount of money: with its currency, or a bare number that is no time, day or count of
# things after it ("58 but whatever"; not "at 6", "the 25th", "3 kids").
_AMOUNT = re.compile(
    r"[£$€]\s?\d[\d,]*(?:\.\d+)?(?:k\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:quid|pounds|dollars|euros|bucks)\b"
    # (a bare number, not a year: "20k by end of 2026")
    r"|(?<![\w:.£$€])(?<!at )(?<!by )(?<!on )(?<!the )(?<!of )(?!(?:19|20)\d\d\b)\d[\d,]*"
    r"(?:\.\d+)?(?![\w:%]|\s+[a-z]+s\b)"
)


def the_thing_promised(
    sentence: str, before: Sequence[tuple[str, str]], promiser: str, listener: str
) -> str:
    """The sentence with the "it" or "them" right after its first "I'll ..." (a verb of
    handling a thing, _HANDLING) put as the one thing the talk before it was about (see the
    module's docstring); unchanged when that is not clear. `before`: (speaker, sentence) said
    before it, oldest first; `promiser`: who says it, to `listener`. "my" said by the listener
    is "your" ("I'll drop your drill off": a promise to the listener, promises.promise), by
    anyone else theirs ("Dmitri's drill"); "your" said to the promiser is their own."""
    act = future_act(sentence)
    verb = act.group("verb").lower() if act is not None else ""
    handled = verb in _HANDLING or verb in _PAYING
    it = _IT.match(sentence, act.end("verb")) if act and handled else None
    back = _PAID_BACK.match(sentence, act.end("verb")) if act and verb in _PAYING else None
    # ... unless the sentence says the sum itself ("I owe Kenji £150 from the concert, told him
    # I'd pay him back by friday")
    said_here = act is not None and _AMOUNT.search(sentence, 0, act.start())
    if back is not None and not said_here and (owed := _debt_said(before)):
        # "the 200 for the Burna Boy tickets" ... "I'll pay you back by July 1st"
        return f"{sentence[: back.end()]} {owed}{sentence[back.end() :]}"
    if it is None:
        return sentence
    if verb in _PAYING:  # "58 then. I'll transfer it by the 25th": the amount just said
        if _NO_MONEY.match(sentence, it.end()):
            return sentence  # "I'll pay it a visit", "pay it forward"
        amount = _amount_said(before)
        if amount is None:
            return sentence
        return f"{sentence[: it.start('it')]}{amount}{sentence[it.end('it') :]}"
    them = it.group("it").lower() == "them"
    for speaker, said in reversed(before):
        # the things "it" or "them" may be, by number ("sorry I never sent the wedding pics, my
        # laptop died. I'll send them this weekend": the pics)
        named = _things(said)
        if not named:
            continue
        things = [(det, thing) for det, thing in named if _plural(thing) == them]
        if len(things) != 1:  # none of its number ("my old arctis" is no plural): unclear
            return sentence
        det, thing = things[0]
        if det in ("his", "her", "their"):
            return sentence
        mine = speaker == promiser
        theirs = "your" if speaker == listener else f"{speaker}'s"
        owner = {"my": "my" if mine else theirs, "your": "your" if mine else "my"}.get(det, "the")
        return f"{sentence[: it.start('it')]}{owner} {thing}{sentence[it.end('it') :]}"
    return sentence


def _plural(thing: str) -> bool:
    """Whether a thing is said in the plural ("wedding pics", not "glass")."""
    return thing.endswith("s") and not thing.endswith("ss")


# Whom money is paid back to, and nothing after it that is paid: "pay you back by the 1st",
# "pay Lena back" (not "pay you back the 200", "pay it back").
_PAID_BACK = re.compile(
    r"\s+(?:you|u|him|her|them|(?-i:[A-Z][a-z]+))\s+back\b(?!\s+(?:the|my|your|all|every|[£$€\d]))",
    re.IGNORECASE,
)
# A debt named by what it was for: "the 200 for the Burna Boy tickets", "£45 from the gig".
_DEBT = re.compile(
    r"(?:\bthe\s+)?(?:[£$€]\s?)?\b\d[\d,]*(?:\.\d+)?(?:\s?(?:quid|pounds|dollars|euros|bucks))?"
    r"\s+(?:for|from)\s+(?:the\s+|my\s+|your\s+|our\s+|that\s+)?[a-z0-9][\w'’ -]{0,40}?"
    r"(?=\s*(?:[,.;!?]|$)|\s+(?:right|yet|still|too|lol|though|tho|and|but)\b)",
    re.IGNORECASE,
)


def _debt_said(before: Sequence[tuple[str, str]]) -> str | None:
    """What is owed, as the nearest sentence before that names a sum says it: the sum with
    what it was for ("the 150 from the ski trip"), or the one amount it says."""
    for _, said in reversed(before):
        debts = {m.group().strip() for m in _DEBT.finditer(said)}
        if len(debts) == 1:
            return debts.pop()
        if debts or _AMOUNT.search(said):
            return _amount_said([("", said)])
    return None


def _amount_said(before: Sequence[tuple[str, str]]) -> str | None:
    """The one amount the nearest sentence before that holds any says ("58 but whatever",
    "that was £60 right?"); None when it holds two or more, or none is said."""
    for _, said in reversed(before):
        found = {m.group().strip() for m in _AMOUNT.finditer(said)}
        if found:
            return found.pop() if len(found) == 1 else None
    return None


def _things(sentence: str) -> list[tuple[str, str]]:
    """(determiner, thing) of each thing the sentence names as it is about (see the module's
    docstring); a question naming none of those gives the one thing after its preposition."""
    words = _WORD.findall(sentence)
    about, placed = [], []
    for n, word in enumerate(words):
        if word.lower() not in _DETERMINERS:
            continue
        thing: list[str] = []
        for w in words[n + 1 : n + 1 + MAX_WORDS]:
            bare = re.sub(r"['’]s$", "", w)
            low = bare.lower()
            if not bare[:1].isalpha() or low in _STOP or low in SIMPLE_PAST:
                break
            if thing and low.endswith("ed"):  # "the parcel arrived": its verb, not the thing
                break
            thing.append(bare)
            if bare != w:  # "my drill's still at ur place": the thing ends at its "'s"
                break
        if not thing or any(w.lower() in _TIME for w in thing):
            continue
        after = words[n + 1 + len(thing)].lower() if n + 1 + len(thing) < len(words) else ""
        if after in ("one", "ones"):
            continue  # "I got the new one": another of a thing named elsewhere, no thing here
        if thing[-1].lower() in ROLE_WORDS:
            continue  # "My landlord asked me for the lease": a person, no thing to post back
        lead = words[n - 1].lower() if n else ""
        if lead in _PREPOSITION:
            placed.append((word.lower(), " ".join(thing)))
        elif not (lead in _AUXILIARIES and _opens(words[: n - 1])):
            about.append((word.lower(), " ".join(thing)))
    if not about and sentence.rstrip().endswith("?") and len(placed) == 1:
        return placed
    return about


def _opens(lead: Sequence[str]) -> bool:
    """Whether the words before an auxiliary leave it opening a question ("How was ...")."""
    words = [w.lower() for w in lead if w[:1].isalpha()]
    return not words or words[-1] in _OPENERS or bool(lead and lead[-1].endswith(","))
