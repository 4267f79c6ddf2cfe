"""The judge's learned chooser (core/judge_model.py): the shipped weights fit the features the
code computes and no held-out set; the chooser keeps the rules' reason when it agrees and says
so when it overrides; fitting is deterministic and reports each set left out."""

import json
from pathlib import Path

import numpy as np
import pytest

from memory_pipelines.cli_eval import HELD_OUT
from memory_pipelines.core.judge import case_options
from memory_pipelines.core.judge_eval import case_item, evaluate, fit_judge
from memory_pipelines.core.judge_model import NAMES, choose, shipped_model
from memory_pipelines.evals.judge import evaluate as store_eval
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.factory import make_backend
from memory_pipelines.store.db import Database

DATA = Path(__file__).resolve().parent.parent / "benchmarks/data/judge"


def _cases(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def _stored(case: dict) -> list[str]:
    return [x["context"] for x in case["existing"]]


def test_the_shipped_model_reads_todays_features_and_no_held_out_set() -> None:
    model = shipped_model()  # raises when fitted on other features
    assert model.names == NAMES
    assert model.trained_on and not any(name.endswith(HELD_OUT) for name in model.trained_on)
    assert "judge_patterns" in model.trained_on


def test_the_chooser_keeps_the_rules_reason_or_names_its_own(embedder: Embedder) -> None:
    cases = _cases("judge_j.jsonl")  # a hard set: the chooser overrides the rules on some
    texts = [t for c in cases for t in (c["candidate"]["context"], *_stored(c))]
    vecs = iter(embedder.embed(texts))
    kept = overridden = 0
    for case in cases:
        cand_vec = next(vecs)
        ex_vecs = np.stack([next(vecs) for _ in case["existing"]])
        rules, rows, options = case_options(
            case_item(case["candidate"]),
            [case_item(x) for x in case["existing"]],
            cand_vec,
            ex_vecs,
            embed=embedder.embed,
        )
        d = choose(rules, rows, options)
        if (d.action, d.target) == (rules.action, rules.target):
            assert d.reason == rules.reason
            kept += 1
        else:
            assert d.reason.startswith(f"learned: {d.action} rather than {rules.action} (")
            assert rules.reason in d.reason
            overridden += 1
    assert kept > overridden > 0


def test_a_candidate_longer_than_any_fitted_on_is_left_to_the_rules(
    embedder: Embedder,
) -> None:
    """Extraction's items run to 60 words, the fitted cases to 23: past that the rules decide
    alone, so a long new fact is not merged into the nearest stored one for its length (it
    was, by the chooser: the stored fact's words were replaced by the new one's)."""
    from memory_pipelines.core.judge import decide
    from memory_pipelines.core.judge_model import LONGEST

    stored = {"context": "Caroline went to a LGBTQ support group yesterday (7 May 2023) and it"
              " was so powerful.", "category": "fact", "confidence": 6, "origin": "machine",
              "valid_from": "2023-05-08"}  # fmt: skip
    told = (
        "Caroline ran into a group of religious conservatives who said something that really"
        " upset her; it made her think how much work she and others still have to do for LGBTQ"
        " rights; it's been so helpful to have people around her who accept and support her,"
        " so she knows she will be ok."
    )
    long = {"context": told, "category": "fact", "confidence": 6, "origin": "machine"}
    vecs = embedder.embed([told, stored["context"]])
    decision = decide(case_item(long), [case_item(stored)], vecs[0], vecs[1:])
    assert decision.action == "create", decision.reason
    rules, rows, options = case_options(case_item(long), [case_item(stored)], vecs[0], vecs[1:])
    assert rows[0, NAMES.index("create:length")] * 20 > LONGEST and decision == rules
    short = rows.copy()
    short[0, NAMES.index("create:length")] = LONGEST / 20  # as long as the longest fitted on
    assert choose(rules, short, options).action == "merge"  # the chooser would have merged


def test_the_judge_with_its_chooser_scores_a_tuning_set(embedder: Embedder) -> None:
    report = evaluate(_cases("judge_dev.jsonl"), embedder)
    assert report["accuracy"] >= 0.9, report["misses"]


def test_fitting_is_deterministic_and_leaves_each_set_out(embedder: Embedder) -> None:
    sets = {"a": _cases("judge_dev.jsonl")[:40], "b": _cases("judge_b.jsonl")[:40]}
    model, report = fit_judge(sets, embedder)
    again, _ = fit_judge(sets, embedder)
    assert np.array_equal(model.weights, again.weights)
    assert model.trained_on == ("a", "b")
    assert set(report) == {"a", "b"}
    for figures in report.values():
        assert figures["n"] == 40 and 0.0 <= figures["learned"] <= 1.0
        assert 0.0 <= figures["rules"] <= 1.0


def test_the_eval_through_the_store_reads_cases_as_the_judge_does(
    db: Database, embedder: Embedder
) -> None:
    """`eval judge` runs each case through save_with_dedup (evals/judge.py). A case may leave
    out confidence and origin (the rules' own patterns do: the default command read every
    set and stopped with a KeyError on them); both paths read them alike (case_item), so
    they decide alike."""
    cases = [c for c in _cases("judge_patterns.jsonl") if "confidence" not in c["candidate"]][:12]
    cases += _cases("judge_dev.jsonl")[:12]
    assert len(cases) == 24
    through_store = store_eval(db, Models(make_backend("local", embedder)), embedder, cases)
    pure = evaluate(cases, embedder)
    assert through_store["accuracy"] == pytest.approx(pure["accuracy"], abs=1e-3)
    assert [m["id"] for m in through_store["misses"]] == pure["misses"]
