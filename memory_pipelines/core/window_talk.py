"""Who speaks to whom in an extraction window, and what was said before a sentence: the
listener of a turn, everyone else who speaks, whether two people talk (not a person and the
assistant), and the sentences before one, the speaker's own or everybody's. Pure Python."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.due_dates import due_date
from memory_pipelines.core.plain_words import with_apostrophes
from memory_pipelines.core.promised_thing import MAX_TURNS
from memory_pipelines.core.sentence_forms import is_interjection
from memory_pipelines.core.window_turn import WindowTurn

# A name said to at the end of a sentence to the listener: "I'll have the slides to you first
# thing tomorrow, Raj". Words that address nobody by name are no name.
_CALLED = re.compile(r"\byou(?:r)?\b[^.!?]*,\s+(?P<name>[A-Z][a-z]+)\s*[.!]*\s*$")
# ... or at the start of one, before what is said to them: "Priya, I'll cover your shift".
_CALLED_FIRST = re.compile(
    r"^\W*(?P<name>[A-Z][a-z]+),\s+(?=(?:i|i'll|i'm|i've|i'd|we|we'll|you|can you|could you"
    r"|would you|will you|do you|did you|are you|have you|please|thanks)\b.*\byou(?:r)?\b)",
    re.IGNORECASE,
)
_NO_NAME = frozenset(
    ["Thanks", "Please", "Mate", "Guys", "Everyone", "Folks", "Babe", "Love", "Dear", "Sir",
     "Man", "Dude", "Bro", "Team", "All", "Everybody", "Honey", "Hun", "Buddy", "Pal", "Too",
     "Though", "Again", "Lol", "Haha", "Yet", "Anyway", "Okay", "Ok", "Then", "Now", "Today"]
)  # fmt: skip


def called_by_name(window: Sequence[WindowTurn], i: int) -> str:
    """The one name a turn calls its listener by ("..., Raj"), as the window's speaker of that
    name when one is ("Mel" for Melanie); "" when it calls nobody, or more than one."""
    called = {
        m.group("name")
        for s in sentence_kinds.sentences(window[i].text)
        for m in (_CALLED.search(s), _CALLED_FIRST.match(s))
        if m and m.group("name") not in _NO_NAME and not is_interjection(m.group("name"))
    }
    if len(called) != 1:
        return ""
    (name,) = called
    if name == window[i].who:
        return ""
    spoken = [t.who for t in window if t.speaker and t.who.startswith(name)]
    return spoken[0] if spoken else name


def listener_of(window: Sequence[WindowTurn], i: int) -> str:
    """Whom a turn speaks to: the one it calls by name, or else the nearest other speaker in
    the window."""
    if called := called_by_name(window, i):
        return called
    me = window[i].speaker or window[i].role
    order = [*reversed(window[:i]), *window[i + 1 :]]
    other = next((t for t in order if (t.speaker or t.role) != me), None)
    if other is not None:
        return other.who
    return "Assistant" if window[i].role == "user" else "User"


def listeners(window: Sequence[WindowTurn], i: int) -> list[str]:
    """Everyone else who speaks in the window, in order of first word: whom "you all" means."""
    me = window[i].who
    return list(dict.fromkeys(t.who for t in window if t.who != me and t.speaker))


def to_person(window: Sequence[WindowTurn], i: int) -> bool:
    """Whether a turn is one person speaking to another (two people talking), not a person
    speaking to the assistant or the assistant to them."""
    me = window[i].speaker or window[i].role
    others = [t for t in window if (t.speaker or t.role) != me]
    people = window[i].role.lower() == "user" and all(t.role.lower() == "user" for t in others)
    return bool(others) and people


# A request of the listener to do something: "can you grab milk on the way home?", "could u
# send me the link", "pls bring the charger". Not a question that only asks to know ("can you
# believe it", "could you tell if it was him").
ASKED_TO = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay|so|and|oh|also|btw|hmm)\W+)*(?:[A-Z][a-z]+,?\s+)?"
    r"(?:(?:can|could|would|will)\s+(?:you|u|ya)\s+(?:please\s+|pls\s+|maybe\s+)?"
    r"(?!(?:believe|imagine|tell|see|hear|guess|remember|be)\b)|(?:please|pls|plz)\s+"
    r"(?!(?:don't|dont|no)\b))(?P<act>[a-z]+)",  # the act asked for begins at "act"
    re.IGNORECASE,
)


def requests_before(window: Sequence[WindowTurn], i: int) -> list[str]:
    """The sentences that ask turn `i`'s speaker to do something ("can you grab milk on the
    way home?"), of the turns another person sent just before it, one after another ("could
    you look after Pixel that weekend?" / "sorry, it's the 12th not the 11th" / "sure, I'll take
    her"), oldest first: a pledge answering them is owed to that person ("sure, I'll pick some
    up after work")."""
    if i == 0 or window[i - 1].who == window[i].who:
        return []
    asker, first = window[i - 1].who, i - 1
    while first > 0 and window[first - 1].who == asker and i - first < MAX_TURNS:
        first -= 1
    said = [s for t in window[first:i] for s in sentence_kinds.sentences(t.text)]
    if to_person(window, i):
        return [r for s in said if (r := _ask(s))]
    if window[i].role != "assistant":
        return []
    # Asked of the assistant, only a reminder is an act it does later ("remind me to call the
    # vet tomorrow" / "Sure, will do!"): what it does in the chat itself is its next step.
    return [s for s in said if REMIND_ME.match(s)]


# The listener's next message thanking the speaker, or taking up what was offered: "thank u
# 🙏 u r the best", "u r a star", "ur a legend", "you're a lifesaver", "omg yes please",
# "that would be amazing". Praise of a plan of the speaker's own is none ("go you!", "love
# that", "good luck").
_THANKED = re.compile(
    r"^\W*(?:(?:omg|oh|aw+|ah+|ok(?:ay)?|wow|honestly)\W+)*(?:thank(?:s|\s*(?:you|u|ya))|thx"
    r"|ty\b|cheers\b|ta\b|lifesaver|yes please|"
    r"(?:(?:you|u)(?:'re|’re| are| r)|ur|you're)\s+(?:a |an |the |my )?(?:real |total |absolute )?"
    r"(?:star|legend|lifesaver|life saver|angel|hero|gem|saint|best)\b|"
    r"(?:that|it)(?:'d|’d| would) be (?:amazing|great|brilliant|perfect|lovely|ideal|a huge help"
    r"|so helpful)\b)",
    re.IGNORECASE,
)


# An act offered: "i'll pick the car up", "I can bring a tray round" (not "I'll be", "I'll
# have": a state, no act done for anyone).
_OFFERED = re.compile(r"\b(?:I'll|I will|I can)\s+(?!(?:be|have)\b)[a-z]+", re.IGNORECASE)


def thanked_after(window: Sequence[WindowTurn], i: int) -> bool:
    """Whether the person turn `i` speaks to answers it next with thanks, or takes up what it
    offers ("garage just called, ... stuck at work til 7" / "i'll pick the car up tmrw after 5
    then" / "u r a star"): an act it pledges for nobody named is theirs, as when they asked
    for it. Between people only: the assistant's promises name the user already."""
    if i + 1 >= len(window) or not to_person(window, i):
        return False
    # An offer, and nothing asked beside it that the thanks may answer instead: "Thanks!
    # Appreciate your kind words." thanks "you're awesome with your store. How's it going?",
    # not the "I'm gonna make it happen" said before it.
    said = window[i].text
    if "?" in said or not _OFFERED.search(with_apostrophes(said)):
        return False
    nxt = window[i + 1]
    return (
        nxt.who != window[i].who
        and nxt.who == listener_of(window, i)
        and bool(_THANKED.match(nxt.text))
    )


# The asker's next message giving the time a request is for: "it needs to be paid by Friday
# week", "by 5 please", "needs doing before the 3rd".
_DEADLINE_GIVEN = re.compile(
    r"^\W*(?:(?:oh|and|also|ok(?:ay)?|great|thanks|ta|cheers|perfect)\W+)*(?:it|that|they|this"
    r"|by|before|needs?|should|must|has to|have to|ideally|asap)\b",
    re.IGNORECASE,
)


def deadline_after(window: Sequence[WindowTurn], i: int) -> datetime | None:
    """When the request turn `i` agreed to is for, when the asker says it in the next message
    ("Tom can you sort out the venue deposit?" / "sure, will do" / "it needs to be paid by
    Friday week"); None when the next message says no such time."""
    if i == 0 or i + 1 >= len(window) or window[i + 1].who != window[i - 1].who:
        return None
    after = window[i + 1]
    for s in sentence_kinds.sentences(after.text):
        if _DEADLINE_GIVEN.match(s) and (due := due_date(s, after.created_at)) is not None:
            return due
    return None


# A reminder asked for: "remind me to call the vet tomorrow", "can you remind me about ...".
REMIND_ME = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay|so|and|oh|also|btw)\W+)*(?:(?:can|could|would|will)\s+(?:you|u)"
    r"\s+|please\s+|pls\s+)?(?:please\s+)?(?P<act>remind) me\s+(?:to|about)\b",
    re.IGNORECASE,
)


# Where a request may begin inside a sentence: "my sister's wedding is on the 11th, could you
# look after Pixel that weekend?"
_CLAUSE_ASK = re.compile(r"[,;:]\s+|\s[-–—]\s+")


def _ask(sentence: str) -> str:
    """The request a sentence makes, from where it begins; "" when it makes none."""
    if ASKED_TO.match(sentence):
        return sentence
    for m in _CLAUSE_ASK.finditer(sentence):
        if ASKED_TO.match(sentence[m.end() :]):
            return sentence[m.end() :]
    return ""


def said_before(window: Sequence[WindowTurn], turn: WindowTurn, sentence: str) -> list[str]:
    """What the speaker of `turn` said before `sentence`, oldest first: their last two turns of
    the window before it and the sentences of this turn before it (all of them, when it is not
    found as said)."""
    me = turn.speaker or turn.role
    mine = [t.text for t in window if t.seq < turn.seq and (t.speaker or t.role) == me][-2:]
    return mine + before_in_turn(turn, sentence)


def before_in_turn(turn: WindowTurn, sentence: str) -> list[str]:
    """The sentences of `turn` before `sentence` (all of them when it is not found as said)."""
    said = sentence_kinds.sentences(turn.text)
    tail = sentence.rstrip(".!?")[-20:]
    at = next((k for k, s in enumerate(said) if tail and tail in s), len(said))
    return said[:at]


def talk_before(window: Sequence[WindowTurn], i: int, sentence: str) -> list[tuple[str, str]]:
    """(speaker, sentence) said before `sentence` of turn `i`, oldest first: every sentence of
    the MAX_TURNS turns before it, whoever said them, and those of its own turn before it."""
    out = [
        (t.who, s)
        for t in window[max(0, i - MAX_TURNS) : i]
        for s in sentence_kinds.sentences(t.text)
    ]
    return out + [(window[i].who, s) for s in before_in_turn(window[i], sentence)]
