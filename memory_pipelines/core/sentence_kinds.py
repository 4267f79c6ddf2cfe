"""Sentence kinds and speech acts: what one sentence of a chat turn does.

A turn is split into sentences and each sentence gets a kind: a save reason (a lesson, a
commitment, a shipped outcome, a decision with its why, a stable preference, a durable fact) or
hedge / meta / ack / greeting / fact (small talk with a concrete detail) / plain. Reported speech
("The user asked me about the weather") is reduced to what was said, if anything. The save
decision built on these kinds is in core/policy.py. Pure Python, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory_pipelines.core.reported_speech import PROPOSED, reported_content

# The kinds that are save reasons (core/policy.py maps each to a category and a priority).
SAVE_KINDS = frozenset(
    (
        "hard_lesson",
        "commitment",
        "shipped_outcome",
        "decision_with_why",
        "stable_preference",
        "durable_fact",
    )
)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_SPAN = r"(?:week|month|year|weekend|morning|afternoon|evening|quarter|term)"
DEADLINE = _rx(
    rf"\b(?:by|before|until|on|at)\s+(?:the\s+)?(?:end of|noon|eod|{_DAY}|{_MONTH}|\d|"
    rf"(?:next|this) {_SPAN})|\b(?:tomorrow|tonight|(?:next|this) {_SPAN})\b"
)
_LESSON = _rx(
    r"\blesson|\blearn(?:ed|t)\b|\bthe hard way\b|\bnever\b.{0,60}\bagain\b|\btakeaway|"
    r"\btook from\b|\bshould(?: have|'ve)\b|\bturns out\b|\broot cause\b|\bnote to self\b|"
    r"\bnext time\b|\bfinally (?:get|got|understand|understood|figured)\b|\bfigured out\b"
)
_COMMIT = _rx(
    r"\b(?:i|we)(?:'ll| will| shall|'m going to|'re going to| am going to| are going to)\b|"
    r"\bpromis(?:e|ed)\b|\bon me\b|\b(?:it's|that's) mine\b|\bgonna\b|\bsigned up (?:to|for)\b|"
    r"\btold\b.{0,40}\b(?:i'd|we'd|i would|we would|would be|will be)\b|\b(?:i|we) owe\b|"
    r"\bcommitted to\b|\bagreed to\b|\bleave it with me\b|^\W*(?:(?:the )?user )?will\b"
)
_OWNED = _rx(  # the marks of a pledge, beyond the future tense
    r"\bpromis|\bon me\b|\bmine\b|\bowe\b|\bsigned up\b|\bagreed\b|\btold\b|\bcommitted\b|"
    r"\bleave it with me\b"
)
_PROGRESSIVE = _rx(r"\b(?:i'm|i am|we're|we are) \w+ing\b")  # "I'm paying him back by June"
_HABITUAL = _rx(r"\b(?:always|never|usually|whenever)\b")  # "what I'll always choose"
_SHIPPED = _rx(  # past tense only, so "we'll launch in May" stays a commitment
    r"\bshipped\b|\bwent (?:live|out)\b|(?:'s| is) live\b|\blaunched\b|\breleased\b|\bdeployed\b|"
    r"\brolled out\b|\bpublished\b|\bwent up\b|(?:'s| is) out\b|\bgot (?:funded|accepted)|"
    r"\bgot (?:the|a|an) (?:job|offer|place|contract|role|promotion)\b|"
    r"\b(?:was|were|got|been|has|have) approved\b|\bapproved the\b|"
    r"\bmerged\b|\b(?:is|are|was|were|'s) (?:done|complete)\b|^\W*done\b|"
    r"\bfinished\b|\bcompleted\b|\bpassed\b|\bdelivered\b|\bsubmitted\b|"
    r"\b(?:we|i) (?:opened|won)\b(?!')"  # not "I won't"
)
_DECISION = _rx(
    r"\b(?:going|go|went|gone) with\b|\bopted\b|\bsettled on\b|\bdecided\b|\bdecision\b|"
    r"\bch(?:ose|osen)\b|\bpicked\b|\bswitch(?:ing|ed)?\b|\binstead\b|\bstick(?:ing)? with\b|"
    r"\b(?:i'm|i am|we're|we are|i've|we've) (?:moving|moved|dropping|dropped|keeping|taking|"
    r"using|pinning|replacing|cancell?ing|ditching|swapping)\b|"
    # a first-person action plus its reason: "I'm caching the rates: the provider is hourly"
    # (not an inspection and its findings: "I checked the repo: it targets Node 20")
    r"^\W*(?:\w+,\s*)?(?:(?:i|we)(?:'ve| have)? (?:(?!(?:checked|looked|searched|tested|inspected|"
    r"reviewed|scanned|queried|verified|confirmed|noticed|asked)\b)\w+ed|set|put|made|kept|took|built|cut|"
    r"split|left)|(?:i'm|we're|i am|we are) (?:not )?\w+ing)\b"
    r".*(?:\bbecause\b|\bsince\b|\bso (?:that|i|we|it|the|they)\b|[:;])"
)
_ONE_OFF = r"(?:^\W*now\b|\bthis time\b|\b(?:just )?this once\b|\bfor now\b|\bagain\b)"
_PREFERENCE = _rx(
    r"\balways\b|\bnever\b|\bprefer|\bi (?:really )?(?:like|love|hate|dislike|enjoy|can't stand)\b|"
    r"\bi (?:really |just )?(?:don't|do not) (?:like|eat|drink)\b|\bfrom now on\b|"
    r"\bgoing forward\b|\bin future\b|\bby default\b|\bcall me\b|\bi go by\b|"
    r"\bi'm (?:not )?(?:a|an) \w+ person\b|\bfor anything\b|"
    r"\bi'd (?:rather|pick|choose|go for)\b|\bfavou?rite\b|\bskip the\b|"
    # a polite instruction, unless it is marked as a one-off ("Now in Spanish, please")
    rf"^(?!.*{_ONE_OFF}).*\bplease\b|"
    r"\b(?:don't|do not) (?:give|send|show|suggest|recommend|use|write|schedule|book|put|add|"
    r"include|call|email|ask)\b|^\W*no \w+ (?:in|for|on)\b|\bmax\b|\bat most\b|"
    r"\bwhen(?:ever)? you (?:recommend|suggest|write|draft|give|send|book|plan|make|reply|answer|"
    r"explain|quote|list|show)\b|\bi'm (?:vegetarian|vegan|teetotal)\b|"
    # an instruction with a general scope or a contrast, its topic perhaps put first: "Use tabs,
    # not spaces, in all my code", "Any budget numbers, show euros first", "For X give me Y, not Z"
    r"^(?=.*(?:\ball\b|\bany\w*|\bevery\w*|\brather than\b|, not\b))"
    r"(?:.*(?:[,;:]\s*|\bso\s+)|\W*(?:for (?:\w+\s+){1,3})?)(?:use|give|write|send|keep|put|avoid|"
    r"stop|format|quote|convert|reply|answer|respond|show|leave|skip|list|include|suggest)\b|"
    r"\bkeep \w+ (?:short|narrow|brief|simple|concise|under|below)\b"
)
_HEDGE = _rx(
    r"\bmaybe\b|\bmight\b|\bperhaps\b|\bpossibl[ey]\b|\bprobably\b|\b(?:un)?likely\b|"
    r"\bnot sure\b|\bunsure\b|\bno (?:idea|clue)\b|"
    r"\b(?:don't|do not) know (?:what|whether|if|how|when|where|which|yet)\b|\bdunno\b|"
    r"\bguess\b|\bhunch\b|\bi bet\b|\bcan (?:only )?imagine\b|\ba chance\b|\bcould (?:be|go|try)\b|"
    r"\b(?:you|it|that|this|we) could\b|\bsome ?day\b|\bone day\b|\bat some point\b|"
    r"\bthinking (?:about|of)\b|\bconsidering\b|\btoying with\b|\bwonder|\btempted\b|"
    r"\bdepend(?:s|ing) on\b|\btbd\b|\bundecided\b|\bhaven't decided\b|\bnot (?:yet )?confirmed\b|"
    r"\bnothing's confirmed\b|\bhave to check\b|\beither way\b|\bthinks\b|"
    r"\bsuspect|\bhopefully\b|\bif i get (?:time|a chance|round)|\bhave you (?:tried|considered)\b|"
    r"\bhow about\b|\bwhy not\b|\bworth (?:a )?try|"
    # the modal "may" (after a pronoun, so not the month: "This May we ...") and options not taken
    r"\b(?:i|we|you|it|they|he|she|that|which|there) may (?:not |or |well |be |\w+)|"
    r"\bmay or may not\b|\b(?:one|another|an|other) (?:option|alternative)s?\b|"
    # wait-and-see idioms, a decision not (yet) made, a choice put off
    r"\bwe'll see\b|\bfingers crossed\b|\bwait and see\b|"
    r"\bnot (?:yet )?decided\b|\byet to decide\b|\bstill deciding\b|"
    r"\b(?:think|mull) (?:it|this|that) over\b|\bthink about it\b|\bsleep on it\b"
)
# A belief frame: the weakest hedge. "I think the dog is about nine" is speculation on its own,
# but it does not undo a plain, concrete fact said next to it (see is_belief_only).
_BELIEF = _rx(r"\b(?:i|we) (?:think|believe|reckon)\b(?! (?:in|of|about)\b)")  # not "believe in"
# Health, allergy and safety: never missed, whatever else the turn does ("Yes, I'm allergic to
# peanuts" answering a question is no restatement of it).
SAFETY = _rx(
    r"\ballerg\w*|\banaphyla\w*|\bepi-?pen\b|\bintoleran\w*|\bcoeliac\b|\bceliac\b|"
    r"\bdiabet\w*|\basthma\w*|\binhaler\b|\binsulin\b|\bepilep\w*|\bseizures?\b|"
    r"\bpregnan\w*|\bmedication\b|\bprescri\w*|\bblood thinners?\b|\bpacemaker\b|"
    r"\bheart condition\b|\bhigh blood pressure\b|\bdiagnosed\b|\bwheelchair\b|"
    r"\bhearing aids?\b|\bcan(?:'t|not) (?:eat|have|take|drink)\b|"
    r"\bmust(?:n't| not) (?:eat|have|take)\b|"
    r"\b(?:is|am|'m|are) (?:deaf|blind|disabled)\b|\bsafeword\b|\bemergency contact\b"
)
# Hedged only when the assistant says it: a suggestion, or a hypothetical "would" that is not its
# own ("One option would be to remortgage", "a sensor would be wasteful"; not "I would").
_SUGGESTION = _rx(
    r"\bi(?:'d)? (?:suggest|recommend)\b|(?<!\bi )(?<!\bwe )\bwould (?:be|make|give|save|cost)\b|"
    r"\byou (?:may|might) (?:want|wish|like) to\b|\bi'd (?:go with|go for|pick|choose|opt for)\b"
)
# Small words that may open a sentence before a greeting or a meta phrase ("Sure, here's ...").
_LEAD = r"^\W*(?:(?:sure|ok(?:ay)?|right|great|yes|yeah|sorry|and|hmm+)\W+)?"
_META = _rx(  # talk about the conversation itself: reshape/repeat requests, pauses, sign-offs
    # announcing a speech act: "I've got a question about my pension", "Quick question:"
    r"^\W*(?:(?:hi|hello|hey|so|ok(?:ay)?)\W+)?(?:i've got|i have|i've|got|quick|one more|another|"
    r"just a)\s+(?:a\s+)?(?:quick\s+|small\s+|silly\s+)?(?:question|favou?r|request|query)\b|"
    + _LEAD
    + r"(?:let me (?:think|know|check|look)|remind me|help me|tell me|show me|"
    # "Next!", "Next one": a request; not "Next month I'm having a show"
    r"(?:shorter|longer|simpler|again|next(?=\W*$|\s+(?:one|please|step|part|page)\b)|more|"
    r"continue|go on|carry on)\b|repeat (?:that|it)|"
    r"one (?:moment|sec|second)|give me a (?:sec|second|minute|moment)|just a (?:sec|minute)|"
    r"hang on|hold on|brb|back in \d|(?:can|could|would|will) you\b[^?]*\?$|say that again|"
    r"what was .* again|here's (?:the|a|your) (?:\w+ )?(?:version|draft)|here you go|"
    r"you're welcome|have a (?:good|nice|great)|(?:good)?bye|see you|talk (?:later|soon)|"
    r"take care|good night|that's (?:all|it)\b|ready when you are|good (?:question|point)|"
    r"fair point|as requested|here's\b[^.]*:$)|\b(?:speak|talk|chat) (?:later|soon|tomorrow)\b|"
    r"\bhadn't thought of (?:that|it)\b|\blet me (?:dig|see|find|pull)\b|"
    r"\b(?:i'll|let me) (?:have a look|take a look|look at it|get back to you|come back to you|"
    r"think about it|sleep on it)\b|"
    r"\bmake (?:it|that|this) (?:\w+ )?(?:shorter|longer|simpler)\b|\bthat's (?:all|it) for\b|"
    r"\brepeat (?:that|it|the last)\b|"
    # talk about the conversation itself: "Just wanted to say hi", "Long time no talk", "We
    # haven't talked in ages"
    r"\bgotta (?:go|run|head off)\b|\bwanted to (?:say hi|check in|catch up|see how)\b|"
    r"\blong time no (?:see|talk|chat|speak)\b|"
    r"^\W*(?:we )?(?:haven't|have not|hadn't) (?:talked|spoken|chatted|caught up)\b"
)
_LASTING = _rx(r"\b(?:always|never|from now on|going forward|in future|by default)\b")
_ACK = _rx(
    r"^\W*(?:thanks|thank you|thx|cheers|ta|perfect|great|awesome|cool|nice|lovely|brilliant|"
    r"excellent|amazing|ok(?:ay)?|sure|alright|sounds good|fair enough|lol|haha|hmm+|oh wow|"
    r"wow|got it|gotcha|makes sense|noted|understood|will do|of course|no problem|right|yes|"
    r"yeah|yep|that's (?:great|perfect|brilliant|lovely|helpful|fine|amazing|awesome)|"
    # wishes and congratulations, social formulae like thanks
    r"good luck|best of luck|congrat\w*|well done|have fun|enjoy (?:the|your)|safe travels|"
    r"get well soon|hope (?:it|you|that|the|all)|happy (?:birthday|holidays|new year|friday))\b"
)
_GREETING = _rx(
    _LEAD
    + r"(?:hi|hello|hey|welcome(?: back)?|hiya|heya|howdy|yo|morning|evening|afternoon|greetings|"
    r"good (?:morning|afternoon|evening|day)|i'm back|back now)\b"
)
_FACT_SIGNAL = _rx(  # a concrete detail that makes small talk worth keeping
    r"\d|\b(?:my|our|his|her|their) \w+|\b(?:i'm|i am|we're|we are) (?:a|an)\b|\bbtw\b|\bfyi\b|"
    r"\bbefore i forget\b|\bby the way\b|\bjust so you know\b|\bfor the record\b|\bheads up\b|"
    r"\b(?:is|are) now\b"
)

ADDITIVE = _rx(r"\btoo\b|\balso\b|\bas well\b|\bplus\b|\banother\b|\bone more\b")

_STOP_WORDS = (
    "a an the and or but so to of in on at for with by from is are was were be been it its this "
    "that these those i you we he she they me my our your his her their them us do does did not "
    "no yes yeah ok just now then than as if up out about into over can will would have has had "
    "what which who when where how all any some"
)
_STOP = frozenset(_STOP_WORDS.split())

# A one-off task for the assistant ("Write a haiku", "Compare these two offers") is not memory.
_REQUEST = _rx(
    r"^\W*(?:write|draft|make|create|find|compare|summari[sz]e|translate|explain|list|fix|check|"
    r"sort|generate|plan|calculate|rewrite|proofread|review|look up|search|give me|tell me)\b"
)
# An imperative whose object points back at the last output ("Try that again but less formal",
# "Wait, scroll back, I missed that", "Send it to me as a PDF this time"): a request about this
# conversation. The first word is taken for a verb when it is no pronoun, determiner, auxiliary,
# question word, -ing/-ed form or verb of acknowledgement ("Got it"); the pronoun must not open a
# relative clause ("Anything that needs thinking, ...").
_ANAPHORIC_REQUEST = _rx(
    r"^\W*(?:(?:wait|ok(?:ay)?|now|hmm+|sorry|please|actually|oh|no|and|but|just)\W+)*"
    r"(?!(?:i|we|you|he|she|they|it|that|this|there|here|then|what|who|how|why|where|when|which|"
    r"is|are|was|were|does|did|can|could|will|would|should|and|but|or|so|the|a|an|my|our|"
    r"your|his|her|their|not|no|yes|yeah|got|get|love|like|hate|see|mean|\w+thing|\w+one)\b)"
    r"[a-z]+(?<!ing)(?<!ed) (?:back\b|(?:it|that|this)(?=\W*$|[,;:]|\s+(?:again|back|up|down|out|"
    r"over|one|bit|part|in|into|as|to|with|for|from|more|less|properly|instead|now|but)\b))"
)
# A scope that makes an instruction standing ("... for all my emails", "... from now on").
_SCOPE = _rx(
    r"\b(?:all|any|every|each)\w*|\b(?:always|never|from now on|going forward|in future)\b"
)
_REASON = _rx(r"\bbecause\b|\bsince\b|\bso (?:that|we|i)\b")
_STATIVE = _rx(r"^\W*(?:i'm|i am|we're|we are|i have|we have|i've got|we've got)\b")
# Something that happened to the speaker: "I adopted a dog last week", "we went to Lisbon".
_EVENT = _rx(
    r"^\W*(?:i|we)(?: just| finally| also| recently)? (?:\w+ed|went|got|made|took|ran|saw|met|"
    r"bought|found|gave|won|lost|began|wrote|built|sold|left|became|moved)\b"
)

_WHEN = _rx(
    rf"\b(?:yesterday|today|tonight|(?:last|this|next) {_SPAN}|{_DAY}|ago|recently|january|"
    r"february|march|april|june|july|august|september|october|november|december)\b|"
    r"\b(?:19|20)\d\d\b"
)


def norm(text: str) -> str:
    """Lower case, straight apostrophes, single spaces."""
    return " ".join(text.lower().replace("\u2019", "'").split())


def sentences(text: str) -> list[str]:
    """Split a turn into sentences (and lines), the unit that sentence_kind labels."""
    return [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n+", text.strip()) if p.strip()]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each of sentences(text) lies in text: (start, end) character offsets."""
    spans, pos = [], 0
    for sentence in sentences(text):
        start = text.find(sentence, pos)
        if start < 0:  # cannot happen: sentences are stripped pieces of text, in order
            continue
        pos = start + len(sentence)
        spans.append((start, pos))
    return spans


def content_words(text: str) -> set[str]:
    """The words of text that are not stop words."""
    return {w for w in re.findall(r"[a-z0-9%£€$']+", text.lower()) if w not in _STOP}


@lru_cache(maxsize=16384)  # a turn is judged again as context of the next window
def sentence_kind(sent: str, role: str) -> str:
    """A save reason, or one of meta, hedge, greeting, ack, fact (small talk with a concrete
    detail) and plain. The first rule that matches wins, most specific first."""
    reported = reported_content(sent)
    if reported == "":
        return "meta"  # talk about the conversation, told as a story of it
    if reported and PROPOSED.match(sent.strip()) and not SAFETY.search(sent):
        return "hedge"  # "The assistant suggested I try yoga": a proposal, not (yet) a fact
    kind = _kind(sent, role)
    if reported and kind not in SAVE_KINDS:
        # The frame aside, what was said decides ("Ana said she moved to Porto"); a frame that
        # is itself the point ("I told the landlord it would be paid by Monday") keeps its kind.
        return sentence_kind(reported, role)
    return kind


def is_belief_only(sent: str) -> bool:
    """Whether a sentence is hedged by a belief frame ("I think ...") and nothing stronger."""
    low = norm(sent)
    return bool(_BELIEF.search(low)) and not _HEDGE.search(low)


def _kind(sent: str, role: str) -> str:
    low = norm(sent)
    if _META.search(low) and not _LASTING.search(low):
        return "meta"  # "Can you make it shorter?" but not "Can you always use metric?"
    if (
        _HEDGE.search(low)
        or _BELIEF.search(low)
        or (role == "assistant" and _SUGGESTION.search(low))
    ):
        return "hedge"
    if SAFETY.search(low) and not low.endswith("?"):
        return "fact"  # a fact whatever else the sentence does (see _is_restatement too)
    if _LESSON.search(low):
        return "hard_lesson"
    if (_COMMIT.search(low) and not _HABITUAL.search(low)) or (
        _PROGRESSIVE.search(low) and DEADLINE.search(low)
    ):
        if _REASON.search(low) and not DEADLINE.search(low) and not _OWNED.search(low):
            # "I'll use a token bucket, since the supplier allows bursts": a choice with its
            # reason and no due time or pledge is a decision, not a promise.
            return "decision_with_why"
        return "commitment"
    if _SHIPPED.search(low):
        return "shipped_outcome"
    if _DECISION.search(low):
        return "decision_with_why"
    request = _ANAPHORIC_REQUEST.search(low) if role == "user" else None
    if request and not _SCOPE.search(low):
        # A one-off request about the last output, "please" or not; a clause after it keeps its
        # own kind ("Scratch that, the party is on Sunday 14th now").
        rest = low[request.end() :]
        clause = rest.lstrip(" ,;:") if rest[:1] in (",", ";", ":") else ""
        kind = _kind(clause, role) if clause else "meta"
        return kind if kind not in ("plain", "ack", "greeting") else "meta"
    if _PREFERENCE.search(low):
        return "stable_preference"
    if role == "user" and _REQUEST.search(low):
        return "meta"
    lead = _GREETING.match(low) or _ACK.match(low)
    if lead or (re.search(r"\bthank", low) and not _FACT_SIGNAL.search(low)):
        rest = low[lead.end() :] if lead else ""
        if _FACT_SIGNAL.search(rest) or (ADDITIVE.search(rest) and len(content_words(rest)) >= 3):
            return "fact"  # "Morning! Before I forget: our office moved", "Yes, and X too"
        if not _GREETING.match(low) and _REASON.search(rest):
            return "decision_with_why"  # "OK, the later flight, because it's direct"
        return "greeting" if _GREETING.match(low) else "ack"
    if low.endswith("?"):
        return "meta"  # a question to the assistant is not a durable statement
    # "I missed it" tells nothing; "I graduated last week" does: an event needs five words or
    # its time
    event = _EVENT.search(low) and (len(low.split()) >= 5 or _WHEN.search(low))
    concrete = _FACT_SIGNAL.search(low) or _STATIVE.search(low) or event
    return "fact" if concrete else "plain"
