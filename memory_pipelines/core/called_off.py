"""Does a statement call a commitment off? "Forget the receipts for Mr. Thornton, he'll pull
them from the bank feed" calls off "Tomas will get the receipts to Mr. Thornton by 31
October"; "The museum trip got cancelled, so no need to pay the 45 pounds after all" calls off
"Assistant will remind Nadia about the 45 pound trip payment". Pure Python.

Read from what the two say, as `core/fulfilment.py` reads a promise kept: the statement holds
a calling off (a thing cancelled or called off, "no need to", "doesn't need to", "no longer
needs to", "forget", "never mind", "don't bother", "scrap") and names, in the same clause,
a thing the promise acts on (a common word of <what> that is not about when). A
calling off that is asked, planned or only possible ("should we cancel ...?", "might cancel")
calls off nothing, and neither does one of another thing ("forget the cake, but bring the
receipts"). Dedup cancels the commitment (api/dedup.py).
"""

from __future__ import annotations

import re

from memory_pipelines.core.fulfilment import PROMISE, acted_on, thing_words

# The words that call something off, and where the thing called off is named: after them
# ("no need to pay the 45 pounds", "forget the receipts") or before them ("the trip got
# cancelled", "the butter comparison: don't bother").
_CALLING_OFF = re.compile(
    r"\b(?:no need to|(?:does|do|did)(?:n't| not) (?:need|have) to|no longer (?:needs?|has|have)"
    r" to|(?:need|have)n't to|forget(?: about)?|never mind|don't bother(?: with| to)?|scrap"
    r"|skip|drop|call off)\b(?P<after>[^.;!?,]*)"
    r"|(?P<before>[^.;!?,]*?)\b(?:(?:is|was|got|has been|have been|were|are|'s) )?"
    r"(?:cancell?ed|called off|scrapped|off the table)\b"
    r"|(?P<first>[^.;!?,]*?)[:,]\s*(?:don't bother|never mind|forget it|no need)\b"
    # the act taken back by its own words: "I won't host the book club on Saturday after all"
    r"|\b(?:won't|can't|cannot|will not|not going to)\s+(?P<act>[^.;!?,]*?)\s+after all\b",
    re.IGNORECASE,
)
# Asked, only possible or planned: nothing is called off yet.
_NOT_YET = re.compile(
    # ("may" the verb, not the month a date names: "on Saturday (9 May 2026)")
    r"\?|\b(?:might|(?-i:may)|could|should we|shall we|if|whether|thinking of|maybe|perhaps)\b",
    re.IGNORECASE,
)


# The one a promise is owed to no longer needing it, said of them by name or pronoun ("actually
# she doesn't need it anymore, her sister's covering", "Priya no longer needs them"): the thing
# is a pro-form, so the promise is known by whom it is owed to (calls_off's `owed_to`).
_RELEASED = re.compile(
    r"(?:^|\b(?:actually|and|but|so|oh|now)\s+|[,;:]\s*)"
    r"(?P<who>(?-i:[A-Z][a-z]+)|she|he|they)\s+"
    r"(?:(?:doesn['’]t|don['’]t|does not|do not|didn['’]t|won['’]t) need|no longer needs?)"
    r"\s+(?:it|them|that|me to|my help)\b",
    re.IGNORECASE,
)
# News of a thing called off, whatever it names: only the words that say nothing else
# ("skip", "drop" and "forget" are as often other acts: "drop by", "skip the queue").
_NEWS = re.compile(
    r"\b(?:cancell?ed|called off|off the table|no need to|no longer (?:needs?|has|have) to"
    r"|don't bother|never mind)\b",
    re.IGNORECASE,
)


def calls_something_off(statement: str) -> bool:
    """Whether a statement calls something off, said firmly ("the trip got cancelled", "no
    need to pay the 45 pounds after all"): news of a plan or promise, whoever it names."""
    news = _NEWS.search(statement) or _RELEASED.search(statement)
    return bool(news) and not _NOT_YET.search(statement)


def calls_off(commitment: str, statement: str, owed_to: str | None = None) -> bool:
    """Whether `statement` calls off what `commitment` promises: a calling off, in one clause
    with a thing the promise acts on (or, when it acts on no thing, a name it holds); or the
    one it is `owed_to`, by name, said to need it no longer (`_RELEASED`)."""
    m = PROMISE.match(commitment.strip())
    if m is None or _NOT_YET.search(statement):
        return False
    released = _RELEASED.search(statement)
    if released and owed_to and released["who"].lower() in owed_to.lower().split():
        return True
    things, names = acted_on(m.group("what"))
    owners = {w.lower() for w in m.group("owner").split()}
    names -= owners
    for call in _CALLING_OFF.finditer(statement):
        named = call.group("after") or call.group("before") or call.group("first")
        named = named or call.group("act") or ""
        said, said_names = thing_words(named)
        if things & said or (names & said_names and not things):
            return True
    return False
