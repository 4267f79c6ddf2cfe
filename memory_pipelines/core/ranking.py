"""Ranking: candidates from every kind of record scored on one scale, best first.

Kept apart from candidate generation (store/search.py). A candidate's score is its lexical
score (BM25 divided by the query's best, 0..1) plus ALPHA times its cosine to the query, plus
small boosts: a record naming an entity of the question (the graph), and for memory items their
salience (decay scores), confidence and recency.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

ALPHA = 1.0  # words and meaning count alike
GRAPH_BONUS = 0.1
SALIENCE_WEIGHT = 0.05
CONFIDENCE_WEIGHT = 0.03
RECENCY_WEIGHT = 0.02
RECENCY_DAYS = 365.0
# A record's weight by kind. A chunk stands for ten turns or chunks, so its match is coarse; an
# item is a one-line restatement whose short text scores high on cosine alone. Chosen on three
# LoCoMo dev conversations and checked on the other three (see the recall issue's note).
KIND_WEIGHTS: dict[str, float] = {"chunk": 0.5, "item": 0.8}


@dataclass
class Candidate:
    kind: str
    id: int
    lexical: float
    cos: float
    named: int = 0  # entities of the question the record names
    salience: float | None = None
    confidence: int | None = None
    at: datetime | None = None

    @property
    def key(self) -> tuple[str, int]:
        return self.kind, self.id


def score(c: Candidate, now: datetime | None = None) -> float:
    s = c.lexical + ALPHA * c.cos + GRAPH_BONUS * min(c.named, 2)
    if c.kind == "item":
        if c.salience is not None:
            s += SALIENCE_WEIGHT * c.salience
        if c.confidence is not None:
            s += CONFIDENCE_WEIGHT * (c.confidence - 5) / 5
        if c.at is not None and now is not None:
            age = max((now - c.at).total_seconds() / 86400, 0.0)
            s += RECENCY_WEIGHT * math.exp(-age / RECENCY_DAYS)
    return s * KIND_WEIGHTS.get(c.kind, 1.0)


def rank(cands: Iterable[Candidate], now: datetime | None = None) -> list[tuple[Candidate, float]]:
    """Candidates with their scores, best first (ties by kind and id, so stable)."""
    scored = [(c, score(c, now)) for c in cands]
    return sorted(scored, key=lambda cs: (-cs[1], cs[0].kind, cs[0].id))


_NAME = re.compile(r"\b[A-Z][a-zA-Z'-]+\b")


def capitalised(question: str) -> list[str]:
    """Words that may name somebody or something: capitalised, possessive 's dropped."""
    return sorted({w.removesuffix("'s") for w in _NAME.findall(question)})
