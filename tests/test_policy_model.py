"""The learned save/skip on top of the rules (core/policy_model.py): the shipped weights match
the features the code computes, a refit reproduces their choices, and judge_turn uses them only
when it can embed the turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory_pipelines.cli_eval import HELD_OUT
from memory_pipelines.core import policy, policy_model
from memory_pipelines.core.choice_model import ChoiceModel

READINGS = Path(__file__).resolve().parent.parent / "benchmarks/data/policy/readings/asof.jsonl"


def test_the_shipped_weights_are_fitted_on_the_features_the_code_computes() -> None:
    model = policy_model.load()
    assert model.model.names == policy_model.NAMES
    assert model.prototypes.shape == (len(policy_model.PROTOTYPES), 384)
    assert not any(name.endswith(HELD_OUT) for name in model.model.trained_on)
    row = policy_model.feature_row(
        True, "durable_fact", ["fact"], "My son is allergic to kiwi.", "user", [],
        model.prototypes[0], model.prototypes,
    )  # fmt: skip
    assert row.shape == (len(policy_model.NAMES),)
    with pytest.raises(ValueError, match="refit"):
        ChoiceModel.load(policy_model.MODEL_PATH, policy_model.NAMES[:-1])


def test_the_readings_name_no_held_out_set_and_keep_the_reasons_the_code_knows() -> None:
    rows = [json.loads(line) for line in READINGS.open(encoding="utf-8")]
    assert rows and not any(r["set"].endswith(HELD_OUT) for r in rows)
    assert {r["reason"] for r in rows} <= set(policy_model.REASONS)
    assert {k for r in rows for k in r["kinds"]} <= set(policy_model.KINDS)
    assert set(policy_model.REASONS) == {*policy.SAVE_REASONS, *policy.SKIP_REASONS}


def _embedder() -> Any:
    embedder_mod = pytest.importorskip("memory_pipelines.models.embedder")
    try:
        return embedder_mod.get_embedder()
    except Exception as exc:  # pragma: no cover - no model on this machine
        pytest.skip(f"embedder unavailable: {exc}")


def test_a_refit_reproduces_the_shipped_choices(tmp_path: Path) -> None:
    """Refit on two of the seven sets' readings (a full refit embeds 1,172 turns): its choices on
    one of them agree with the shipped model's on nearly every case."""
    embedder = _embedder()
    rows = [json.loads(line) for line in READINGS.open(encoding="utf-8")]
    part = [r for r in rows if r["set"] in ("policy_h", "policy_j")]
    sub = tmp_path / "readings/asof.jsonl"
    sub.parent.mkdir()
    sub.write_text("".join(json.dumps(r) + "\n" for r in part))
    for name in ("policy_h", "policy_j"):
        (tmp_path / f"{name}.jsonl").write_text(
            (READINGS.parent.parent / f"{name}.jsonl").read_text()
        )
    refit = policy_model.refit(sub, tmp_path / "m.json", embedder.embed)
    assert refit.model.trained_on == ("policy_h", "policy_j")
    assert policy_model.load(tmp_path / "m.json").model.names == policy_model.NAMES
    shipped = policy_model.shipped()
    cases = {c["id"]: c for c in map(json.loads, (tmp_path / "policy_h.jsonl").open())}
    h = [r for r in part if r["set"] == "policy_h"]
    vectors = embedder.embed([cases[r["id"]]["turn"]["text"] for r in h])
    agree = 0
    for r, v in zip(h, vectors, strict=True):
        c = cases[r["id"]]
        args = (
            r["save"],
            r["reason"],
            r["kinds"],
            c["turn"]["text"],
            c["turn"]["role"],
            c["recent"],
            v,
        )
        mine = refit.decide(policy_model.feature_row(*args, refit.prototypes))[0]
        agree += mine == shipped.decide(policy_model.feature_row(*args, shipped.prototypes))[0]
    assert agree >= 0.95 * len(h)


TURNS = [
    ("user", "Morning!", []),
    ("user", "My son is allergic to kiwi.", []),
    ("user", "This May we open the second shop.", []),
    ("assistant", "The fix is deployed.", ["assistant: I'll deploy the fix at 5pm."]),
    ("user", "Maybe I'll learn Go one day.", []),
]


def test_judge_turn_uses_the_model_only_with_an_embedder_and_says_when_it_overrides() -> None:
    embedder = _embedder()
    for role, text, recent in TURNS:
        rules = policy.judge_turn(text, role, recent)
        learned = policy.judge_turn(text, role, recent, embed=embedder.embed)
        if learned.save == rules.save:
            assert learned == rules
        else:
            assert learned.reason.startswith(f"learned: {'save' if learned.save else 'skip'} (")
            assert learned.reason.endswith(f"rules: {rules.reason})")
            assert (learned.category is None) == (not learned.save)


def test_the_learned_model_never_skips_a_health_fact_the_rules_read_as_said() -> None:
    """ "just so you know I'm lactose intolerant, so maybe stop putting cheese in every recipe
    lol. anyway quick lunch idea?" (extraction_v): the weights skipped the turn the rules
    saved, and a health fact was lost. A hedge after the fact's own clause leaves it said
    ("the GP started me on sertraline 50mg, apparently ...", extraction_x)."""
    from memory_pipelines.core.sentence_kinds import sentence_kind

    embedder = _embedder()
    recent = ["user: hiii good morning", "assistant: Good morning! What can I help with today?"]
    for text in (
        "just so you know I'm lactose intolerant, so maybe stop putting cheese in every recipe"
        " lol. anyway quick lunch idea?",
        "also the GP started me on sertraline 50mg for the anxiety, apparently the first week is"
        " the rough one. anyway can you help me write an out-of-office message",
    ):
        assert policy.judge_turn(text, "user", recent, embed=embedder.embed).save, text
    said = "the GP started me on sertraline 50mg, apparently the first week is the rough one."
    assert sentence_kind(said, "user") == "fact"
    # a hedged fact of health stays a guess, and the assistant's word on a medicine is advice
    assert sentence_kind("I might be allergic to nuts, not sure", "user") == "hedge"
    assert sentence_kind("Paracetamol is safer, but maybe ask your GP.", "assistant") != "fact"


def test_the_weights_never_skip_a_promise_by_a_time() -> None:
    """The assistant's "Sure, I'll remind you tomorrow morning." answering "remind me to call
    the vet tomorrow" was skipped by the weights as chatter, and the reminder was lost. A way of
    working agreed to ("Of course, I'll use your name") is no promise by a time: theirs to
    weigh."""
    embedder = _embedder()
    recent = ["user: remind me to call the vet tomorrow"]
    said = "Sure, I'll remind you tomorrow morning."
    verdict = policy.judge_turn(said, "assistant", recent, embed=embedder.embed)
    assert verdict.save and verdict.category == "commitment", verdict
