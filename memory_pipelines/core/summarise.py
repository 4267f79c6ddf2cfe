"""The extractive summariser: the most central sentences of a batch, in their original order.

Input texts may open with a header naming who said them and when, `Caroline (8 May 2023): ...`
(the pyramid writes turns that way, and summaries keep the headers of the sentences they keep),
so names and dates survive every level. Centrality is each text's cosine to the batch centroid,
from vectors the caller already has (stored turn or chunk embeddings), so summarising embeds
nothing; sentences with names, numbers and dates are preferred and chatter is passed over.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from memory_pipelines.core import dates, sentence_kinds

_DAY = r"\d{1,2} [A-Z][a-z]+ \d{4}"
# A capitalised name or a role, or any one-word name when a date follows (as turn_text writes).
HEADER = re.compile(
    rf"^(?P<who>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*){{0,2}}|user|assistant|system|tool|"
    rf"[\w'.-]+(?= \({_DAY}\)))(?: \((?P<when>{_DAY})\))?: (?P<rest>.+)$",
    re.DOTALL,
)
_DATE_OR_NUMBER = re.compile(
    r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"\b(?:[A-Z][a-z]{2,}|[A-Z]{2,})\b")
_WORD = re.compile(r"[a-z][a-z']{2,}")
# Reactions that carry no fact of their own ("Wow, that's cool!", "I totally agree, Mel.").
_REACTION = re.compile(
    r"^\W*(?:wow|oh|aw+|haha|lol|yeah|yes|yep|sure|thanks|thank you|congrat\w*|hey|hi|hello|"
    r"(?:good|nice|great) to (?:see|hear)|(?:so|how) (?:cool|great|awesome|nice|sweet)|"
    r"(?:that|this|it)(?:'s| is| was| sounds| looks)(?: so| really| just)? "
    r"(?:great|cool|awesome|amazing|lovely|nice|beautiful|wonderful)|"
    r"sounds (?:great|good|fun|awesome|amazing)|i (?:\w+ |100% )?agree)\b",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"^\[[^\]]*\]$")  # a bracketed note on its own, e.g. "[image: ...]"
_VOCATIVE = re.compile(r"(?:^|, )([A-Z][a-z]+)(?=[,!.?]|$)")
_FILLER = frozenset(
    (
        *("the", "and", "but", "that", "this", "with", "you", "your", "for", "are", "was"),
        *("were", "have", "has", "had", "just", "really", "very", "too", "what", "about"),
        *("been", "its", "it's", "i'm", "you're", "that's", "there", "their", "they", "them"),
        *("then", "than"),
    )
)
# Weights beside centrality (a cosine, mostly 0.3-0.9): enough to prefer the concrete sentence
# of two equally central ones, not enough to let a detail from an off-topic turn win.
NAME_BONUS = 0.1
DETAIL_BONUS = 0.1
SUBSTANCE_BONUS = 0.15  # scaled by content words, up to SUBSTANCE_WORDS
SUBSTANCE_WORDS = 8
CHATTER_PENALTY = 0.3
SHORT_PENALTY = 0.2
SAME_TEXT_PENALTY = 0.1  # per sentence already kept from the same text: spread over the batch
REDUNDANT = 0.6  # share of content words already kept above which a sentence adds nothing
# A sentence this far below the best one is not worth its words, even with budget to spare.
MARGIN = 0.3
_CHATTER = frozenset(("greeting", "ack", "meta", "hedge"))


@dataclass(frozen=True)
class Sentence:
    text: int  # index of the input text
    order: int  # position in the whole input
    who: str
    when: str
    body: str

    @property
    def words(self) -> int:
        return len(self.body.split())


def parse(texts: Sequence[str]) -> list[Sentence]:
    """Sentences of each text with the speaker and date in force where each one stands."""
    out: list[Sentence] = []
    for i, text in enumerate(texts):
        who = when = ""
        for raw in sentence_kinds.sentences(text):
            m = HEADER.match(raw)
            if m:
                who, when = m["who"], m["when"] or when
                raw = m["rest"].strip()
            if raw:
                out.append(Sentence(i, len(out), who, when, raw))
    return out


def _content(s: Sentence) -> set[str]:
    return set(_WORD.findall(s.body.lower())) - _FILLER


def _score(s: Sentence, centrality: float) -> float:
    score = centrality + SUBSTANCE_BONUS * min(len(_content(s)), SUBSTANCE_WORDS) / SUBSTANCE_WORDS
    # A name counts unless it opens the sentence or only addresses the listener ("..., Mel!").
    addressed = {m.end(1) for m in _VOCATIVE.finditer(s.body)}
    if any(m.start() > 0 and m.end() not in addressed for m in _NAME.finditer(s.body)):
        score += NAME_BONUS
    if _DATE_OR_NUMBER.search(s.body):
        score += DETAIL_BONUS
    if (
        _REACTION.match(s.body)
        or _ASIDE.match(s.body)
        or sentence_kinds.sentence_kind(s.body, "user") in _CHATTER
    ):
        score -= CHATTER_PENALTY
    if s.words < 4:
        score -= SHORT_PENALTY
    return score


def render(sentences: Sequence[Sentence]) -> str:
    """Sentences joined in order, each speaker or date named only when it changes."""
    parts: list[str] = []
    who = when = ""
    for s in sentences:
        new_when = s.when if s.when and s.when != when else ""
        if s.who and (s.who != who or new_when):
            parts.append(f"{s.who}{f' ({new_when})' if new_when else ''}: {s.body}")
        else:
            parts.append(s.body)
        who, when = s.who or who, s.when or when
    return " ".join(parts)


def summarise(texts: Sequence[str], vectors: np.ndarray, max_words: int = 60) -> str:
    """At most `max_words` words: the best sentences of `texts`, in their original order.

    `vectors` are unit embeddings of the texts, one row each, used for centrality.
    """
    if not texts:
        raise ValueError("texts: at least one text is needed to summarise")
    if len(vectors) != len(texts):
        raise ValueError(f"vectors: one per text, got {len(vectors)} for {len(texts)} texts")
    if max_words < 1:
        raise ValueError(f"max_words: must be >= 1, got {max_words}")
    centroid = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(centroid))
    central = (vectors @ (centroid / norm)) if norm > 0 else np.zeros(len(texts))
    sentences = parse(texts)
    if not sentences:
        raise ValueError("texts: nothing but whitespace to summarise")
    base = {s.order: _score(s, float(central[s.text])) for s in sentences}
    kept: list[Sentence] = []
    seen: set[str] = set()
    while True:
        best = _next(sentences, kept, seen, base, max_words)
        if best is None:
            break
        kept.append(best)
        seen |= _content(best)
    if not kept:  # even the best sentence is too long: keep its opening words
        top = max(sentences, key=lambda s: (base[s.order], -s.order))
        words = render([top]).split()
        return " ".join(words[:max_words]) + "…"
    return render(sorted(kept, key=lambda s: s.order))


def _next(
    sentences: Sequence[Sentence],
    kept: Sequence[Sentence],
    seen: set[str],
    base: dict[int, float],
    max_words: int,
) -> Sentence | None:
    """The best sentence still to keep that says something new and fits the word budget."""
    taken = {k.order for k in kept}
    floor = max(base.values()) - MARGIN
    per_text: dict[int, int] = {}
    for k in kept:
        per_text[k.text] = per_text.get(k.text, 0) + 1

    def value(s: Sentence) -> tuple[float, int]:
        return (base[s.order] - SAME_TEXT_PENALTY * per_text.get(s.text, 0), -s.order)

    for s in sorted((s for s in sentences if s.order not in taken), key=value, reverse=True):
        if value(s)[0] < floor:
            break
        words = _content(s)
        if words and len(words & seen) / len(words) > REDUNDANT:
            continue
        # Exact length as printed: a header shows only where the speaker or date changes.
        if len(render(sorted([*kept, s], key=lambda k: k.order)).split()) <= max_words:
            return s
    return None


def turn_text(speaker: str, role: str, said_at: datetime, text: str) -> str:
    """A turn as the summariser reads it: who and when up front, relative dates resolved."""
    annotated, _ = dates.annotate(" ".join(text.split()), said_at)
    return f"{speaker or role} ({dates.day(said_at)}): {annotated}"
