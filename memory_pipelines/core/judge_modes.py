"""How an item of the dedup judge holds its claim: only tentatively or as a plan ("leaning
towards a van"), hedged ("probably works in healthcare"), with an exception ("only for the
legacy repo") or a condition to come ("until it is retired"), as one more of a kind ("a second
cat"), as a choice ("prefers", "would rather") and its preference pair ("tea over coffee").
What reports a change of a stored value is `judge_cues`. General English, never topic words.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import content_stems, words

# A stored item that is only tentative ("leaning towards a van") is replaced by a firm choice.
TENTATIVE = re.compile(
    r"\b(leaning|considering|thinking about|thinking of|might|maybe|probably|undecided|wants"
    r"|would like|planning|plans to|hoping|likely|would (?:\w+ )?consider)\b",
    re.IGNORECASE,
)
# A plan or an open choice ("leaning towards a van", "looking for a sofa"): settled by a firm one.
PLAN = re.compile(
    r"\b(leaning (towards?|to)|considering|thinking (of|about)|planning (to|on|for)|plans? to"
    r"|looking (for|at)|might|maybe|undecided|torn between|weighing up|would (?:\w+ )?consider"
    # a hope to do something, not to be someone ("hopes to be a licensed architect": a goal)
    r"|hop(?:es|ing) to (?!be\b|become\b)"
    # money put aside for a thing not had yet: "saving up for a camper van"
    r"|saving (?:up )?(?:[\w£$€.,]+ ){0,4}?(?:for|towards)"
    # an open decision: "has to answer the offer by 31 May", "still deciding whether to ...",
    # "hasn't chosen a school yet" (a choice made settles it, as it settles a plan)
    r"|(has|have|needs?) to (decide|answer|choose|pick|reply|respond)"
    r"|(deciding|choosing) (between|whether|if)|still deciding"
    r"|(hasn't|has not|haven't|have not|yet to|not yet) (decided|decide|chosen|choose|answered)"
    r")\b",
    re.IGNORECASE,
)
# A hedged report ("Probably works in healthcare", "Seems to favour ..."): an inference about
# something, vaguer than a stated fact and never a new value of it.
HEDGE = re.compile(
    r"^(probably|likely|apparently|possibly|perhaps|presumably)\b|\b(appears?|seems?) to\b"
    r"|^(might|may|could) (be|have)\b",
    re.IGNORECASE,
)
# "Uses Poetry only for the legacy repo", "except": an exception that leaves the rule standing.
EXCEPTION = re.compile(
    r"\bonly (for|in|on|when|at|after|before|during|if|with)\b|\bexcept\b|\bapart from\b"
    r"|^(for|in|on|at|with) [^,;]{3,40}\bonly\b"
    r"|\bunless\b|\ban exception\b|(?<!\bno )\bexceptions? to\b|\b(?:one|only) exception\b"
    # an occasion of its own put first: "For the family newsletter, emoji are fine", "When
    # eating out with the kids, prefers an early table"
    r"|^\W*(?:when|whenever|for|at|during) [^,;:]{3,60}[,;:]",
    re.IGNORECASE,
)
# "A second cat", "another car": a new thing beside the known one.
ADDITIVE = re.compile(
    # "a second cat" adds one; "the second floor" is a position, no addition
    # ... "too" ends its clause ("registered there too"); before a word it is a degree ("too
    # small", "too much")
    r"(?<![\w-])((?<!the )(?:second|third)|another|also|as well|too(?=\s*(?:[,.;:!?)]|$))"
    r"|extra|additional)(?![\w-])",
    re.I,
)  # not "second-hand"
# "Finished another quilt", "a second job": one more of a kind, which replaces none of them.
ANOTHER = re.compile(r"(?<![\w-])(another|second|third|additional)(?![\w-])", re.I)
# "Prefers tea to coffee": the preferred and the dispreferred side, to spot a reversal.
_PREFERENCE_PAIR = re.compile(
    r"\b(?:prefer\w*|would rather|rather)\s+(.+?)\s+(?:to|over|than|rather than|instead of)\s+"
    r"(.+?)(?=[,;.]|$|\s(?:for|when|in|on|at|these|now|because|as)\b)",
    re.IGNORECASE,
)
# A clause of condition or time to come ("until it is retired", "if the price goes up", "once
# the loan is paid off"): a change it names has not happened, so it reports none. "Once a
# quarter", "once every two weeks" say how often, not when.
CONDITION = re.compile(
    r"\b(?:until|till|unless|if|in case|before|whenever|even when"
    r"|once(?! (?:an? |per |every |each )(?:other |\w+ )?(?:day|night|week|fortnight|month"
    r"|quarter|year)s?\b))\b[^,;:.]*",
    re.IGNORECASE,
)


# A verb of choosing ("prefers", "wants", "would rather"): a preference said so is one choice
# among others, not one liking beside others ("likes Thai food").
_CHOICE = re.compile(r"\b(?:prefer(?:s|red)?|wants?|would rather|'d rather)\b", re.IGNORECASE)


def chooses(text: str) -> bool:
    """Whether an item states a choice, for no occasion or exception of its own."""
    return bool(_CHOICE.search(text)) and not EXCEPTION.search(text) and not CONDITION.search(text)


def preference_pair(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    m = _PREFERENCE_PAIR.search(text)
    if not m:
        return None
    return content_stems(words(m.group(1))), content_stems(words(m.group(2)))
