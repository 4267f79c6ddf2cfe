"""The deterministic dedup judge on labelled cases, without a database (unit tests, quick runs).

`memory-pipelines eval judge` scores the same cases through save_with_dedup (evals/judge.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem


def _item(raw: dict[str, Any]) -> JudgeItem:
    return JudgeItem(
        context=raw["context"],
        category=raw.get("category", "fact"),
        confidence=int(raw.get("confidence", 5)),
        origin=raw.get("origin", "user"),
        valid_from=raw.get("valid_from"),
    )


def evaluate(cases: Sequence[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    """Run decide() over cases in the dev-file format (see benchmarks/data/judge/README.md).

    A case is right when the label is right and, for merge and supersede, the target too.
    Precision and recall count right cases; the confusion matrix compares labels only
    (`wrong_target` counts right labels with the wrong target).
    """
    texts: list[str] = []
    for case in cases:
        texts.append(case["candidate"]["context"])
        texts.extend(x["context"] for x in case["existing"])
    vecs = embedder.embed(texts)  # one batch: loading and encoding dominate the run time
    labels = ("merge", "supersede", "create")
    confusion = {t: dict.fromkeys(labels, 0) for t in labels}
    right = dict.fromkeys(labels, 0)
    misses: list[str] = []
    wrong_target = 0
    row = 0
    for case in cases:
        n = len(case["existing"])
        cand_vec, ex_vecs = vecs[row], vecs[row + 1 : row + 1 + n]
        row += 1 + n
        decision = decide(_item(case["candidate"]), [_item(x) for x in case["existing"]],
                          cand_vec, ex_vecs)  # fmt: skip
        label = case["label"]
        confusion[label][decision.action] += 1
        target = None if decision.target is None else case["existing"][decision.target]["id"]
        if decision.action == label and (label == "create" or target == case["target"]):
            right[label] += 1
        else:
            misses.append(case["id"])
            wrong_target += decision.action == label
    per_label = {}
    for lab in labels:
        predicted = sum(confusion[t][lab] for t in labels)
        true = sum(confusion[lab].values())
        per_label[lab] = {
            "precision": round(right[lab] / predicted, 3) if predicted else 0.0,
            "recall": round(right[lab] / true, 3) if true else 0.0,
            "n": true,
        }
    return {
        "n": len(cases),
        "accuracy": round(sum(right.values()) / len(cases), 3) if cases else 0.0,
        "per_label": per_label,
        "confusion": confusion,
        "wrong_target": wrong_target,
        "misses": misses,
    }
