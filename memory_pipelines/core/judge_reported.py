"""A change someone else made, read as the change of the thing it was made to.

"Nurse Kemp upped Sam's Clenil to 200mcg" is about Sam's Clenil, not about the nurse: its
value is what the dose now is. Read with the nurse as its subject, the judge saw another person
beside "Sam takes Clenil 100mcg" and kept both as current. `as_reported()` restates such a
sentence with the changed thing first ("Sam's Clenil increased to 200mcg"), so the judge reads
the owner as its subject and the verb as a change cue.

So is what someone said of a named one: "Dr. Bennett said Leo should take 10ml instead of
5ml now" is read as "Leo should take 10ml instead of 5ml now".

Only a thing of a named person's ("Sam's", "Ana's") is restated as changed: with "his" or
"her" the owner may be the one who made the change ("Tom raised his rate to £40"), and the
sentence says so as it stands.
"""

from __future__ import annotations

import re

# Verbs of changing a value, as said of whoever changed it, and the change cue each restates
# to (core/judge_cues.py reads "increased", "moved", ...).
_VERBS = {
    "upped": "increased",
    "bumped up": "increased",
    "bumped": "increased",
    "raised": "increased",
    "increased": "increased",
    "doubled": "increased",
    "lowered": "decreased",
    "reduced": "decreased",
    "decreased": "decreased",
    "cut": "decreased",
    "halved": "decreased",
    "dropped": "decreased",
    "changed": "changed",
    "switched": "switched",
    "moved": "moved",
    "rescheduled": "moved",
    "pushed": "moved",
    "brought forward": "moved",
}
_VERB_ALT = "|".join(sorted(map(re.escape, _VERBS), key=len, reverse=True))

_REPORTED = re.compile(
    # who made the change: nothing (a note about the user's doing) or up to four words
    r"^(?P<agent>(?:[\w.'’-]+\s+){0,4}?)"
    rf"(?P<verb>{_VERB_ALT})\s+"
    # whose thing: a named person's, written with a capital
    r"(?P<owner>[A-Z][\w-]*(?:'s|’s))\s+"
    r"(?P<thing>[^,.;:!?]{1,40}?)\s+"
    r"(?P<to>(?:(?:up|down|back|forward)\s+)?to|from\s+[^,.;:!?]{1,25}?\s+to)\s+"
    r"(?P<rest>\S.*)$",
    re.IGNORECASE | re.DOTALL,
)


# "Dr. Bennett said Leo should take 10ml instead of 5ml now": what was said, of a named one,
# is the statement; who said it is its source, not its subject.
_SAID = re.compile(
    r"^(?:[\w.'’-]+\s+){1,4}?(?:said|says|told (?:us|me|him|her|them)|confirmed|reckons)"
    r"\s+(?:that\s+)?(?P<said>[A-Z][\w-]*(?:'s|’s)?\s+\S.*)$",
    re.DOTALL,
)


# "Millbrook emailed: flour goes up to 21 pounds a sack": what a message said, after a colon.
_MESSAGE = re.compile(
    r"^(?:[\w.'’-]+\s+){1,3}?(?:said|says|emailed|e-mailed|wrote|texted|messaged|announced"
    r"|confirmed|called|rang)\s*:\s*(?P<said>\S.*)$",
    re.DOTALL,
)


def as_reported(text: str) -> str:
    """The sentence with the changed thing as its subject when it reports someone changing a
    named person's value ("The GP increased Sam's sertraline to 100mg" -> "Sam's sertraline
    increased to 100mg"); otherwise the sentence as it is."""
    said = _SAID.match(text.strip())
    if said and said.group("said").split()[0] not in ("I", "It", "It's", "That", "This"):
        text = said.group("said")
    elif message := _MESSAGE.match(text.strip()):
        text = message.group("said")
    m = _REPORTED.match(text.strip())
    if m is None or not m.group("owner")[:1].isupper():
        return text
    agent = m.group("agent").split()
    if agent and agent[-1].lower() in ("not", "never", "n't", "didn't", "hasn't", "won't"):
        return text  # a change denied is no change
    verb = _VERBS[" ".join(m.group("verb").lower().split())]
    return f"{m.group('owner')} {m.group('thing')} {verb} {m.group('to')} {m.group('rest')}"
