"""Fusion of candidate lists into one ranking (kept apart from candidate generation)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def rrf(
    lists: Sequence[Sequence[Hashable]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[Hashable, float]]:
    """Reciprocal rank fusion: score = sum of weight / (k + rank), best first."""
    scores: dict[Hashable, float] = {}
    for li, ranked in enumerate(lists):
        w = 1.0 if weights is None else weights[li]
        for rank, key in enumerate(ranked, start=1):
            scores[key] = scores.get(key, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], str(kv[0])))
