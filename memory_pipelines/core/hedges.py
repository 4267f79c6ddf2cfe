"""Hedges: what makes a sentence low-confidence speculation rather than a statement. Maybes and
modal verbs, undecided plans, belief frames ("I think ..."), and the assistant's suggestions.
Used by core/sentence_kinds.py. Pure Python."""

from __future__ import annotations

import re
from functools import lru_cache

from memory_pipelines.core.patterns import rx as _rx

# Doubt about whether what follows is of use, not about whether it is true: "Not sure this
# matters, but our table has 40 million rows", "Don't know if it's relevant: I'm left-handed".
_RELEVANCE = (
    r"(?! (?:if |whether )?(?:this|that|it)(?:'s| is| will be| would be)? (?:\w+ )?"
    r"(?:matters?|relevant|helps?|useful|important|needed|of (?:any )?use)\b)"
)
_HEDGE = _rx(
    r"\bmaybe\b|\bmight\b|\bperhaps\b|\bprobably\b|\b(?:un)?likely\b|"
    # a possibility asked or guessed: "Could I be anaemic?", "it could be the battery"
    r"^\W*could (?:i|we|it|this|that|he|she|they) (?:be|have)\b|\b(?:it|this|that) could be\b|"
    # not "whenever possible", "if possible"
    r"(?<!whenever )(?<!where )(?<!when )(?<!if )(?<!as soon as )\bpossibl[ey]\b|"
    # disbelief, not a claim: "yeah right I'm totally gonna run a marathon lol" (not "yeah,
    # right, see you at 7")
    r"^\W*(?:yeah|yea|ya|yh) right \w|"
    # hearsay and leanings: "apparently the bridge closes", "leaning towards", "who knows"
    r"\bapparently\b|\bsupposedly\b|\ballegedly\b|\bleaning (?:towards?|to)\b|"
    r"\bwho knows\b(?! (?:why|how|what|where|when)\b)|"
    # a wish under a condition: "if the bonus comes through I'd love to go" (not "if you ..."),
    # after an opener too ("honestly if I won the lottery I'd move to Lisbon")
    r"^\W*(?:(?:honestly|tbh|ngl|lol|haha|but|and|so|ok|okay|well|man|mate|like)\W+)*"
    r"if (?!you\b).*\b(?:i'd|we'd|i would|we would)\b|"
    r"\b(?:i'd|we'd|i would|we would) (?:love|like) to\b.*\bif (?!you\b)|"
    rf"\bunsure\b|(?:\bnot|n't) (?:\w+ )?(?:sure|certain|convinced)\b{_RELEVANCE}|\buncertain\b|"
    r"\bno (?:idea|clue)\b|"
    rf"\b(?:don't|do not) know{_RELEVANCE} (?:what|whether|if|how|when|where|which|yet)\b|"
    rf"\bdunno\b{_RELEVANCE}|"
    r"\bguess\b|\bhunch\b|\bi bet\b|\bmy money'?s on\b|\bcan (?:only )?imagine\b|\ba chance\b|"
    # odds and gut feelings: "there's a good chance", "chances are", "my gut says"
    r"\b(?:good|fair|high|decent|slim|small|real|big|strong) chances?\b|\bchances are\b|"
    r"\bmy gut\b|\bsomething tells me\b|\bi have a (?:feeling|sneaking suspicion)\b|"
    r"\bcould (?:be|go|try)\b|"
    # "could" for what may happen to a thing ("the bridge could close"); a person's "could" may
    # be past ability ("she could read at four")
    r"\b(?:the|this|that|these|those|there|which) (?:[a-z-]+ ){0,2}?could "
    r"(?!not\b|n't|only\b|finally\b|already\b)[a-z]+|"  # not a limit: "could only give me the 9th"
    r"\b(?:you|it|that|this|we) could\b|\bsome ?day\b|\bone day\b|"
    # "at some point" leaves the time open; "at some point this summer" names it
    r"\bat some point\b(?! (?:this|next|in|before|during|over|by)\b)|"
    r"\bthinking (?:about|of)\b|\bconsidering\b|\btoying with\b|\bwonder|\btempted\b|"
    r"\bdepend(?:s|ing) on\b|\btbd\b|\bundecided\b|\bhaven't decided\b|\bnot (?:yet )?confirmed\b|"
    # an outcome open "either way" ("could go either way"); not the adverb "either way"
    # (whatever happens: "I'm presenting a poster either way" is settled)
    r"\bnothing's confirmed\b|\bhave to check\b|\b(?:go|goes|going|land|swing|fall|break|cut) "
    r"either way\b|"
    # another person's belief: "the vet thinks", "my accountant reckons" (not "believes in")
    r"\b(?:thinks|reckons|believes)\b(?! (?:in|of)\b)|"
    r"\bsuspect|\bhopefully\b|\bif i get (?:time|a chance|round)|\bhave you (?:tried|considered)\b|"
    r"\bhow about\b|\bwhy not\b|\bworth (?:a )?try|"
    # options not taken (the modal "may" is _modal_may below)
    r"\bmay or may not\b|\b(?:one|another|an|other) (?:option|alternative)s?\b|"
    # wait-and-see idioms, a decision not (yet) made, a choice put off
    r"\bwe'll see\b|\bfingers crossed\b|\bwait and see\b|"
    r"\bnot (?:yet )?decided\b|\byet to decide\b|\bstill deciding\b|"
    # deliberation: "going back and forth on whether to take it", "in two minds", "nothing's
    # fixed", "torn between the two"
    r"\bin two minds\b|\btorn (?:between|on|over|about)\b|\b(?:on|about|over) whether\b|"
    r"\bcan(?:'t|not) (?:decide|make up (?:my|our) minds?)\b|"
    r"\bnothing(?:'s| is)? (?:fixed|final|settled|set in stone|definite|decided|booked)\b|"
    r"\bnot set in stone\b|\bdecide (?:later|after|once|when|nearer|closer|on the day)\b|"
    r"\b(?:think|mull) (?:it|this|that) over\b|\bthink about it\b|\bsleep on it\b|"
    # an outcome put as even odds or open: "it's fifty-fifty", "up in the air", "a toss-up"
    # (not a split: "we go 50/50 on rent")
    r"\b(?:is|'s|are|looks|seems|feels|about|at) (?:a |like )?(?:fifty-fifty|50/50|50-50)\b|"
    r"\bup in the air\b|\btoss-?up\b|\bcoin ?(?:flip|toss)\b|\bon the fence\b|"
    r"\btouch and go\b|"
    # a possibility weighed and doubted, an attempt with no pledge, an answer still to come:
    # "I suppose I could ask", "I doubt it", "I'll try to ..., but no promises", "we'll know more"
    r"\bi suppose\b|\bi doubt\b|\bno promises\b|"
    r"\b(?:i'll|i will|we'll|we will) (?:know|find out|hear|learn) more\b"
)
# The modal "may" before a verb, wherever its subject ("The roof may need new tiles"); not the
# month or a name: capitalised inside a sentence, or after a word that takes a date ("in may",
# "early may", "this may").
_MAY = re.compile(r"\b(?P<may>may) (?!\d|only\b)[a-z']+", re.IGNORECASE)  # "may only": a rule
_DATE_WORDS = (
    "in of on by until till since from before after during through this next last early late mid "
    "every each end start beginning middle"
)
_DATE_WORD = frozenset(_DATE_WORDS.split())


def _modal_may(sent: str) -> bool:
    for m in _MAY.finditer(sent):
        before = sent[: m.start()].split()
        if not before or (m.group("may") != "may" and not sent.islower()):
            continue  # "May we ...?", "in May", "Aunt May"; an all-lower-case turn has no capitals
        if before[-1].lower().strip("-,") not in _DATE_WORD and not before[-1].endswith("-"):
            return True
    return False


# A belief frame: the weakest hedge. "I think the dog is about nine" is speculation on its own,
# but it does not undo a plain, concrete fact said next to it (see is_belief_only).
_BELIEF = _rx(r"\b(?:i|we) (?:think|believe|reckon)\b(?! (?:in|of|about)\b)")  # not "believe in"
# Hedged only when the assistant says it: a suggestion, or a hypothetical "would" that is not its
# own ("One option would be to remortgage", "a sensor would be wasteful"; not "I would").
_SUGGESTION = _rx(
    r"\bi(?:'d)? (?:suggest|recommend)\b|(?<!\bi )(?<!\bwe )\bwould (?:be|make|give|save|cost)\b|"
    r"\byou (?:may|might) (?:want|wish|like) to\b|\bi'd (?:go with|go for|pick|choose|opt for)\b"
)
# General advice, when no "I" or "we" of the assistant's own work is in the sentence: what can
# help, what others find, an offer on the listener's terms, and advice in the imperative ("Take
# it one step at a time", "Try to rest this weekend").
_ADVICE = _rx(
    r"\b(?:can|could|may|tends? to|often|usually) (?:really |also |often )?helps?\b"
    r"(?! (?:you|with))|"
    r"\bmake (?:a|all the) (?:\w+ )?difference\b|"
    r"\bit (?:really |often |usually |always )?helps (?:to|if)\b|"
    r"\b(?:some|many|most|a lot of|plenty of) (?:\w+ ){0,2}?(?:people|folks|find|swear by)\b|"
    r"^\W*if you(?:'re| are|'d| would)? (?:open to|up for|want|like|prefer|fancy|feel like)\b|"
    r"^\W*(?:(?:so|and|also|maybe|just|honestly)\W+)*(?:try(?: to)?|consider|remember to|"
    r"make sure|don't forget|be sure to|take it|aim (?:to|for)|focus on|feel free)\b"
)

_OWN_WORK = _rx(r"\b(?:i|we)(?:'ve|'m|'re|'ll|'d)?\b")


def is_belief_only(sent: str) -> bool:
    """Whether a sentence is hedged by a belief frame ("I think ...") and nothing stronger."""
    low = " ".join(sent.lower().replace("\u2019", "'").split())
    return bool(_BELIEF.search(low)) and not (_HEDGE.search(low) or _modal_may(sent))


# Where a reason starts: a colon, a semicolon, "because", "since".
_REASON_SPLIT = re.compile(r"\s*[:;]\s+|,?\s+(?:because|since)\s+", re.IGNORECASE)


# A clause of belief coordinated after a statement: "Our loaf is £4.20 and I think we're
# losing money on it", "The lease is signed, but I guess the rent goes up".
# ... or any hedged clause so coordinated: "Ezra turned 7 on sunday and is apparently too old
# for hugs now".
_TAIL = re.compile(r",?\s+(?:and|but|so)\s+", re.IGNORECASE)


def without_hedged_tail(sent: str, role: str) -> str:
    """A statement said firmly, without the hedged clause coordinated after it: the belief is
    unsure, the statement before it is not ("Our sourdough loaf is £4.20 and I think we're
    losing money on it" -> "Our sourdough loaf is £4.20")."""
    # the first joint with a firm statement before it and a hedged clause after it ("just so
    # you know I'm lactose intolerant, so maybe stop putting cheese in everything")
    for m in _TAIL.finditer(sent):
        head = sent[: m.start()]
        if len(head.split()) < 4 or is_hedged(head, role):
            continue
        if is_hedged(sent[m.end() :], role):
            return head.rstrip(" ,;") + "."
    return sent


def unhedged_head(sent: str, role: str) -> str | None:
    """The part of sent before its reason, when the reason holds the hedge and the head none:
    "We've decided to rent, since we might move" (the choice is made; only its why is unsure)."""
    parts = _REASON_SPLIT.split(sent, maxsplit=1)
    if len(parts) == 2 and parts[0].strip() and not is_hedged(parts[0], role):
        return parts[0]
    return None


@lru_cache(maxsize=16384)  # a sentence is read by the save policy, extraction and the judge
def is_hedged(sent: str, role: str) -> bool:
    """Whether a sentence is hedged: a hedge word, the modal "may", a belief frame, or a
    suggestion when the assistant says it."""
    low = " ".join(sent.lower().replace("\u2019", "'").split())
    return bool(
        _HEDGE.search(low)
        or _modal_may(sent)
        or _BELIEF.search(low)
        or (role == "assistant" and _SUGGESTION.search(low))
        or (role == "assistant" and _ADVICE.search(low) and not _OWN_WORK.search(low))
    )
