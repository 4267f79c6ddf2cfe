"""Reranking the best hits of a search (the Search card's optional model). The offline reranker
reads each hit sentence by sentence: a long record whose one sentence answers the question is
ranked by that sentence, not by the average of everything it says."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def order_by_best_sentence(
    query_vec: np.ndarray, sentence_vecs: Sequence[np.ndarray], whole_vecs: np.ndarray
) -> list[int]:
    """Indices of the hits, best first: each hit scores the higher of its whole text's cosine
    to the query and its best sentence's; ties keep the search's order."""
    scores = []
    for i, sents in enumerate(sentence_vecs):
        best = float(np.max(sents @ query_vec)) if len(sents) else -1.0
        scores.append(max(best, float(whole_vecs[i] @ query_vec)))
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def check_order(order: Sequence[int], n: int) -> list[int]:
    """A model's order checked: every index 0..n-1 once (missing ones follow, in search order);
    anything else is an invalid answer."""
    if any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n for i in order):
        raise ValueError(f"order must hold indices 0-{n - 1}, got {list(order)!r}")
    if len(set(order)) != len(order):
        raise ValueError(f"order repeats an index: {list(order)!r}")
    return list(order) + [i for i in range(n) if i not in set(order)]
