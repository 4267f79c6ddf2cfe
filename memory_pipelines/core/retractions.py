"""An offer or plan taken back: "i can pick up the kids from practice thursday" ... "oh wait no,
i have a dentist appt thursday afternoon, sorry cant do it after all".

Kept as said, the offer stays a live memory and the taking back is a fact of nothing ("can't
do it"). The taking back names what it takes back by a pro-form ("do it", "make it", "do
that") after a "can't" or "won't be able to" and "after all" (or "anymore"); what it stands
for is the act of the speaker's own latest offer or plan before it ("I can ...", "I'll ...",
"I'm going to ..."). Said with that act in its place, the sentence is the fact that holds now
("... sorry I can't pick up the kids from practice thursday after all"), which the dedup judge
reads against the stored offer as a change. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# "can't do it after all", "won't be able to make it anymore", "cant do that after all"
_TAKEN_BACK = re.compile(
    r"\b(?P<neg>can['’]?t|cannot|can not|won['’]?t be able to|will not be able to"
    r"|(?:i['’]?m|am) not (?:able|going) to|not gonna be able to)\s+"
    r"(?:do|make|manage)\s+(?:it|that|this)\s+(?P<end>after all|anymore|any more)\b",
    re.IGNORECASE,
)
# The speaker's own offer or plan: its subject and modal, then the act ("I can pick up the
# kids", "I'll drive you", "I'm going to host").
_OFFER = re.compile(
    r"\b(?P<who>i|we)\s*(?P<modal>can|could|['’]?ll|will|['’]?m going to|am going to|['’]?m gonna"
    r"|am gonna|['’]?re going to|are going to)\s+(?!not\b|never\b|be able\b)"
    r"(?P<act>[a-z][^.!?;]*?)\s*(?=$|[.!?;]|,\s+(?:but|if|since|because|so)\b)",
    re.IGNORECASE,
)


_SUBJECT_BEFORE = re.compile(r"\b(?:i|we)\s*$", re.IGNORECASE)


def takes_back(sentence: str) -> bool:
    """Whether the sentence takes something back by a pro-form ("cant do it after all")."""
    return _TAKEN_BACK.search(sentence) is not None


def taken_back(sentence: str, before: Sequence[str]) -> str | None:
    """`sentence` with the act it takes back put in place of its "do it", when it takes back
    an offer or plan; `before`: the speaker's own sentences before it, oldest first. None when
    it takes nothing back, or no offer of theirs comes before it."""
    m = _TAKEN_BACK.search(sentence)
    if m is None or "?" in sentence[m.end() :]:
        return None
    for said in reversed(before):
        if said.rstrip().endswith("?"):
            continue
        offer = _OFFER.search(said)
        if offer is None:
            continue
        # the offer's own modal, negated: "I can ..." -> "can't", "I'll ..." -> "won't"
        head = sentence[: m.start()]
        neg = "can't" if offer.group("modal").lower().startswith("c") else "won't"
        if not _SUBJECT_BEFORE.search(head):  # "sorry cant do it": its subject put back
            who = offer.group("who")
            neg = f"{'I' if who.lower() == 'i' else who} {neg}"
        return f"{head}{neg} {offer.group('act')} {m.group('end')}{sentence[m.end() :]}"
    return None
