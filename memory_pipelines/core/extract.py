"""The local extractor: stable-fact candidates from a window of turns, by the save policy.

Each turn the policy would save yields its durable sentences, rewritten to name the speaker
("I adopted a dog" said by Ana -> "Ana adopted a dog") with relative dates resolved against
when the turn was said. Confidence is capped at 6: a machine proposes, a person states.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memory_pipelines.core import policy
from memory_pipelines.core.dates import annotate, due_date

MAX_CONFIDENCE = 6
MAX_PER_TURN = 2  # the spec's budget of saves per turn
MAX_CONTEXT = 300
_CAPITALISED = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")
_FIRST_PERSON = [
    (r"\bI am\b|\bI'm\b", "{s} is"),
    (r"\bI was\b", "{s} was"),
    (r"\bI've\b|\bI have\b", "{s} has"),
    (r"\bI'll\b", "{s} will"),
    (r"\bI'd\b", "{s} would"),
    (r"\bI\b", "{s}"),
    (r"\b[Mm]y\b", "{s}'s"),
    (r"\b[Mm]ine\b", "{s}'s"),
    (r"\b[Mm]yself\b", "{s}"),
    (r"(?<![\w'])me\b", "{s}"),
]
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


def third_person(text: str, speaker: str) -> str:
    """First-person words replaced by the speaker's name, so the fact stands on its own."""
    if not speaker:
        return text
    for pattern, repl in _FIRST_PERSON:
        text = re.sub(pattern, repl.format(s=speaker), text)
    return text


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
    strong, plain = [], []
    for sentence in policy.sentences(text):
        kind = policy.sentence_kind(sentence, role.lower())
        if not _stands_alone(sentence, kind in policy.SAVE_REASONS):
            continue
        if kind in policy.SAVE_REASONS:
            strong.append((sentence, policy.SAVE_REASONS[kind]))
        elif kind == "fact" or (kind == "plain" and len(sentence.split()) >= 5):
            plain.append((sentence, "fact"))
    return strong + plain[:1]


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


def _stands_alone(sentence: str, strong: bool) -> bool:
    """Whether a sentence could be a memory on its own: not a bare image caption, not a
    reaction, long enough to say something, and (unless it carries an explicit save reason)
    about somebody: "It was so vibrant" or "Cherish the moments" say nothing durable."""
    words = sentence.split()
    if len(words) < 4 or sentence.lstrip().startswith("[image:"):
        return False
    if _REACTION.search(sentence):
        return False
    if _LISTENER.search(sentence) and not _names_somebody(sentence):
        return False
    return strong or _names_somebody(sentence)


def extract_window(
    window: Sequence[WindowTurn],
    types: Sequence[str] = (),
    similarity: policy.Similarity | None = None,
) -> list[dict[str, Any]]:
    """Candidates (memory item dicts plus provenance) from the turns of one window."""
    allowed = set(types) if types else None
    out: list[dict[str, Any]] = []
    for i, turn in enumerate(window):
        recent = [f"{t.role}: {t.text}" for t in window[max(0, i - 3) : i]]
        verdict = policy.judge_turn(turn.text, turn.role, recent, similarity=similarity)
        if not verdict.save:
            continue
        parts = durable_parts(turn.text, turn.role)[:MAX_PER_TURN]
        for sentence, category in parts:
            if allowed is not None and category not in allowed:
                continue
            speaker = turn.speaker or ("User" if turn.role == "user" else "Assistant")
            dated, dates = annotate(third_person(sentence, speaker), turn.created_at)
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
            if category == "commitment":
                cand["status"] = "open"
                due = due_date(sentence, turn.created_at)
                if due is not None:
                    cand["due_at"] = due.isoformat()
                cand["metadata"] = {"owner": speaker}
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
