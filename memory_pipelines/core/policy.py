"""Save policy: should a chat turn become a memory item, and in which category?

Deterministic rules written from the labelling guide (benchmarks/data/policy/README.md). A turn is
split into sentences and each sentence gets a kind: a save reason, or hedge / meta / ack /
greeting / fact / plain. The turn is labelled by its most durable part, after two checks against
the recent turns: content already in the history, and restatements (optionally with an embedding
similarity). Pure Python: no database, no model unless a similarity function is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

Similarity = Callable[[str, Sequence[str]], list[float]]

SAVE_REASONS: dict[str, str] = {  # reason -> category; the order is the priority within a turn
    "hard_lesson": "lesson",
    "commitment": "commitment",
    "shipped_outcome": "fact",
    "decision_with_why": "decision",
    "stable_preference": "preference",
    "durable_fact": "fact",
}
SKIP_REASONS = ("greeting", "meta_chatter", "restatement", "already_in_history", "speculation")
# Cut-offs for all-MiniLM-L6-v2: paraphrases of a recent turn sit above 0.7, while a turn that
# opens like a reply ("Yeah, ...") only has to be on the same topic.
ECHO_SIM = 0.7
CUED_ECHO_SIM = 0.4
LEXICAL_ECHO = 0.5  # share of content words already in recent turns, when there is no embedder


@dataclass(frozen=True)
class PolicyVerdict:
    save: bool
    category: str | None
    reason: str


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_SPAN = r"(?:week|month|year|weekend|morning|afternoon|evening|quarter|term)"
_DEADLINE = _rx(
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
_PROGRESSIVE = _rx(r"\b(?:i'm|i am|we're|we are) \w+ing\b")  # "I'm paying him back by June"
_HABITUAL = _rx(r"\b(?:always|never|usually|whenever)\b")  # "what I'll always choose"
_SHIPPED = _rx(  # past tense only, so "we'll launch in May" stays a commitment
    r"\bshipped\b|\bwent (?:live|out)\b|(?:'s| is) live\b|\blaunched\b|\breleased\b|\bdeployed\b|"
    r"\brolled out\b|\bpublished\b|\bwent up\b|(?:'s| is) out\b|\bgot (?:funded|accepted)|"
    r"\bgot (?:the|a|an) (?:job|offer|place|contract|role|promotion)\b|"
    r"\b(?:was|were|got|been|has|have) approved\b|\bapproved the\b|"
    r"\bmerged\b|\b(?:is|are|was|were|'s) (?:done|complete)\b|^\W*done\b|"
    r"\bfinished\b|\bcompleted\b|\bpassed\b|\bdelivered\b|\bsubmitted\b|\b(?:we|i) (?:opened|won)\b"
)
_DECISION = _rx(
    r"\b(?:going|go|went|gone) with\b|\bopted\b|\bsettled on\b|\bdecided\b|\bdecision\b|"
    r"\bch(?:ose|osen)\b|\bpicked\b|\bswitch(?:ing|ed)?\b|\binstead\b|\bstick(?:ing)? with\b|"
    r"\b(?:i'm|i am|we're|we are|i've|we've) (?:moving|moved|dropping|dropped|keeping|taking|"
    r"using|pinning|replacing|cancell?ing|ditching|swapping)\b|"
    # a first-person action plus its reason: "I'm caching the rates: the provider is hourly"
    r"^\W*(?:\w+,\s*)?(?:(?:i|we)(?:'ve| have)? (?:\w+ed|set|put|made|kept|took|built|cut|"
    r"split|left)|(?:i'm|we're|i am|we are) (?:not )?\w+ing)\b"
    r".*(?:\bbecause\b|\bsince\b|\bso (?:that|i|we|it|the|they)\b|[:;])"
)
_PREFERENCE = _rx(
    r"\balways\b|\bnever\b|\bprefer|\bi (?:really )?(?:like|love|hate|dislike|enjoy|can't stand)\b|"
    r"\bi don't (?:like|eat|drink)\b|\bfrom now on\b|\bgoing forward\b|\bin future\b|"
    r"\bby default\b|\bcall me\b|\bi'm (?:not )?(?:a|an) \w+ person\b|\bfor anything\b|"
    r"\bi'd (?:rather|pick|choose|go for)\b|\bfavou?rite\b|\bskip the\b|\bplease\b|"
    r"\b(?:don't|do not) (?:give|send|show|suggest|recommend|use|write|schedule|book|put|add|"
    r"include|call|email|ask)\b|^\W*no \w+ (?:in|for|on)\b|\bmax\b|\bat most\b|"
    r"\bwhen(?:ever)? you (?:recommend|suggest|write|draft|give|send|book|plan|make|reply|answer|"
    r"explain|quote|list|show)\b|\bi'm (?:vegetarian|vegan|teetotal)\b|"
    # an instruction with a general scope or a contrast: "Use tabs, not spaces, in all my code"
    r"(?:^|[,;:]\s*|\bso\s+)(?:use|give|write|send|keep|put|avoid|stop|format|quote|convert|"
    r"reply|answer|respond)\b.*(?:\ball\b|\bany\w*|\bevery\w*|\brather than\b|, not\b)|"
    r"\bkeep \w+ (?:short|narrow|brief|simple|concise|under|below)\b"
)
_HEDGE = _rx(
    r"\bmaybe\b|\bmight\b|\bperhaps\b|\bpossibl[ey]\b|\bprobably\b|\b(?:un)?likely\b|"
    r"\bnot sure\b|\bunsure\b|\bno idea\b|\bguess\b|\bhunch\b|\ba chance\b|\bcould (?:be|go|try)\b|"
    r"\b(?:you|it|that|this|we) could\b|\bsome ?day\b|\bone day\b|\bat some point\b|"
    r"\bthinking (?:about|of)\b|\bconsidering\b|\btoying with\b|\bwonder|\btempted\b|"
    r"\bdepend(?:s|ing) on\b|\btbd\b|\bundecided\b|\bhaven't decided\b|\bnot (?:yet )?confirmed\b|"
    r"\bnothing's confirmed\b|\bhave to check\b|\beither way\b|\b(?:i|we) think\b|\bthinks\b|"
    r"\bsuspect|\bhopefully\b|\bif i get (?:time|a chance|round)|\bhave you (?:tried|considered)\b|"
    r"\bhow about\b|\bwhy not\b|\bworth (?:a )?try"
)
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
_SUGGESTION = _rx(r"\bi(?:'d)? (?:suggest|recommend)\b")  # hedged only when the assistant says it
# Small words that may open a sentence before a greeting or a meta phrase ("Sure, here's ...").
_LEAD = r"^\W*(?:(?:sure|ok(?:ay)?|right|great|yes|yeah|sorry|and|hmm+)\W+)?"
_META = _rx(  # talk about the conversation itself: reshape/repeat requests, pauses, sign-offs
    _LEAD + r"(?:let me (?:think|know|check|look)|remind me|help me|tell me|show me|"
    r"(?:shorter|longer|simpler|again|next|more|continue|go on|carry on)\b|repeat (?:that|it)|"
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
    r"\brepeat (?:that|it|the last)\b"
)
_LASTING = _rx(r"\b(?:always|never|from now on|going forward|in future|by default)\b")
_ACK = _rx(
    r"^\W*(?:thanks|thank you|thx|cheers|ta|perfect|great|awesome|cool|nice|lovely|brilliant|"
    r"excellent|amazing|ok(?:ay)?|sure|alright|sounds good|fair enough|lol|haha|hmm+|oh wow|"
    r"wow|got it|gotcha|makes sense|noted|understood|will do|of course|no problem|right|yes|"
    r"yeah|yep|that's (?:great|perfect|brilliant|lovely|helpful|fine|amazing|awesome))\b"
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
_HISTORY = _rx(
    r"^\W*(?:\w+\W+){0,3}(?:recap|summary|summari[sz]e)\b|\bsum(?:ming)? up\b|^\W*quoting\b|"
    r"\b(?:pasting|re-?sending|re-?posting|resend(?:ing)?|copying|forwarding)\b|"
    r"\bhere it is again\b|\bfrom before\b|\b(?:your|my) earlier (?:answer|message|reply)\b|"
    r"\bwhat (?:i|you) (?:wrote|said) earlier\b|\bsame (?:error|output|log|traceback)\b|"
    r"\b(?:sent|pasted|posted|shared) (?:earlier|before)\b|"
    r"^\W*(?:again|once more):"
)
# A recap announces itself before its first colon: "Session summary: ...", "Recap: ...".
_RECAP_HEAD = _rx(r"\brecap\w*|\bsummar(?:y|ies|ise|ize)\b|\bso far\b|\bwhere we (?:are|landed)\b")
_QUOTED = re.compile(r"[\"\u201c`]([^\"\u201d`]{20,})[\"\u201d`]")
_ECHO_STRONG = _rx(
    r"\bwhat you're saying\b|\bso you mean\b|\bif i understand\b|\bwhat i said\b|"
    r"\b(?:like|as) i (?:said|mentioned)\b|\bto be clear\b|\bin other words\b|\bas mentioned\b|"
    r"\bgot it\W*$|\bthat's the gist\b|\bin a nutshell\b|\b(?:right|correct|is that right)\?$"
)
_ECHO_WEAK = _rx(r"^\W*(?:yeah|yep|yes|so|basically|right|exactly|i mean)\b")
_ADDITIVE = _rx(r"\btoo\b|\balso\b|\bas well\b|\bplus\b|\banother\b|\bone more\b")
_ASSISTANT_ACK = _rx(
    r"^\W*(?:noted|got it|understood|ok(?:ay)?|will do|gotcha|of course|sure|right|makes sense|"
    r"sounds like|so you)\b|\bnoted\b"
)
_STOP_WORDS = (
    "a an the and or but so to of in on at for with by from is are was were be been it its this "
    "that these those i you we he she they me my our your his her their them us do does did not "
    "no yes yeah ok just now then than as if up out about into over can will would have has had "
    "what which who when where how all any some"
)
_STOP = frozenset(_STOP_WORDS.split())
# "Never buy X. They refused my claim." A rule for oneself backed by a past mishap is a lesson;
# a rule that mentions me/you ("Never book me on red-eyes") is a preference about the service.
_SELF_RULE = _rx(r"^\W*(?:never|always|don't|do not) (?!.*\b(?:me|my|you|your)\b)")
# A one-off task for the assistant ("Write a haiku", "Compare these two offers") is not memory.
_REQUEST = _rx(
    r"^\W*(?:write|draft|make|create|find|compare|summari[sz]e|translate|explain|list|fix|check|"
    r"sort|generate|plan|calculate|rewrite|proofread|review|look up|search|give me|tell me)\b"
)
_REASON = _rx(r"\bbecause\b|\bsince\b|\bso (?:that|we|i)\b")
_STATIVE = _rx(r"^\W*(?:i'm|i am|we're|we are|i have|we have|i've got|we've got)\b")
# Something that happened to the speaker: "I adopted a dog last week", "we went to Lisbon".
_EVENT = _rx(
    r"^\W*(?:i|we)(?: just| finally| also| recently)? (?:\w+ed|went|got|made|took|ran|saw|met|"
    r"bought|found|gave|won|lost|began|wrote|built|sold|left|became|moved)\b"
)
_PAST = _rx(r"\b(?:was|were|had|lost|got|\w+ed)\b")
_SKIP_KINDS = ("meta", "ack", "greeting", "hedge")

# Episodes and session summaries never become memory items (the spec): they are the history
# channel's job. A category naming a stretch of conversation rather than a kind of fact.
_HISTORY_CATEGORY = re.compile(
    r"^(?:\w+[_-])?(?:episodes?|sessions?|summary|summaries|recaps?|conversations?|transcripts?"
    r"|dialogues?|chat|chats|chat[_-]?logs?|logs?|turns?|messages?|threads?)(?:[_-]\w+)?$",
    re.IGNORECASE,
)
# Reported speech: "The user asked me a question about the weather", "I told the user that
# ...". The frame says who spoke to whom; only what was said can be a memory.
_PARTY = r"(?:the )?(?:user|assistant|agent|bot|customer|i|we|you|they|he|she|[A-Z][a-z]+)"
_REPORT = re.compile(
    rf"^\W*{_PARTY}\s+(?:just\s+|then\s+|also\s+)?(?P<verb>asked|told|said|mentioned|explained|noted"
    r"|wanted to know|wondered|thanked|greeted|replied|answered|responded|chatted|talked|spoke"
    r"|discussed|requested|wrote|messaged|pinged|apologi[sz]ed|welcomed|clarified|confirmed"
    r"|brought up|inquired|enquired)\b"
    r"(?:\s+(?:to\s+|with\s+)?(?:me|us|you|him|her|them|the (?:user|assistant|agent|bot)))?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# Speech acts that carry no statement whatever follows them ("thanked me for the recipe").
_SOCIAL = re.compile(
    r"\b(?:thanked|greeted|welcomed|apologi[sz]ed|chatted|talked|spoke)\b", re.IGNORECASE
)
# What a report is about when it carries no statement: "a question about X", "about X", "for
# help", "hello", "thanks", "how to ...".
_SPEECH_ACT = re.compile(
    r"^\W*(?:(?:a|an|some|the|another|few|couple of|several)\s+)*(?:\w+\s+)?"
    r"(?:questions?|things?|favou?rs?|help|advice|clarification|hello|hi|thanks|goodbye|bye"
    r"|greetings?|chat|conversation|summary|recap|update|request)\b"
    r"|^\W*for\s+(?:(?:a|an|some|more)\s+)?(?:help|advice|clarification|a hand|hand|summary"
    r"|recap|update|feedback|ideas|suggestions|tips|examples?|explanation)\b"
    r"|^\W*(?:about|how|what|when|where|why|who|which|if|whether)\b"
    r"|^\W*(?:to|with)\s+(?:the\s+)?\w+\W*$"
    r"|^\W*$",
    re.IGNORECASE,
)


# Verbs whose object is never a statement.
_ONLY_ACTS = frozenset(
    ("thanked", "greeted", "welcomed", "apologised", "apologized", "pinged", "chatted")
)


def history_category(category: str) -> bool:
    """Whether a category names an episode, a session or its summary (never a memory item)."""
    return bool(_HISTORY_CATEGORY.match(category.strip()))


def reported_content(sentence: str) -> str | None:
    """What a sentence of reported speech says, without its frame: "" when it only reports a
    speech act ("The user asked me a question about the weather"), the statement when it
    reports one ("The user told me that she is allergic to kiwi" -> "she is allergic to kiwi"),
    None when the sentence is no report."""
    m = _REPORT.match(sentence.strip())
    if not m:
        return None
    if m.group("verb").lower() in _ONLY_ACTS:
        return ""  # "thanked me for the recipe", "apologised for the delay"
    rest = m.group("rest").strip()
    if _SOCIAL.search(sentence[: m.start("rest")]):
        return ""  # thanking, greeting, chatting: the act is all there is, whatever it was for
    rest = re.sub(r"^(?:that|:)\s+", "", rest, flags=re.IGNORECASE)
    return "" if _SPEECH_ACT.match(rest) else rest


def _norm(text: str) -> str:
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


def _strip_role(line: str) -> str:
    return re.sub(r"^(?:user|assistant|system|tool):\s*", "", line.strip(), flags=re.IGNORECASE)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9%£€$']+", text.lower()) if w not in _STOP}


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))


def _shares_run(a: str, b: str, n: float) -> bool:
    """Whether a and b share a run of at least n characters. A run that long covers one of a's
    pieces of length ~n/2 cut at fixed steps, so when b holds none of them there is no need
    for the (slow) longest-match search."""
    size = max(1, int(n + 1) // 2)
    if not any(a[i : i + size] in b for i in range(0, len(a) - size + 1, size)):
        return False
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match().size >= n


@lru_cache(maxsize=16384)  # a turn is judged again as context of the next window
def sentence_kind(sent: str, role: str) -> str:
    """A save reason, or one of meta, hedge, greeting, ack, fact (small talk with a concrete
    detail) and plain. The first rule that matches wins, most specific first."""
    reported = reported_content(sent)
    if reported == "":
        return "meta"  # talk about the conversation, told as a story of it
    kind = _kind(sent, role)
    if reported and kind not in SAVE_REASONS:
        # The frame aside, what was said decides ("Ana said she moved to Porto"); a frame that
        # is itself the point ("I told the landlord it would be paid by Monday") keeps its kind.
        return sentence_kind(reported, role)
    return kind


def _kind(sent: str, role: str) -> str:
    low = _norm(sent)
    if _META.search(low) and not _LASTING.search(low):
        return "meta"  # "Can you make it shorter?" but not "Can you always use metric?"
    if _HEDGE.search(low) or (role == "assistant" and _SUGGESTION.search(low)):
        return "hedge"
    if SAFETY.search(low) and not low.endswith("?"):
        return "fact"  # a fact whatever else the sentence does (see _is_restatement too)
    if _LESSON.search(low):
        return "hard_lesson"
    if (_COMMIT.search(low) and not _HABITUAL.search(low)) or (
        _PROGRESSIVE.search(low) and _DEADLINE.search(low)
    ):
        return "commitment"
    if _SHIPPED.search(low):
        return "shipped_outcome"
    if _DECISION.search(low):
        return "decision_with_why"
    if _PREFERENCE.search(low):
        return "stable_preference"
    if role == "user" and _REQUEST.search(low):
        return "meta"
    lead = _GREETING.match(low) or _ACK.match(low)
    if lead or (re.search(r"\bthank", low) and not _FACT_SIGNAL.search(low)):
        rest = low[lead.end() :] if lead else ""
        if _FACT_SIGNAL.search(rest) or (_ADDITIVE.search(rest) and len(_words(rest)) >= 3):
            return "fact"  # "Morning! Before I forget: our office moved", "Yes, and X too"
        if not _GREETING.match(low) and _REASON.search(rest):
            return "decision_with_why"  # "OK, the later flight, because it's direct"
        return "greeting" if _GREETING.match(low) else "ack"
    if low.endswith("?"):
        return "meta"  # a question to the assistant is not a durable statement
    event = _EVENT.search(low) and len(low.split()) >= 5  # "I missed it" tells nothing
    concrete = _FACT_SIGNAL.search(low) or _STATIVE.search(low) or event
    return "fact" if concrete else "plain"


def is_already_in_history(text: str, recent: Sequence[str] = (), role: str = "user") -> bool:
    """Recaps, summaries, re-pastes and quotes: a cue, or a long stretch copied from a recent
    turn. A user re-pasting a block is history; the assistant echoing a line is a restatement."""
    if _HISTORY.search(text) or (":" in text and _RECAP_HEAD.search(text.split(":", 1)[0])):
        return True
    flat = _norm(text)
    # Quoted spans and the lines of a pasted block are checked one by one.
    lines = text.strip().splitlines()
    quotes = [_norm(q) for q in [*_QUOTED.findall(text), *lines[1:]] if len(q.strip()) >= 20]
    block = "\n" in text.strip() or role == "user"
    for line in recent:
        other = _norm(_strip_role(line))
        if any(_shares_run(q, other, 0.8 * len(q)) for q in quotes):
            return True
        if block and _shares_run(flat, other, max(30, len(flat) // 2)):
            return True
    return False


def _is_restatement(
    text: str, role: str, kinds: list[str], recent: Sequence[str], similarity: Similarity | None
) -> bool:
    if not recent or _ADDITIVE.search(text):
        return False  # "and amoxicillin too": a restatement that adds a detail is a save
    if _ECHO_STRONG.search(text):
        return True
    if all(k in ("meta", "greeting", "hedge") for k in kinds):
        return False  # a skip with its own, more specific reason
    others = [_strip_role(r) for r in recent]
    new_numbers = _numbers(text) - _numbers(" ".join(others))
    new_deadline = bool(_DEADLINE.search(text)) and not any(_DEADLINE.search(o) for o in others)
    if role == "assistant" and _ASSISTANT_ACK.search(text) and not (new_numbers or new_deadline):
        # "Noted: no chicken bones for Luna." The assistant only confirms what it was told.
        return not any(k in ("hard_lesson", "shipped_outcome") for k in kinds)
    if SAFETY.search(text):
        # A health or safety fact is never missed: said again (or answering "Any allergies?"),
        # it is saved, and the dedup judge merges it into the record if there is one.
        return False
    if new_numbers or any(k in SAVE_REASONS for k in kinds):
        return False
    sim = max(similarity(text, others), default=0.0) if similarity else None
    if _ECHO_WEAK.search(text) and len(_words(text)) >= 2:  # "Yes, thanks!" is no echo
        return sim is None or sim >= CUED_ECHO_SIM
    if sim is not None:
        return sim >= ECHO_SIM
    words = _words(text)
    return bool(words) and len(words & _words(" ".join(others))) / len(words) >= LEXICAL_ECHO


def _is_self_rule_lesson(sents: list[str], kinds: list[str]) -> bool:
    rules = [
        i for i, k in enumerate(kinds) if k == "stable_preference" and _SELF_RULE.search(sents[i])
    ]
    return bool(rules) and any(_PAST.search(s) for i, s in enumerate(sents) if i not in rules)


def _judge(
    text: str, role: str, recent: Sequence[str], similarity: Similarity | None
) -> tuple[PolicyVerdict, list[str]]:
    role = role.lower()
    sents = sentences(text)
    kinds = [sentence_kind(s, role) for s in sents]
    if not sents:
        return PolicyVerdict(False, None, "meta_chatter"), kinds
    if is_already_in_history(text, recent, role):
        return PolicyVerdict(False, None, "already_in_history"), kinds
    if _is_restatement(text, role, kinds, recent, similarity):
        return PolicyVerdict(False, None, "restatement"), kinds
    for reason, category in SAVE_REASONS.items():
        if reason in kinds:
            if reason == "stable_preference" and _is_self_rule_lesson(sents, kinds):
                return PolicyVerdict(True, "lesson", "hard_lesson"), kinds
            return PolicyVerdict(True, category, reason), kinds
    # With no explicit durable marker a hedge beats plain statements ("I might be allergic?
    # I felt weird after the paella.") and a greeting beats the small talk after it.
    if "hedge" in kinds:
        return PolicyVerdict(False, None, "speculation"), kinds
    if kinds[0] == "greeting" and "fact" not in kinds:
        return PolicyVerdict(False, None, "greeting"), kinds
    if "fact" in kinds or any(
        k == "plain" and len(s.split()) >= 5 for k, s in zip(kinds, sents, strict=True)
    ):
        return PolicyVerdict(True, "fact", "durable_fact"), kinds
    if "greeting" in kinds:
        return PolicyVerdict(False, None, "greeting"), kinds
    return PolicyVerdict(False, None, "meta_chatter"), kinds


def judge_turn(
    text: str,
    role: str = "user",
    recent: Sequence[str] = (),
    *,
    similarity: Similarity | None = None,
) -> PolicyVerdict:
    """Save or skip one chat turn, given up to three earlier turns ("user: ..." strings).
    similarity(text, others) -> cosines is used for restatements; else lexical overlap."""
    return _judge(text, role, recent, similarity)[0]


def is_greeting(text: str) -> bool:
    return judge_turn(text).reason == "greeting"


def is_meta_chatter(text: str) -> bool:
    return judge_turn(text).reason == "meta_chatter"


def is_speculation(text: str) -> bool:
    return judge_turn(text).reason == "speculation"


def category_for(text: str, role: str = "user") -> str:
    """Best save category for a text, ignoring the skip rules (for extracted memory items)."""
    kinds = {sentence_kind(s, role.lower()) for s in sentences(text)}
    return next((cat for reason, cat in SAVE_REASONS.items() if reason in kinds), "fact")


def skip_reason_for_item(
    context: str,
    recent_texts: Sequence[str] = (),
    similarity: Similarity | None = None,
    category: str = "",
) -> str | None:
    """Why a memory item's one-line text should not be saved, or None to save it. Items are
    terse ("Allergic to kiwi."), so unlike a turn a short plain line is kept, not chatter. An
    item whose category is an episode or a session summary is history, never memory."""
    if category and history_category(category):
        return "already_in_history"
    verdict, kinds = _judge(context, "user", recent_texts, similarity)
    if verdict.save:
        return None
    if verdict.reason == "meta_chatter" and not any(k in _SKIP_KINDS for k in kinds):
        return None
    return verdict.reason


def evaluate(
    cases: Iterable[Mapping[str, Any]], similarity: Similarity | None = None
) -> dict[str, Any]:
    """Score judge_turn on labelled cases in the policy_dev.jsonl format."""
    tp = {"save": 0, "skip": 0}
    predicted = {"save": 0, "skip": 0}
    gold_n = {"save": 0, "skip": 0}
    cat_n = cat_ok = 0
    misses: list[str] = []
    for case in cases:
        turn = case["turn"]
        v = judge_turn(turn["text"], turn["role"], case.get("recent", []), similarity=similarity)
        pred, gold = ("save" if v.save else "skip"), case["label"]
        predicted[pred] += 1
        gold_n[gold] += 1
        if pred == gold:
            tp[gold] += 1
        else:
            misses.append(case["id"])
        if gold == "save":
            cat_n += 1
            cat_ok += int(v.category == case.get("category"))
    n = gold_n["save"] + gold_n["skip"]
    per_label = {
        label: {
            "precision": tp[label] / predicted[label] if predicted[label] else 0.0,
            "recall": tp[label] / gold_n[label] if gold_n[label] else 0.0,
            "n": gold_n[label],
        }
        for label in ("save", "skip")
    }
    return {
        "n": n,
        "accuracy": (tp["save"] + tp["skip"]) / n if n else 0.0,
        "per_label": per_label,
        "category_accuracy": cat_ok / cat_n if cat_n else 0.0,
        "misses": misses,
    }
