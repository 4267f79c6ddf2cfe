"""What the chat already holds: recaps, summaries, re-pastes and quotes of earlier turns
(`is_already_in_history`), and categories that name a stretch of conversation, not a fact
(`history_category`). Used by the save policy (core/policy.py); what repeats or paraphrases
what was just said is core/repeats.py. Pure Python."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from memory_pipelines.core.patterns import rx as _rx
from memory_pipelines.core.sentence_kinds import norm

_HISTORY = _rx(
    # a recap announced, not one thanked for ("Thanks for the summary. I'll email ...")
    r"^\W*(?!thanks\b|thank you\b|cheers\b|ta\b)(?:\w+\W+){0,3}(?:recap|summary|summari[sz]e)\b|"
    r"\bsum(?:ming)? up\b|^\W*quoting\b|"
    r"\b(?:pasting|re-?sending|re-?posting|resend(?:ing)?|copying|forwarding)\b|"
    r"\bre-?(?:shar(?:e|es|ed|ing)|past(?:e|es|ed|ing)|upload\w*|attach\w*)\b|"
    r"\bhere it is again\b|\bfrom before\b|"
    r"\b(?:your|my) earlier (?:answer|message|reply)\b|\bscroll(?:ed|ing)? (?:back )?up\b|"
    r"\bwhat (?:i|you) (?:wrote|said|sent|told (?:me|you)) (?:earlier|before|yesterday|"
    r"last (?:week|time|month|night)|the other day|at the (?:start|beginning|top))\b|"
    r"\bsame (?:error|output|log|traceback)\b|"
    r"\b(?:sent|pasted|posted|shared) (?:earlier|before)\b|"
    r"^\W*(?:again|once more):|"
    # something presented as said before: "Here's the itinerary again", "Same email I showed
    # you before", "To remind you what I wrote on Monday", "my message from earlier"
    r"^\W*(?:here(?:'s| is| are)|this is|same)\b[^.?!]*\b(?:again|before|earlier|previously|"
    r"as (?:we )?agreed|last time)\b|"
    r"\bto remind you (?:of )?what (?:i|you|we) (?:wrote|said|sent|agreed)\b|"
    r"\b(?:my|your|the) (?:message|email|note|text|list|plan|answer) from (?:earlier|before)\b|"
    # a turn that opens by pointing at what was said before: "As we discussed, the renewal is due
    # in March", "Again, as I said: ..." (not "As promised, the fix is live": a promise kept)
    r"^\W*(?:(?:again|ok(?:ay)?|so|right|yes|yeah|and)\W+)*as (?:i|we|you)(?: already)? "
    r"(?:said|discussed|mentioned|agreed|covered|told you|went over)\b"
)
# A recap announces itself before its first colon: "Session summary: ...", "Recap: ...".
# The head names a recap ("Daily digest: ...") or the conversation as its topic ("Here's what we
# covered today: ..."), or what follows as shown before ("The schema from earlier: ...").
_RECAP_HEAD = _rx(
    r"\brecap\w*|\bsummar(?:y|ies|ise|ize)\b|\bso far\b|\bdigest\b|\bfrom earlier\b|"
    r"\bwhere we (?:are|landed|got to|ended up|left off|stand)\b|"
    r"\brundown\b|\bround-?up\b|\bwrap[- ]?up\b|\btl;?dr\b|\bwhat (?:we|you and i) "
    r"(?:covered|discussed|talked (?:about|through)|went (?:over|through))\b|"
    # the head names the conversation itself: "Session notes: ...", "Notes from today: ..."
    r"^\W*(?:(?:today's|our|the|this)\s+)?(?:session|meeting|call|chat)(?:'s)? notes\W*$|"
    r"^\W*notes (?:from|for) (?:today|this|our)\b|"
    r"\b(?:today's|this) (?:session|chat|conversation)\W*$"
)
# A request for a recap ("can you sum up what we did?", "give me the week's recap"): the
# assistant's answer to it, when it lists what happened, is a recap whatever its head.
_RECAP_ASK = _rx(
    r"\brecap\w*|\bsummar(?:y|ies|ise|ize)\b|\bsum (?:\w+ )?up\b|\bround-?up\b|\brundown\b|"
    r"\btl;?dr\b|\bwhat (?:did )?(?:we|you and i) (?:did|do|covered|cover|discussed|discuss|"
    r"talked about|went (?:over|through)|got through)\b"
)
_PLEDGE = _rx(r"\b(?:i|we)(?:'ll| will| shall)\b|\bgoing to\b")
_QUOTED = re.compile(r"[\"\u201c`]([^\"\u201d`]{20,})[\"\u201d`]")
# Episodes and session summaries never become memory items (the spec): they are the history
# channel's job. A category naming a stretch of conversation rather than a kind of fact.
_HISTORY_CATEGORY = re.compile(
    r"^(?:\w+[_-])?(?:episodes?|episodic|sessions?|summary|summaries|recaps?|conversations?|transcripts?"
    r"|dialogues?|chat|chats|chat[_-]?logs?|logs?|turns?|messages?|threads?)(?:[_-]\w+)?$",
    re.IGNORECASE,
)


def history_category(category: str) -> bool:
    """Whether a category names an episode, a session or its summary (never a memory item)."""
    return bool(_HISTORY_CATEGORY.match(category.strip()))


def strip_role(line: str) -> str:
    """A recent turn's text without its "user: " (or other role) prefix."""
    return re.sub(r"^(?:user|assistant|system|tool):\s*", "", line.strip(), flags=re.IGNORECASE)


def _shares_run(a: str, b: str, n: float) -> bool:
    """Whether a and b share a run of at least n characters. A run that long covers one of a's
    pieces of length ~n/2 cut at fixed steps, so when b holds none of them there is no need
    for the (slow) longest-match search."""
    size = max(1, int(n + 1) // 2)
    if not any(a[i : i + size] in b for i in range(0, len(a) - size + 1, size)):
        return False
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match().size >= n


def _answers_recap_request(text: str, recent: Sequence[str]) -> bool:
    """Whether text lists three things or more, none of them a pledge, right after the user
    asked for a recap."""
    users = [r for r in recent if r.lower().startswith("user:")]
    listing = len(re.findall(r"[,;]|\band\b", text)) >= 2 and not _PLEDGE.search(text)
    return bool(users) and listing and bool(_RECAP_ASK.search(strip_role(users[-1])))


def is_already_in_history(text: str, recent: Sequence[str] = (), role: str = "user") -> bool:
    """Recaps, summaries, re-pastes and quotes: a cue, or a long stretch copied from a recent
    turn. A user re-pasting a block is history; the assistant echoing a line is a restatement."""
    if _HISTORY.search(text) or (":" in text and _RECAP_HEAD.search(text.split(":", 1)[0])):
        return True
    if role == "assistant" and _answers_recap_request(text, recent):
        return True
    flat = norm(text)
    # Quoted spans and the lines of a pasted block are checked one by one.
    lines = text.strip().splitlines()
    quotes = [norm(q) for q in [*_QUOTED.findall(text), *lines[1:]] if len(q.strip()) >= 20]
    block = "\n" in text.strip() or role == "user"
    for line in recent:
        other = norm(strip_role(line))
        if any(_shares_run(q, other, 0.8 * len(q)) for q in quotes):
            return True
        if block and _shares_run(flat, other, max(30, len(flat) // 2)):
            return True
    return False
