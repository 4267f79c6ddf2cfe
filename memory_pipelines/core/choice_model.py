"""A learned chooser among a case's options: a conditional logit over named features.

The judge and the save policy read structure with rules (who an item is about, its values, its
change cues, each sentence's kind). Which of those readings to trust when they disagree is what
hand-ordered rules got wrong on cases written apart from the code, so a model weighs them,
fitted on the labelled cases of `benchmarks/data/*` (never on a held-out set).

Each case offers options (create; merge into item i; supersede item i), each a row of named
features; the chosen option is the row with the highest score `(row / scale) . weights`. A
shift common to a case's rows changes no choice, so rows are only scaled, never centred. The
model is plain numbers in a JSON file shipped with the package, fitted by
`memory-pipelines eval judge --fit` (scipy's L-BFGS, only when fitting), read with numpy alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

L2 = 3.0  # ridge penalty on the scaled weights, chosen by leave-one-set-out on the tuning sets


@dataclass(frozen=True)
class ChoiceModel:
    names: tuple[str, ...]
    scale: np.ndarray
    weights: np.ndarray
    trained_on: tuple[str, ...] = ()  # the case files it was fitted on

    def scores(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(rows, dtype=np.float64) / self.scale @ self.weights

    def reasons(self, row: np.ndarray, against: np.ndarray, top: int = 3) -> list[str]:
        """The features that most favour `row` over `against` (another option of the case):
        a feature of `row` by its name, one of `against` that counts against it as
        "against <name>"."""
        row, against = np.asarray(row), np.asarray(against)
        diff = (row - against) / self.scale * self.weights
        order = [i for i in np.argsort(-diff)[:top] if diff[i] > 0]
        return [self.names[i] if row[i] > against[i] else f"against {self.names[i]}" for i in order]

    def to_json(self) -> str:
        body = {
            "names": list(self.names),
            "scale": [round(float(x), 6) for x in self.scale],
            "weights": [round(float(x), 6) for x in self.weights],
            "trained_on": list(self.trained_on),
        }
        return json.dumps(body, indent=1) + "\n"

    @classmethod
    def load(cls, path: Path, names: Sequence[str]) -> ChoiceModel:
        """Read a fitted model; its features must be the ones the code computes today."""
        body = json.loads(path.read_text())
        if tuple(body["names"]) != tuple(names):
            raise ValueError(
                f"{path} was fitted on other features than the code computes; "
                "refit it: memory-pipelines eval judge --fit"
            )
        return cls(
            tuple(body["names"]),
            np.asarray(body["scale"], dtype=np.float64),
            np.asarray(body["weights"], dtype=np.float64),
            tuple(body.get("trained_on", ())),
        )


def fit(
    groups: Sequence[np.ndarray],
    gold: Sequence[int],
    names: Sequence[str],
    l2: float = L2,
    trained_on: Sequence[str] = (),
) -> ChoiceModel:
    """Fit weights so each group's `gold` row scores highest (softmax over the group's rows,
    cross-entropy plus `l2` on the weights). Deterministic: the same cases give the same model."""
    from scipy.optimize import minimize  # only needed to fit, never to choose

    stacked = np.concatenate(groups).astype(np.float64)
    scale = stacked.std(0)
    scale[scale < 1e-6] = 1.0
    xs = [np.asarray(g, dtype=np.float64) / scale for g in groups]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.5 * l2 * float(w @ w), l2 * w
        for x, g in zip(xs, gold, strict=True):
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            total -= float(np.log(p[g] + 1e-12))
            grad = grad + x.T @ p - x[g]
        return total, grad

    result = minimize(loss, np.zeros(stacked.shape[1]), jac=True, method="L-BFGS-B",
                      options={"maxiter": 500})  # fmt: skip
    return ChoiceModel(tuple(names), scale, result.x, tuple(trained_on))
