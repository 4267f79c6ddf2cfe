"""The deterministic dedup judge on labelled cases, without a database (unit tests, quick runs).

`memory-pipelines eval judge` scores the same cases through save_with_dedup (evals/judge.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from memory_pipelines.core.choice_model import ChoiceModel, fit
from memory_pipelines.core.judge import case_options, decide
from memory_pipelines.core.judge_model import NAMES, Option, as_option
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem


def case_item(raw: dict[str, Any], speaker: str | None = None) -> JudgeItem:
    """An item of a case (benchmarks/data/judge/README.md) as the judge reads it; the fields
    a case may leave out (the rules' own patterns do) are a user's fact of confidence 5.
    `speaker`: the case's, for its candidate (who said the turn it was taken from)."""
    return JudgeItem(
        context=raw["context"],
        category=raw.get("category", "fact"),
        confidence=int(raw.get("confidence", 5)),
        origin=raw.get("origin", "user"),
        valid_from=raw.get("valid_from"),
        said_by=speaker,
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
        cand = case_item(case["candidate"], case.get("speaker"))
        decision = decide(cand, [case_item(x) for x in case["existing"]], cand_vec, ex_vecs)
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


def _gold(case: dict[str, Any]) -> tuple[str, int | None]:
    if case["label"] == "create":
        return ("create", None)
    ids = [x["id"] for x in case["existing"]]
    return (case["label"], ids.index(case["target"]))


def _option_sets(
    sets: Mapping[str, Sequence[dict[str, Any]]], embedder: Any
) -> dict[str, list[tuple[JudgeDecision, np.ndarray, list[Option], int]]]:
    """Per set, per case: the rules' decision, the options' rows, the options, the gold one."""
    out: dict[str, list[tuple[JudgeDecision, np.ndarray, list[Option], int]]] = {}
    for name, cases in sets.items():
        texts = [t for c in cases for t in (c["candidate"]["context"],
                 *(x["context"] for x in c["existing"]))]  # fmt: skip
        vecs = iter(embedder.embed(texts))
        out[name] = []
        for case in cases:
            cand_vec = next(vecs)
            ex_vecs = np.stack([next(vecs) for _ in case["existing"]])
            cand = case_item(case["candidate"], case.get("speaker"))
            rules, rows, options = case_options(
                cand, [case_item(x) for x in case["existing"]],
                cand_vec, ex_vecs, embed=embedder.embed,
            )  # fmt: skip
            out[name].append((rules, rows, options, options.index(_gold(case))))
    return out


def fit_judge(
    sets: Mapping[str, Sequence[dict[str, Any]]], embedder: Any
) -> tuple[ChoiceModel, dict[str, dict[str, float]]]:
    """Fit the judge's chooser on every set given, and say how it generalises: each set scored
    by a model fitted on the others (leave one set out) beside the rules alone on it (the rules
    were written on these sets, so their figure is flattered; the model's is not)."""
    cases = _option_sets(sets, embedder)

    def fitted(names: Sequence[str]) -> ChoiceModel:
        chosen = [c for n in names for c in cases[n]]
        return fit([c[1] for c in chosen], [c[3] for c in chosen], NAMES, trained_on=names)

    report: dict[str, dict[str, float]] = {}
    for name, held in cases.items():
        model = fitted([n for n in cases if n != name])
        learned = sum(int(np.argmax(model.scores(rows))) == gold for _, rows, _, gold in held)
        rules = sum(options.index(as_option(r)) == gold for r, _, options, gold in held)
        n = len(held)
        report[name] = {"rules": round(rules / n, 4), "learned": round(learned / n, 4), "n": n}
    return fitted(list(cases)), report
