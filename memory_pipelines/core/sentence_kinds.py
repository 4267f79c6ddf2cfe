"""Sentence kinds and speech acts: what one sentence of a chat turn does.

A turn is split into sentences (core/sentence_split.py) and each sentence gets a kind: a save
reason (a lesson, a commitment, a shipped outcome, a decision with its why, a stable preference,
a durable fact) or hedge / meta / ack / greeting / fact (small talk with a concrete detail) /
plain. Reported speech ("The user asked me about the weather") is reduced to what was said, if
anything (core/reported_speech.py); hedges are in core/hedges.py, talk about the conversation
itself (greetings, thanks, requests, pauses) in core/speech_acts.py. The save decision built on
these kinds is in core/policy.py. Pure Python, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory_pipelines.core.concrete import (
    DAY,
    EVENT,
    FACT_SIGNAL,
    MONTH,
    SPAN,
    STATIVE,
    STRONG_SIGNAL,
    TRANSIENT,
    WHEN,
    norm,
)
from memory_pipelines.core.concrete import plain_statement as plain_statement  # re-exported
from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.hedges import is_hedged, unhedged_head
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.patterns import rx as _rx
from memory_pipelines.core.reactions import feeling_after_reaction, reaction_end
from memory_pipelines.core.reported_speech import PROPOSED, REQUESTED, reported_content
from memory_pipelines.core.sentence_split import content_words as content_words  # re-exported
from memory_pipelines.core.sentence_split import sentence_spans as sentence_spans  # re-exported
from memory_pipelines.core.sentence_split import sentences as sentences  # re-exported
from memory_pipelines.core.speech_acts import (
    ACK,
    ANAPHORIC_REQUEST,
    GREETING,
    HORTATIVE,
    META,
    QUESTION_ORDER,
    REQUEST,
    STEERING,
    asks_unmarked,
)
from memory_pipelines.core.their_likings import their_preference

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


DEADLINE = _rx(
    rf"\b(?:by|before|until|on|at)\s+(?:the\s+)?(?:end of|noon|eod|{DAY}|{MONTH}|\d|"
    rf"(?:next|this) {SPAN})|\b(?:tomorrow|tonight|(?:next|this) {SPAN})\b"
)
_LESSON = _rx(
    # a lesson learned ("Lesson from the roof leak: ...", "the lesson here"), not lessons taken
    # ("Leo has piano lessons on Tuesdays")
    r"^\W*lessons?\b(?!\s+(?:on|at|with|in|every|each|for|this|next|are|start)\b)|"
    r"\blessons? learn(?:ed|t)\b|"
    r"\b(?:the|a|one|big|real|main|key|hard|valuable|important) lesson\b"
    r"(?! (?:on|at|with|in|every|each|for|this|next)\b)|\blesson:|"
    r"\blearn(?:ed|t)\b|\bthe hard way\b|\bnever\b.{0,60}\bagain\b|\btakeaway|"
    r"\btook from\b|\bshould(?: have|'ve)\b|\bturns out\b|\broot cause\b|"
    # a note for one's future self, a vow not to repeat something
    r"\b(?:note|reminder|tip|memo) (?:to|for) (?:self|myself|future)|\bfuture (?:me|self)\b|"
    r"\b(?:won't|will not)\b.{0,60}\bagain\b|"
    # ... and what was at last understood ("finally got why the build failed"), not what was at
    # last obtained ("we finally got a place", "finally got the keys")
    r"\bnext time\b|\bfinally (?:understand|understood|figured)\b|\bfigured out\b|"
    r"\bfinally (?:get|got) (?:it|why|how|what|that)\b(?!['’]s|\s+(?:is|was)\b)"
)
# A task taken on ("the booking's on me", "Action on me"), not "go easy on me" or "count on me".
ON_ME = r"(?:'s|\bis|\bare|'re|\bwas|\bactions?) on me\b"
_COMMIT = _rx(
    r"\b(?:i|we)(?:'ll| will| shall|'m going to|'re going to| am going to| are going to)\b|"
    rf"\bpromis(?:e|ed)\b|{ON_ME}|\b(?:it's|that's) mine\b|\bgonna\b(?! lie\b)|"
    r"\bsigned up (?:to|for)\b|"
    r"\btold\b.{0,40}\b(?:i'd|we'd|i would|we would|would be|will be)\b|\b(?:i|we) owe\b|"
    # "I said I'd send them the new agreement by 20 June": a pledge reported
    r"\bsaid (?:that )?(?:i|we)(?:'d|’d| would)\b|"
    # "Will do" on its own (or with thanks) acknowledges, it promises nothing
    r"\bcommitted to\b|\bagreed to\b|\bleave it with me\b|\b(?:i|we) (?:swore|vowed|pledged)\b|"
    r"^\W*(?:(?:the )?user )?will\b(?! do\W*(?:(?:thanks|cheers|ta|mate)\W*)?$)|"
    r"\bhold(?:ing)? (?:myself|ourselves) to\b"
)
_OWNED = _rx(  # the marks of a pledge, beyond the future tense
    rf"\bpromis|{ON_ME}|\bmine\b|\bowe\b|\bsigned up\b|\bagreed\b|\btold\b|\bcommitted\b|"
    r"\bsaid (?:that )?(?:i|we)(?:'d|’d| would)\b|"
    r"\bleave it with me\b|\bhold(?:ing)? (?:myself|ourselves) to\b"
)
# A task owned by another person, with its due time ("Priya owns the review and reports back by
# 3 May", "Told my landlord he'd have the rent by Monday"): a commitment though not the speaker's.
_DELEGATED = re.compile(
    r"^\W*(?!(?:The|This|That|These|Those|It|There|Our|My|Your|His|Her|Their|We|I|You)\b)"
    r"(?:[A-Z][a-z]+|[Hh]e|[Ss]he|[Tt]hey)\s+(?:owns|is (?:handling|doing|on|in charge of|"
    r"responsible for)|will|'ll|is going to)\b|"
    r"(?i:\btold\b.{0,40}\b(?:he|she|they|you)(?:'d| would)\b)|"
    # "Kofi said he'll send the contract over next week": another's pledge reported
    r"^\W*(?!(?:The|This|That|These|Those|It|There|Our|My|Your|His|Her|Their|We|I|You)\b)"
    r"[A-Z][a-z]+ said (?:that )?(?:he|she|they)(?:'ll|'d| will| would)\b"
)
_PROGRESSIVE = _rx(r"\b(?:i'm|i am|we're|we are) \w+ing\b")  # "I'm paying him back by June"
_HABITUAL = _rx(r"\b(?:always|never|usually|whenever)\b")  # "what I'll always choose"
_SHIPPED = _rx(  # past tense only, so "we'll launch in May" stays a commitment
    r"\bshipped\b|\bwent (?:live|out)\b|(?:'s| is) live\b|\blaunched\b|\breleased\b|\bdeployed\b|"
    # "is out" ships; "coffee is out for me" rules out
    r"\brolled out\b|\bpublished\b|\bwent up\b|(?:'s| is) out\b(?! (?:for|of)\b)|"
    r"\bgot (?:funded|accepted)|"
    r"\bgot (?:the|a|an) (?:job|offer|place|contract|role|promotion)\b|"
    r"\b(?:was|were|got|been|has|have) approved\b|\bapproved the\b|"
    r"\bmerged\b|\b(?:is|are|was|were|'s) (?:done|complete)\b|^\W*done\b|"
    r"\bfinished\b|\bcompleted\b|\bpassed\b|\bdelivered\b|\bsubmitted\b|"
    r"\b(?:we|i) (?:opened|won)\b(?!')"  # not "I won't"
)
_DECISION = _rx(
    r"\b(?:going|go|went|gone) with\b|\bopted\b|\bsettled on\b|\bdecided\b|\bdecision\b|"
    r"\bmade up (?:my|our) minds?\b|\b(?:choice|call) (?:is|was|'s) made\b|"
    r"\bmade (?:the|a|my|our) (?:call|choice)\b|\bfinal (?:call|decision|answer)\b|"
    # a bare choice with its reason: "Fine, the cheaper tyres then, since we're selling the car"
    r"^\W*(?:(?:ok(?:ay)?|fine|right|alright|so|ugh)\W+)*(?:the|a|an) (?:[a-z-]+ ){0,3}?[a-z-]+,? "
    r"then\W+(?:because|since|as|so)\b|"
    # the idiom of choice, with its reason: "The laser printer it is, not the inkjet: I print
    # little" (not "that's the way it is", "I know what it is")
    r"^\W*(?:(?:ok(?:ay)?|fine|right|alright|so|ugh|well)\W+)*(?:[a-z-]+ ){0,4}"
    r"(?!(?:what|how|where|way|whatever|as|because|if|when|than|that|who|which|why|whether|so|"
    r"know|think|say|said|since|is|was|whoever|wherever)\b)[a-z-]+ it is\b(?! (?:a|an|the)\b)"
    r".*(?:\bbecause\b|\bsince\b|\bso (?:that|i|we|it|the|they)\b|[:;])|"
    r"\bch(?:ose|osen)\b|\bpicked\b|\bswitch(?:ing|ed)?\b|\binstead\b|\bstick(?:ing)? with\b|"
    r"\b(?:i'm|i am|we're|we are|i've|we've) (?:moving|moved|dropping|dropped|keeping|taking|"
    r"using|pinning|replacing|cancell?ing|ditching|swapping)\b|"
    # a first-person action plus its reason: "I'm caching the rates: the provider is hourly"
    # (not an inspection and its findings: "I checked the repo: it targets Node 20")
    r"^\W*(?:\w+,\s*)?(?:(?:i|we)(?:'ve| have)? (?:(?!(?:checked|looked|searched|tested|inspected|"
    r"reviewed|scanned|queried|verified|confirmed|noticed|asked)\b)\w+ed|set|put|made|kept|took|built|cut|"
    r"split|left|went for)|(?:i'm|we're|i am|we are) (?:not )?\w+ing)\b"
    r".*(?:\bbecause\b|\bsince\b|\bso (?:that|i|we|it|the|they)\b|[:;])"
)
_ONE_OFF = _rx(r"^\W*now\b|\bthis time\b|\b(?:just )?this once\b|\bfor now\b|\bagain\b")
# A lasting preference, said as one ("never" narrating the past is none: "I never said that",
# "Never really tried it").
_PREFERENCE = _rx(
    rf"\balways\b|\bnever\b(?! (?:\w+ly |ever )?{PAST_VERB}\b| ?mind\b(?=\W*$|[,;:.!]))|\bprefer|"
    r"\bi (?:really )?(?:like|love|hate|dislike|enjoy|can't stand)\b|"
    r"\bi (?:really |just )?(?:don't|do not) (?:like|eat|drink)\b|\bfrom now on\b|"
    r"\bgoing forward\b|\bin future\b|\bby default\b|\bcall me\b|\bi go by\b|"
    r"\bi'm (?:not )?(?:a|an) \w+ person\b|\bfor anything\b|"
    r"\bi'd (?:rather|pick|choose|go for)\b|\bfavou?rite\b|\bi'm (?:vegetarian|vegan|teetotal)\b|"
    # a liking that never was is one that lasts: "I never liked the open-plan office"
    r"\bnever (?:really )?(?:liked|loved|enjoyed|cared for)\b"
)
# An instruction about how things should be done: a preference unless marked as a one-off ("Now
# in Spanish, please", "skip the intro this time").
_INSTRUCTION = _rx(
    r"\bskip the\b|\bplease\b|"
    r"\b(?:don't|do not) (?:give|send|show|suggest|recommend|use|write|schedule|book|put|add|"
    r"include|call|email|ask)\b|^\W*no \w+ (?:in|for|on|before|after|during|past|until)\b|"
    # a cap said with its amount ("three bullets max", "once a week max", "max £150"); not a
    # name ("my dog Max had surgery")
    r"\bmax\b(?=\s*[£$€\d])|(?:\b\d[\w.,%]{0,12}|\b(?:one|two|three|four|five|six|seven|eight|"
    r"nine|ten|twenty|fifty|hundred|thousand|grand|once|twice))"
    r"(?:\s+(?!(?:called|named|and|is|was)\b)[\w%]+){0,2}\s+max\b|\bat most\b|"
    r"\bwhen(?:ever)? you (?:recommend|suggest|write|draft|give|send|book|plan|make|reply|answer|"
    r"explain|quote|list|show)\b|"
    # an instruction with a general scope or a contrast, its topic perhaps put first: "Use tabs,
    # not spaces, in all my code", "Any budget numbers, show euros first", "For X give me Y, not Z"
    r"^(?=.*(?:\ball\b|\bany\w*|\bevery\w*|\brather than\b|, not\b))"
    r"(?:.*(?:[,;:]\s*|\bso\s+)|\W*(?:for (?:\w+\s+){1,3})?)(?:use|give|write|send|keep|put|avoid|"
    r"stop|format|quote|convert|reply|answer|respond|show|leave|skip|list|include|suggest)\b|"
    r"\bkeep \w+ (?:short|narrow|brief|simple|concise|under|below)\b"
)
# A thing handed to somebody: "send her", "give the school", "bring Dr Osei", "email it to Sam".
_HANDED_TO = re.compile(
    r"\b(?i:send|give|bring|hand|email|post|drop off|pass|forward|show)\s+(?:(?i:it|them)\s+)?"
    r"(?:(?i:to)\s+)?(?:(?i:him|her|them|the\s+[a-z]+)\b|(?:Mrs?|Ms|Dr|Miss)\.?\s+[A-Z]|[A-Z][a-z]+)"
)
_LASTING = _rx(
    r"\b(?:always|never(?! ?mind\b(?=\W*$|[,;:.!]))|from now on|going forward|in future|"
    r"by default)\b"
)
ADDITIVE = _rx(r"\btoo\b|\balso\b|\bas well\b|\bplus\b|\banother\b|\bone more\b")

# A scope that makes an instruction standing ("... for all my emails", "... from now on").
_SCOPE = _rx(
    r"\b(?:all|any|every|each)\w*|\b(?:always|never|whenever|from now on|going forward|in future)\b"
)
_REASON = _rx(r"\bbecause\b|\bsince\b|\bso (?:that|we|i)\b")


# ... or whom it was done to: "We fired Mike", "I met Anna".
_NAMED_AFTER = re.compile(r"\s[A-Z][a-z]+\W*$")


# Reports within reports peeled at most ("Ana said that Ben told her that ..."): past these the
# rest is read as it stands. A sentence of hundreds of frames must not exhaust Python's stack.
MAX_FRAMES = 8


@lru_cache(maxsize=16384)  # a turn is judged again as context of the next window
def sentence_kind(sent: str, role: str) -> str:
    """A save reason, or one of meta, hedge, greeting, ack, fact (small talk with a concrete
    detail) and plain. The first rule that matches wins, most specific first."""
    for _ in range(MAX_FRAMES):
        reported = reported_content(sent)
        if reported == "":
            return "meta"  # talk about the conversation, told as a story of it
        if reported and PROPOSED.match(sent.strip()) and not SAFETY.search(sent):
            return "hedge"  # "The assistant suggested I try yoga": a proposal, not (yet) a fact
        if reported and REQUESTED.match(sent.strip()) and not _LASTING.search(reported):
            return "meta"  # "The user asked me to redo the chart": a one-off task, reported
        kind = _kind(sent, role)
        if not reported or kind in SAVE_KINDS:
            return kind
        # The frame aside, what was said decides ("Ana said she moved to Porto"); a frame that
        # is itself the point ("I told the landlord it would be paid by Monday") keeps its kind.
        sent = reported
    return _kind(sent, role)


def _after_one_off(low: str, end: int, role: str, depth: int) -> str:
    """Talk about the conversation ends at low[:end]; a clause after it keeps its own kind
    ("Scratch that, the party is on Sunday 14th now"), else the sentence is meta."""
    rest = low[end:]
    clause = rest.lstrip(" ,;:") if rest[:1] in (",", ";", ":") else ""
    kind = _kind(clause, role, depth + 1) if clause else "meta"
    return kind if kind not in ("plain", "ack", "greeting") else "meta"


# A promise after an ask, in return for what is asked: "Tell me what's in each one and I'll ..."
_THEN_I_WILL = _rx(r",? and (?=(?:i'll|i will|we'll|we will)\b)")
# News announced as such after a word of assent or a greeting ("ok update, ...", "Hiya! Quick
# update: ..."): what follows decides.
# What a hello goes on to say, told by the one who says it: "so i finally started ...", "we
# got the house!" (not "how are you", nor "just checking in")
_SAYS = _rx(r"^\W*(?:so\W+|guess what\W+|omg\W+)?(?:i|i'm|i've|we|we're|we've|my|our)\b")
_NEWS = _rx(
    r"^\W*(?:(?:quick|small|big|little|good|bad) )?(?:update|news)\s*[,!.;:\u2013\u2014-]+\s*"
)
# A question whose subject is the listener ("can you always use metric?") may ask for a lasting
# way of working; any other question asks, and states nothing.
_TO_YOU = _rx(r"^\W*(?:(?:so|and|but|ok(?:ay)?|hmm+|wait|also|pls|please)\W+)*\w+(?:n't)? you\b")

# The listener praised for what they did, and nothing else said: "Nice work sticking with it!"
_PRAISE = _rx(
    r"^\W*(?:(?:nice|great|good|brilliant|amazing|awesome|excellent|fantastic) (?:work|job|going)"
    r"|well done)\b[^,;:.!?]*[.!]*\W*$"
)
# The first clause of a sentence ends at a comma, a semicolon or a dash.
_FIRST_CLAUSE = re.compile(r",\s|;\s|\s[-\u2013\u2014]\s")


def _safety_said_outright(sent: str, role: str) -> bool:
    """Whether a health or safety fact is said in the sentence's first clause without a hedge:
    a hedge in a clause after it ("..., apparently the first week is the rough one") leaves it
    said. A question, a hedged first clause ("I might be allergic to nuts, not sure") or the
    assistant's words are no such fact."""
    if role == "assistant" or sent.rstrip().endswith("?"):
        return False  # the assistant's word on a medicine is advice, not the person's fact
    head = _FIRST_CLAUSE.split(sent, maxsplit=1)[0]
    return head != sent and bool(SAFETY.search(norm(head))) and not is_hedged(head, role)


def _kind(sent: str, role: str, depth: int = 0) -> str:
    """The kind of one sentence; a lead-in it peels off (a label and colon, a reaction, a
    greeting, "then I'll") hands the rest to itself, at most MAX_FRAMES deep ("Right, right,
    right, ..." thousands of times must neither exhaust the stack nor take seconds)."""
    if depth > MAX_FRAMES:
        return "plain"
    low = norm(sent)
    if role == "assistant" and _PRAISE.match(low):
        return "ack"  # "Nice work sticking with it.": the listener praised, nothing told
    # the chat's next turn ("I'll get back to you") is no pledge, unless by a due time ("Let me
    # check with finance and get back to you by Thursday")
    if (
        META.search(low)
        and not _LASTING.search(low)
        and not ((HORTATIVE.match(low) or _COMMIT.search(low)) and DEADLINE.search(low))
    ):
        then = _THEN_I_WILL.search(low)
        if then and _kind(low[then.end() :], role, depth + 1) == "commitment":
            return "commitment"  # "Tell me what's in each one and I'll send you a schedule ..."
        # "Can you make it shorter?" but not "Can you always use metric?"; a statement after a
        # colon or semicolon keeps its kind ("That's not what I asked, but: my landlord is X"),
        # unless the head presents what follows ("Here's the draft: ...")
        head, _, tail = low.replace(";", ":").partition(":")
        if tail.strip() and META.search(head) and not re.match(r"\W*here", head):
            kind = _kind(tail.strip(), role, depth + 1)
            if kind in SAVE_KINDS or kind == "fact":
                return kind
        return "meta"
    step = HORTATIVE.match(low)
    if step and not (_LASTING.search(low) or DEADLINE.search(low)):
        return _after_one_off(
            low, step.end(), role, depth
        )  # not "Let me do the invoices from now on"
    steer = STEERING.search(low)
    if steer and not _LASTING.search(low):  # "pick it up tomorrow" dates the chat, no task
        return _after_one_off(low, steer.end(), role, depth)
    if _safety_said_outright(sent, role):
        return "fact"  # "the GP started me on sertraline 50mg, apparently the first week is ..."
    if is_hedged(sent, role) and not (unhedged_head(sent, role) and _DECISION.search(low)):
        return "hedge"  # a choice made for an unsure reason is still made (hedges.unhedged_head)
    committed = (
        (_COMMIT.search(low) and not _HABITUAL.search(low))
        or (_PROGRESSIVE.search(low) and DEADLINE.search(low))
        or (_DELEGATED.search(sent) and DEADLINE.search(low))
        # "Let me check with finance and get back to you by Thursday": a step with a due time
        or (HORTATIVE.match(low) and DEADLINE.search(low))
    )
    # A fact whatever else the sentence does (see _is_restatement too), but a thing promised
    # to somebody by a due time ("I'll send her his asthma card by Wednesday") is a promise,
    # whatever it is about ("I'm going to start him on the new inhaler tomorrow" stays a fact).
    handed = committed and DEADLINE.search(low) and _HANDED_TO.search(sent)
    if SAFETY.search(low) and not low.endswith("?") and not handed:
        return "fact"
    # (with its mark a question is read as before, below: read as meta here, the kinds of
    # LoCoMo's "What's your favorite game?" moved its items and MRR fell 0.0016)
    if asks_unmarked(low) and not _TO_YOU.match(low):
        return "meta"  # "is it me or is the tram always late": asks, states no liking
    if feeling_after_reaction(sent):
        return "ack"
    if _LESSON.search(low):
        return "hard_lesson"
    if committed:
        if _REASON.search(low) and not DEADLINE.search(low) and not _OWNED.search(low):
            # "I'll use a token bucket, since the supplier allows bursts": a choice with its
            # reason and no due time or pledge is a decision, not a promise.
            return "decision_with_why"
        return "commitment"
    if _SHIPPED.search(low):
        return "shipped_outcome"
    if _DECISION.search(low):
        return "decision_with_why"
    request = ANAPHORIC_REQUEST.search(low) if role == "user" else None
    if request and not _SCOPE.search(low):
        # A one-off request about the last output, "please" or not.
        return _after_one_off(low, request.end(), role, depth)
    if _PREFERENCE.search(low) or (their_preference(sent) and not low.endswith("?")):
        return "stable_preference"
    if _INSTRUCTION.search(low):
        return "meta" if _ONE_OFF.search(low) else "stable_preference"  # "... this time": a request
    if role == "user" and REQUEST.search(low):
        return "meta"
    reacted = reaction_end(sent)
    if reacted is not None:  # "That sounds like a lovely trip!", "You're right, my bad"
        clause = sent[reacted:].lstrip(" ,;:!-\u2013\u2014")
        kind = _kind(clause, role, depth + 1) if clause else "ack"
        return kind if kind in SAVE_KINDS or kind in ("fact", "hedge") else "ack"
    lead = GREETING.match(low) or ACK.match(low)
    if lead or (re.search(r"\bthank", low) and not FACT_SIGNAL.search(low)):
        rest = low[lead.end() :] if lead else ""
        if FACT_SIGNAL.search(rest) or (ADDITIVE.search(rest) and len(content_words(rest)) >= 3):
            return "fact"  # "Morning! Before I forget: our office moved", "Yes, and X too"
        news = _NEWS.match(rest)  # "ok update, the kids overruled me, she's Nutmeg now"
        # ... or after a hello, the news it opens with ("hey so i finally started the new job")
        hello = news is None and GREETING.match(low) and _SAYS.match(rest)
        if news or hello:
            body = rest[news.end() :] if news else rest
            kind = _kind(body, role, depth + 1) if body else "plain"
            if kind in SAVE_KINDS or kind == "fact" or plain_statement(body):
                return kind if kind != "plain" else "fact"
        if not GREETING.match(low) and _REASON.search(rest):
            return "decision_with_why"  # "OK, the later flight, because it's direct"
        return "greeting" if GREETING.match(low) else "ack"
    if low.endswith("?") or QUESTION_ORDER.match(low):
        return "meta"  # a question to the assistant is not a durable statement
    head, colon, body = low.partition(":")
    if colon and body.strip() and len(head.split()) <= 3:
        # a label before a colon ("Quick update: we got the keys"): what follows decides
        kind = _kind(body.strip(), role, depth + 1)
        if kind != "plain":
            return kind
    # "I missed it" tells nothing; "I graduated last week" does: an event needs five words or
    # its time
    event = EVENT.search(low) and (
        len(low.split()) >= 5 or WHEN.search(low) or _NAMED_AFTER.search(sent)
    )
    # "I'm ..." tells a lasting state unless it is said of now only ("I'm so tired today")
    stative = STATIVE.search(low) and not TRANSIENT.search(low)
    # "I'm ..." said of today only, with no detail beyond somebody's thing, is the day's doing
    # ("I'm practising my French on everyone today")
    today_only = STATIVE.search(low) and TRANSIENT.search(low) and not STRONG_SIGNAL.search(low)
    concrete = (FACT_SIGNAL.search(low) and not today_only) or stative or event
    return "fact" if concrete else "plain"


def is_pledge(sent: str) -> bool:
    """Whether a sentence has the marks of a firm promise: a due time or a pledge ("on me",
    "I promised"), beyond the future tense ("We'll overpay when we can" has neither)."""
    low = norm(sent)
    return bool(DEADLINE.search(low) or _OWNED.search(low))
