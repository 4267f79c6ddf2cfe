"""The local extractor: stable-fact candidates from a window of turns, by the save policy.

Each turn the policy would save yields its durable sentences, rewritten to name the speaker
("I adopted a dog" said by Ana -> "Ana adopted a dog") with relative dates resolved against
when the turn was said. Confidence is capped at 6: a machine proposes, a person states.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memory_pipelines.core import policy, sentence_kinds
from memory_pipelines.core.corrections import apply_to_earlier, corrected, correction
from memory_pipelines.core.dates import annotate
from memory_pipelines.core.promises import bookkeeping, promise
from memory_pipelines.core.third_person import third_person

# The speaker's pronoun (she, he or they), as the backend judges it from the name.
PronounOf = Callable[[str], str]

MAX_CONFIDENCE = 6
MAX_PER_TURN = 2  # the spec's budget of saves per turn
MAX_CONTEXT = 300
_CAPITALISED = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")
_NOT_ENTITIES = frozenset(
    (
        "I",
        "The",
        "A",
        "An",
        "And",
        "But",
        "So",
        "Oh",
        "Hey",
        "Hi",
        "Yes",
        "No",
        "Yeah",
        "Wow",
        "Thanks",
        "Thank",
        "That",
        "This",
        "It",
        "What",
        "When",
        "Where",
        "How",
        "Why",
        "Who",
        "Which",
        "We",
        "You",
        "He",
        "She",
        "They",
        "My",
        "Our",
        "Your",
        "Just",
        "Well",
        "Okay",
        "Ok",
        "Sure",
        "Also",
        "Really",
        "Great",
        "Good",
        "Nice",
        "Awesome",
        "Cool",
        "Sounds",
    )
)


@dataclass(frozen=True)
class WindowTurn:
    """A turn as extraction sees it."""

    seq: int
    role: str
    speaker: str
    text: str
    created_at: datetime
    embedding: np.ndarray | None = None  # the stored one, so no text is embedded twice
    sentences: Mapping[str, np.ndarray] = field(default_factory=dict)  # sentence -> vector


def entities_of(text: str, speaker: str) -> list[str]:
    found = [speaker] if speaker else []
    for m in _CAPITALISED.finditer(text):
        name = m.group(1)
        if name.split()[0] not in _NOT_ENTITIES and name not in found:
            found.append(name)
    return found[:10]


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_CONTEXT else text[: MAX_CONTEXT - 1].rstrip() + "…"


def durable_parts(text: str, role: str) -> list[tuple[str, str]]:
    """The sentences of a turn worth keeping, with their category: explicit save reasons
    (lesson, commitment, decision, ...) first, then plain statements of fact."""
    safety: list[tuple[str, str]] = []
    strong, plain = [], []
    for sentence in sentence_kinds.sentences(text):
        sentence = _without_bookkeeping(sentence)
        if not sentence:
            continue
        kind = sentence_kinds.sentence_kind(sentence, role.lower())
        if sentence_kinds.SAFETY.search(sentence) and kind in ("fact", "durable_fact"):
            safety.append((sentence, "fact"))  # never crowded out, however short
            continue
        if not _stands_alone(sentence, kind in policy.SAVE_REASONS, kind):
            continue
        if kind in policy.SAVE_REASONS:
            strong.append((sentence, policy.SAVE_REASONS[kind]))
        elif kind == "fact" or (kind == "plain" and len(sentence.split()) >= 5):
            plain.append((sentence, "fact"))
    return safety + strong + plain[:1]


# "Yes, ...", "Oh, ...": an answer's opener is no part of the fact.
_LEAD_ACK = re.compile(
    r"^\W*(?:yes|yeah|yep|no|nope|oh|ah|well|so|sure|ok(?:ay)?|right|hmm+|um+|actually)\b[,!.]*\s+",
    re.IGNORECASE,
)


def _without_bookkeeping(sentence: str) -> str:
    """The sentence without clauses that only keep a note ("...; I'll note it")."""
    clauses = re.split(r"(?<=[;,:])\s+|\s+(?=(?:and|so) (?:i|we)\b)", sentence)
    kept = [c for c in clauses if not bookkeeping(c)]
    if len(kept) == len(clauses):
        return sentence
    return " ".join(kept).strip(" ;,:") + ("." if kept else "")


# Cheering the listener on, or both: "Let's keep going!", "We'll get through this!".
_CHEER = re.compile(
    r"^\W*(?:let's|let us)\b|^\W*we(?:'ll| will) (?:get|make it|pull) through\b", re.I
)

# Small talk aimed at the listener ("Your kids look so happy!", "Sorry that happened to you")
# or about the conversation itself says nothing durable about anybody.
_LISTENER = re.compile(r"\b(?:you|your|you're|you've|yours|yourself)\b", re.IGNORECASE)
_SPEAKER = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b", re.IGNORECASE
)
_REACTION = re.compile(
    r"^\W*(?:wow|aw+|oh|ooh|haha|lol|yay|omg|that's|that is|sounds|so glad|glad|sorry|congrats|"
    r"congratulations|good luck|thanks|thank you|love (?:that|it|this)|what a|how)\b",
    re.IGNORECASE,
)


def _names_somebody(sentence: str) -> bool:
    """The speaker (first person) or a name after the first word: who the fact is about."""
    if _SPEAKER.search(sentence):
        return True
    return any(
        m.group(1).split()[0] not in _NOT_ENTITIES
        for m in _CAPITALISED.finditer(sentence, len(sentence.split()[0]))
    )


def _stands_alone(sentence: str, strong: bool, kind: str = "") -> bool:
    """Whether a sentence could be a memory on its own: not a bare image caption, not a
    reaction, long enough to say something, and (unless it carries an explicit save reason)
    about somebody: "It was so vibrant" or "Cherish the moments" say nothing durable."""
    words = sentence.split()
    if len(words) < 4 or sentence.lstrip().startswith("[image:"):
        return False
    if _REACTION.search(sentence):
        return False
    if _LISTENER.search(sentence) and (
        kind not in ("commitment", "decision_with_why", "hard_lesson")
        or not _names_somebody(sentence)
    ):
        # Said to the listener ("I'm always here for you", "you've got this"): about the
        # conversation between them; a promise or a decision to the listener stays.
        return False
    if _CHEER.search(sentence):
        return False
    return strong or _names_somebody(sentence)


def _listener(window: Sequence[WindowTurn], i: int) -> str:
    """Whom a turn speaks to: the nearest other speaker in the window."""
    me = window[i].speaker or window[i].role
    order = [*reversed(window[:i]), *window[i + 1 :]]
    other = next((t for t in order if (t.speaker or t.role) != me), None)
    if other is not None:
        return other.speaker or ("User" if other.role == "user" else "Assistant")
    return "Assistant" if window[i].role == "user" else "User"


def _corrections(window: Sequence[WindowTurn], i: int) -> list[tuple[str, str, WindowTurn]]:
    """(corrected sentence, its category, the turn whose speaker it is about) for each
    correction the turn makes: "March 10, not March 3" fixes its own sentence; a bare "May, not
    April" fixes the latest earlier sentence of the window holding "April"."""
    out = []
    for sentence in sentence_kinds.sentences(window[i].text):
        fix = correction(sentence)
        if fix is None:
            continue
        if not fix.bare:
            text = corrected(sentence, fix)
            out.append((text, policy.category_for(text, window[i].role), window[i]))
            continue
        earlier = [(s, t) for t in window[:i] for s in sentence_kinds.sentences(t.text)]
        found = apply_to_earlier(fix, [s for s, _ in earlier])
        if found is not None:
            idx, text = found
            about = earlier[idx][1]
            out.append((text, policy.category_for(text, about.role), about))
    return out


def extract_window(
    window: Sequence[WindowTurn],
    types: Sequence[str] = (),
    similarity: policy.Similarity | None = None,
    pronoun_of: PronounOf | None = None,
) -> list[dict[str, Any]]:
    """Candidates (memory item dicts plus provenance) from the turns of one window. A
    commitment is kept only when it is a promise to someone (core/promises.py), with its due
    time when the text gives one; a plan of one's own becomes a fact."""
    allowed = set(types) if types else None
    out: list[dict[str, Any]] = []
    for i, turn in enumerate(window):
        fixes = _corrections(window, i)
        recent = [f"{t.role}: {t.text}" for t in window[max(0, i - 3) : i]]
        verdict = policy.judge_turn(turn.text, turn.role, recent, similarity=similarity)
        parts: list[tuple[str, str, WindowTurn]] = [(s, c, t) for s, c, t in fixes]
        if verdict.save:
            fixed = {s for s in sentence_kinds.sentences(turn.text) if correction(s)}
            parts += [
                (s, c, turn) for s, c in durable_parts(turn.text, turn.role) if s not in fixed
            ]
        for sentence, category, about in parts[:MAX_PER_TURN]:
            speaker = about.speaker or ("User" if about.role == "user" else "Assistant")
            pronoun = pronoun_of(speaker) if pronoun_of else "they"
            promised = None
            listener = _listener(window, i)
            if category == "commitment":
                promised = promise(sentence, speaker, listener, turn.created_at)
                category = "commitment" if promised else "fact"
            if allowed is not None and category not in allowed:
                continue
            text = third_person(_LEAD_ACK.sub("", sentence), speaker, pronoun)
            if promised is not None:  # "send you the report": you are the one it is owed to
                text = re.sub(r"\byour\b", f"{listener}'s", re.sub(r"\byou\b", listener, text))
            dated, dates = annotate(text[:1].upper() + text[1:], about.created_at)
            cand: dict[str, Any] = {
                "category": category,
                "context": _clip(dated),
                "confidence": min(MAX_CONFIDENCE, 6 if turn.role == "user" else 5),
                "entities": entities_of(sentence, speaker),
                "keywords": dates,
                "valid_from": turn.created_at.isoformat(),
                "source": "machine",
                "from_seq": turn.seq,
                "to_seq": turn.seq,
            }
            if sentence in turn.sentences:
                cand["embedding"] = turn.sentences[sentence]  # not embedded a second time
            if promised is not None:
                cand["status"] = "open"
                if promised.due_at is not None:
                    cand["due_at"] = promised.due_at.isoformat()
                cand["owed_to"] = promised.owed_to
                cand["metadata"] = {"owner": speaker, "what": promised.what}
            out.append(cand)
    return out


PROVENANCE_KEYS = ("from_seq", "to_seq")


def check_candidate(
    raw: Any, from_seq: int, to_seq: int, types: Sequence[str]
) -> tuple[dict[str, Any] | None, str | None]:
    """A candidate as a valid memory item dict (confidence capped), or None and why not."""
    from memory_pipelines.core.records import validate_item
    from memory_pipelines.errors import ValidationError

    if not isinstance(raw, dict):
        return None, "not an object"
    first, last = raw.get("from_seq"), raw.get("to_seq")
    if not (
        isinstance(first, int) and isinstance(last, int) and from_seq <= first <= last <= to_seq
    ):
        return None, f"provenance {first}-{last} outside the window {from_seq}-{to_seq}"
    if types and raw.get("category") not in types:
        return None, f"category {raw.get('category')!r} not in the allowed types"
    item = {k: v for k, v in raw.items() if k not in PROVENANCE_KEYS}
    conf = item.get("confidence", MAX_CONFIDENCE)
    if isinstance(conf, int) and not isinstance(conf, bool):
        item["confidence"] = min(conf, MAX_CONFIDENCE)
    item["source"] = "machine"
    try:
        validate_item(item)
    except ValidationError as exc:
        return None, str(exc)
    return {**item, "from_seq": first, "to_seq": last}, None
