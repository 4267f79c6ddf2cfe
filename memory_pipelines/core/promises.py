"""Is a sentence a promise? Who owes what to whom, and by when.

A commitment is someone promising something to someone: "I'll send you the report by June 10"
(the speaker owes the listener the report, due 10 June), "I promised Ana I'd water the plants".
A future said about oneself is not one: "I'm going to paint this weekend" is a plan, and
"I'll note that" or "I'll keep it in mind" is bookkeeping of the conversation, owed to nobody.
So a promise needs a first-person future (or "promise"), an action verb that does something
(not note, remember, think, try, ...), and someone it is for: "you", a name or a role after
the verb ("send Mr Patel ...", "... to the landlord", "for Ana"), or an explicit "I promise".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memory_pipelines.core.due_dates import due_date, in_time_only
from memory_pipelines.core.promise_whom import (
    HANDED_YOU,
    NAME,
    ROLE,
    attributive,
    owed_by_role,
)
from memory_pipelines.core.sentence_kinds import DEADLINE, ON_ME

_FUTURE = re.compile(
    r"\b(?:i|we)(?:'ll|’ll| will| shall|'m going to| am going to|'re going to| are going to"
    r"|'m gonna| am gonna|'d| would)\s+(?:(?:also|just|definitely|certainly|still|then|first"
    r"|actually|really|totally|make sure to|try to|be sure to)\s+)*(?P<verb>[a-z]+)",
    re.IGNORECASE,
)


_LET_ME = re.compile(r"^(\W*(?:(?:ok(?:ay)?|right|sure)\W+)*)let me\b", re.IGNORECASE)


def as_pledge(sentence: str) -> str:
    """A step taken on by a due time said as the pledge it is: "Let me check with finance and
    get back to you by Thursday" -> "I'll check with finance and get back to you by Thursday".
    Without one it is the chat's next step ("Let me work through your hydration first")."""
    if not DEADLINE.search(sentence.lower()):
        return sentence
    return _LET_ME.sub(lambda m: f"{m.group(1)}I'll", sentence, count=1)


def future_act(sentence: str) -> re.Match[str] | None:
    """The first "I'll ..." or "we're going to ..." of a sentence; its group "verb" is the act."""
    return _FUTURE.search(sentence)


# "It's mine", "leave it with me": the speaker takes the task on for the listener.
_OWNS = re.compile(
    rf"\b(?:it's|that's|it is|that is) mine\b|{ON_ME}|\bleave it with me\b", re.IGNORECASE
)
# Acts that do nothing for anybody: keeping notes, thinking, trying, feeling.
_NO_ACTION = frozenset(
    [
        "note",
        "remember",
        "keep",
        "bear",
        "jot",
        "log",
        "record",
        "memorise",
        "memorize",
        "think",
        "consider",
        "wonder",
        "try",
        "see",
        "be",
        "feel",
        "love",
        "like",
        "enjoy",
        "miss",
        "need",
        "want",
        "hope",
        "guess",
        "bet",
        "imagine",
        "have",
        "pass",
        "say",
        "mean",
        "stay",
        "sleep",
        "probably",
        "maybe",
        "definitely",
        "rather",
        "prefer",
        "look",
    ]
)
# "send you", "send Mr Patel", "to the landlord", "for Ana", "with you" after the verb.
_RECIPIENT = re.compile(
    # "send them the new agreement", "send him Leo's form": the ones just named (core/referents
    # resolves them); not "send them tomorrow" (the letters): a determined object must follow
    rf"^\s*(?P<direct>you|{NAME}|{ROLE}|(?i:him|her|them)"
    r"(?=\s+(?:(?i:a|an|the|my|our|his|her|their|this|that|some)|[A-Z][\w-]*['’]s)\s))"
    rf"\b(?!\s*(?:'s|’s))"
    rf"|\b(?:to|for|with|back to)\s+(?P<indirect>you|{NAME}|{ROLE})\b",
)
# A name beside a role is its name when the pledge goes on after it ("my brother Tomasz I'd",
# "my mum, Ines, that"), not a thing promised ("the kids Lego").
_APPOSED_END = r"(?=,|\s+(?:(?i:i|we)\b|that\b|to\b)|\s*[.;!]|\s*$)"
# "I promised Ana", "I swore to my brother Tomasz", "we owe the landlord": who it is owed to
# follows the verb, a name (capitalised as said: "I promised Ana from downstairs" is owed to
# Ana, "I owe Dana twenty quid" to Dana) or a role, the role's name when it is said beside it.
_PROMISED = re.compile(
    r"\b(?i:i|we) (?i:promise|promised|swear|swore|vowed|pledged|owe|committed to|agreed to"
    r"|signed up to)\b"
    rf"(?:\s+(?:(?i:to)\s+)?(?P<whom>(?i:you)|(?P<role>{ROLE})(?:,?\s+(?P<named>{NAME}){_APPOSED_END})?"
    rf"|(?:the|my|our|his|her|their)(?: [a-z]+){{1,2}},?\s+(?P<kin>{NAME}){_APPOSED_END}"
    rf"|{NAME}|(?P<self>(?i:myself|ourselves))\b))?"
)
# "I promised I'd drive her", "I promised to help Jo move": owed to whom the act is done for.
_PROMISED_FOR = re.compile(
    r"\s+(?:that\s+)?(?:(?i:i|we)(?:'d|’d|'ll|’ll| would| will)|(?i:to))\s+"
    rf"(?:[a-z]+\s+){{1,2}}?(?P<whom>(?i:her|him)|{NAME})\b"
)
# "committed to sending my landlord the form": the recipient of the act the pledge names.
_PLEDGED_ACT = re.compile(r"\s+(?P<verb>[a-z]+?)(?:ing)?\b")
_APPOSED = re.compile(rf",\s*({NAME})\s*(?=[,.;!]|$)")
# A thing handed over by the one who promises: "I'll send the pics", "I'll bring the drill".
_HANDED_OVER = re.compile(
    r"\b(?:send|give|bring|lend|hand|show|forward)\s+(?:the|those|these|that|this|my)\s+\w",
    re.IGNORECASE,
)
_GIVE_VERBS = frozenset(
    [
        "send",
        "give",
        "email",
        "mail",
        "post",
        "text",
        "call",
        "ring",
        "phone",
        "pay",
        "show",
        "tell",
        "bring",
        "lend",
        "owe",
        "message",
        "ping",
        "forward",
        "hand",
        "buy",
        "get",
        "cook",
        "make",
        "fetch",
        "book",
        "drop",
        "let",
        "update",
        "remind",
        "teach",
        "help",
        "meet",
        "visit",
        "join",
        # money sent by an app or a bank, as people say it: "I'll venmo you on payday"
        "venmo",
        "paypal",
        "zelle",
        "transfer",
        "wire",
        "repay",
        "reimburse",
        "refund",
    ]
)


# "I'll have the summary to you by Friday", "I'll get it back to Ana", "I'll have the prints
# ready for you": a delivery, whatever the verb ("have" alone is no act).
_DELIVERS = re.compile(
    rf"\b(?:have|get)\b.{{1,60}}?\b(?:back to|to|(?:ready|done|finished|sorted|fixed|written|built"
    # "painted for you"
    rf"|made|sent|\w{{3,}}ed) for) (?:you|him|her|them|{NAME}|{ROLE})\b(?!\s+to\b)"
    # not "I'd have loved for you to come"
    # ... or put where they will find it: "on your desk", "in your inbox", "in Joan's hands"
    rf"|\b(?:have|get)\b.{{1,60}}?\b(?:on|in|into) (?:your|{NAME}'s) \w+"
)
# "I told Hannah I'd have a first draft ready by 18 May": a thing readied for the one told.
_READY = re.compile(
    r"\b(?:have|get)\b.{1,60}?\b(?:ready|done|finished|sorted|fixed|written|booked)\b", re.I
)
# "Marta promised me the taper plan by the end of August": another's promise to the speaker,
# owed to the speaker. A pronoun is nobody named ("they promised me" stays unread).
_PROMISED_ME = re.compile(
    r"\b(?!(?:he|she|they|it|you|who|which|that|someone|somebody|everyone|nobody)\b)"
    r"(?P<owner>[A-Za-z][a-z]+(?: [A-Z][a-z]+)?) (?:has |had )?promised (?:me|us)\b"
    r"(?:\s+(?:that\s+)?(?:she|he|they)(?:'d|'ll|’d|’ll| would| will))?\s+(?P<what>\S.*)",
    re.IGNORECASE,
)
_SAID_THEY_WILL = re.compile(
    r"^\W*(?!(?:the|this|that|it|there|our|my|your|his|her|their|we|i|you)\b)"
    r"(?P<owner>[A-Z][a-z]+(?: [A-Z][a-z]+)?) said (?:that )?(?:she|he|they)(?:'ll|’ll| will)"
    r"\s+(?P<what>\S.*)"
)
# The double-object form gives, whatever the verb: "I'll paste you the full log", "I'll
# bake Ana a cake" (somebody, then a thing); not a time ("I'll see you this weekend", "beat
# you the next time") nor a verb that asks of them ("I'll ask you a favour").
_THING_GIVEN = re.compile(
    r"\s+(?i:a|an|the|my|our|his|her|their|this|that|these|those|some)\s+"
    r"(?!(?i:next|last|whole|same|other|rest|first|minute|moment|second)\b)"
    r"(?!(?:\w+\s+)?(?i:time|day|week|weekend|month|year|morning|afternoon|evening|night|hour"
    r"|while)s?\b)[a-z]"
)
_ASKING = frozenset(["ask", "cost", "charge", "bet", "wish", "envy", "forgive", "spare"])


def _given_to(verb: str, rest: str, r: re.Match[str]) -> bool:
    return (
        bool(r.group("direct")) and verb not in _ASKING and bool(_THING_GIVEN.match(rest, r.end()))
    )


# The listener's own thing acted on: "I'll add a copy to your order", "I'll fix your bike".
# Not a step taken there and then in the chat ("I'll check your logs now"): that is no promise.
# The listener's, or the two of them ("I'll drive us back", "I'll book us a table", "our tickets")
_YOURS = re.compile(r"\b(?:your|us|our)\b", re.I)
_NOW = re.compile(r"\b(?:now|right away|straight away|in a (?:moment|minute|sec(?:ond)?))\b", re.I)


# What a promise is for, after it: "..., so you can shop before Sunday", "so that Ana has it
# before her flight", "so he's ready by Monday".
_PURPOSE = re.compile(
    r",?\s+so(?:\s+that)?\s+(?:you|u|i|we|he|she|they|it|[A-Z][a-z]+)(?:'ll|'s|'re|’ll|’s|’re)?"
    r"\s+(?:can|could|will|would|has|have|had|get|gets|know|knows|is|are|be|won't|don't"
    r"|doesn't|ready)?\b"
)


# A promise reported: "I told my neighbour Dolores I'd return her pressure washer", "we
# assured the landlord that we'll fix it": owed to the one told (by name when given).
_TOLD = re.compile(
    rf"\b(?i:i|we) (?:told|promised|assured|tell|assure) (?:(?P<role>{ROLE})\s+)?"
    rf"(?P<name>{NAME}|(?i:him|her|them))?\s*(?:that\s+)?(?i:i|we)(?:'d|'ll|’d|’ll| would| will)\b"
)


# A promise kept, said as it is kept: "Here's the draft I promised you", "the three caterers
# I promised:": the promised thing comes before "I promised" and nothing is owed after it.
_KEPT = re.compile(
    r"\b(?:the|those|these|that|this)\s+(?:[\w'’-]+\s+){0,5}(?:that\s+)?(?:i|we) promised\b"
    rf"(?:\s+(?:you|{NAME}|{ROLE}))?\s*(?:[:;,.!]|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Promise:
    owner: str
    what: str  # the promised clause, from the verb on
    owed_to: str  # "you" resolved to the listener
    due_at: datetime | None


def promise(
    sentence: str,
    speaker: str,
    listener: str,
    said_at: datetime,
    asked: bool = False,
    to_person: bool = False,
) -> Promise | None:
    """The promise a sentence makes, or None when it makes none. `asked`: the listener just
    asked the speaker to do something, so an act pledged for nobody else is theirs ("can you
    grab milk on the way home?" / "sure, I'll pick some up after work"); `to_person`: the
    listener is a person, to whom a thing the speaker will hand over, said to nobody else, goes
    ("sorry I never sent the wedding pics ... I'll send the pics this weekend")."""
    m = _FUTURE.search(sentence)
    pm = None if _KEPT.search(sentence) else _PROMISED.search(sentence)
    if pm and pm.group("self"):
        pm = None  # "I promised myself I'd rest more": a resolution, owed to nobody
    if not m and not pm:
        return _promised_me(sentence, speaker, said_at)
    told = _TOLD.search(sentence)
    readied = told is not None and bool(told.group("name") or told.group("role"))
    readied = readied and bool(_READY.search(sentence))
    if (
        m
        and m.group("verb").lower() in _NO_ACTION
        and not pm
        and not _DELIVERS.search(sentence)
        and not readied
    ):
        return None
    whom = ""
    if told and (told.group("name") or told.group("role")):
        whom = told.group("name") or told.group("role")
    elif pm and (pm.group("named") or pm.group("kin")):
        whom = pm.group("named") or pm.group("kin")  # "my brother Tomasz": Tomasz
    elif pm and pm.group("whom"):
        whom = pm.group("whom")
    elif pm and (act := _pledged_act(sentence[pm.end() :])):
        whom = act
    elif pm and (done_to := _PROMISED_FOR.match(sentence, pm.end())):
        whom = done_to.group("whom")  # "I promised I'd drive her": hers, not the listener's
    elif m:
        verb = m.group("verb").lower()
        rest = sentence[m.end() :]
        r = _RECIPIENT.search(rest)
        if r and attributive(rest, r):
            r = None  # "check the list for Harvard style": a kind of thing, nobody it is for
        delivered = verb in ("have", "get") and _DELIVERS.search(sentence)  # "have it to her"
        if r is None and delivered:
            r = re.search(r"\b(?:to|back to)\s+(?P<direct>)(?P<indirect>him|her|them)\b", rest)
        if r and (
            r.group("indirect") or verb in _GIVE_VERBS or delivered or _given_to(verb, rest, r)
        ):
            whom = r.group("direct") or r.group("indirect")
            # "to my accountant, Mr. Thornton,": the role's name, said beside it
            named = _APPOSED.match(rest, r.end())
            if named and re.fullmatch(ROLE, whom):
                whom = named.group(1)
            if whom.lower() != "you" and HANDED_YOU.search(rest, r.end()):
                whom = "you"  # "a plan for Isla, ... ready for you by Wednesday": yours
        elif _YOURS.search(rest) and verb not in _NO_ACTION and not _NOW.search(rest):
            whom = "you"
    # The promise's own day first: "Our VAT return is due on 7 November; I'll get the
    # receipts to Mr. Thornton by 31 October" is due on 31 October.
    # ... and the promise's, not what it is for: "I'll send them to you tonight, so you can
    # shop before Sunday" is due tonight.
    start = m.start() if m else pm.start() if pm else 0
    own = _PURPOSE.split(sentence[start:], maxsplit=1)[0]
    due = (
        due_date(own, said_at) or due_date(sentence[start:], said_at) or due_date(sentence, said_at)
    )
    deadline = due is not None and not in_time_only(sentence)  # not "moving in two weeks"
    if not whom and m and (asked or (to_person and _HANDED_OVER.search(sentence, m.start()))):
        whom = listener
    if not whom and not pm and not deadline and not _OWNS.search(sentence):
        return None  # a plan of one's own ("I'm going to paint"), owed to nobody
    if whom.lower() in ("", "you"):
        whom = listener
    what = sentence[m.start("verb") :] if m else sentence[pm.end() :] if pm else sentence
    return Promise(
        owner=speaker,
        what=what.strip(" .!"),
        owed_to=owed_by_role(whom),
        due_at=due,
    )


def pledged_at(sentence: str) -> int | None:
    """Where a sentence's pledge begins ("Mum's surgery is on the 14th, I promised I'd drive
    her": at "I promised"; "my landlord Mr Okafor emailed ... and I told him I'd send it back":
    at "I told"), or None when it makes none by a verb of pledging."""
    pm = _PROMISED.search(sentence) or _TOLD.search(sentence)
    return pm.start() if pm else None


def _pledged_act(rest: str) -> str:
    """Whom the act after a pledge is for ("committed to sending my landlord the form": the
    landlord), when it is a giving verb; "" otherwise."""
    act = _PLEDGED_ACT.match(rest)
    if act is None:
        return ""
    verb = act.group("verb")
    verbs = (verb, verb + "e", verb[:-1] if len(verb) > 3 and verb[-1] == verb[-2] else verb)
    if not any(v in _GIVE_VERBS for v in verbs):
        return ""
    r = _RECIPIENT.search(rest[act.end() :])
    return (r.group("direct") or r.group("indirect") or "") if r else ""


def _promised_me(sentence: str, speaker: str, said_at: datetime) -> Promise | None:
    """Another's promise to the speaker ("Marta promised me the taper plan by the end of
    August", "Kofi said he'll send the contract over next week": a thing given, by a due
    time): theirs, owed to the speaker."""
    pm = None if _KEPT.search(sentence) else _PROMISED_ME.search(sentence)
    if pm is None and (said := _SAID_THEY_WILL.search(sentence)) and speaker:
        verb = said.group("what").split()[0].lower()
        if verb in _GIVE_VERBS and due_date(sentence, said_at) is not None:
            pm = said
    if pm is None or not speaker:
        return None
    owner = pm.group("owner")
    return Promise(
        owner=owner[:1].upper() + owner[1:],
        what=pm.group("what").strip(" .!"),
        owed_to=speaker,
        due_at=due_date(sentence, said_at),
    )
