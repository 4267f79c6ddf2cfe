"""Shared scoring: accuracy, per-label precision/recall, confusion matrix."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def classification_report(
    gold: Sequence[str], pred: Sequence[str], correct: Sequence[bool] | None = None
) -> dict[str, Any]:
    """`correct` overrides label equality (e.g. label and target both right)."""
    ok = list(correct) if correct is not None else [g == p for g, p in zip(gold, pred, strict=True)]
    labels = sorted(set(gold) | set(pred))
    per_label = {}
    for label in labels:
        tp = sum(1 for g, p, c in zip(gold, pred, ok, strict=True) if g == p == label and c)
        n_pred = sum(1 for p in pred if p == label)
        n_gold = sum(1 for g in gold if g == label)
        per_label[label] = {
            "precision": round(tp / n_pred, 4) if n_pred else 0.0,
            "recall": round(tp / n_gold, 4) if n_gold else 0.0,
            "n": n_gold,
        }
    confusion = {g: {p: 0 for p in labels} for g in labels}
    for g, p in zip(gold, pred, strict=True):
        confusion[g][p] += 1
    n = len(gold)
    return {
        "n": n,
        "accuracy": round(sum(ok) / n, 4) if n else 0.0,
        "per_label": per_label,
        "confusion": confusion,
    }
