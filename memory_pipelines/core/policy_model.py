"""A learned save/skip on top of the save policy's rules (core/policy.py).

The rules score near 1.0 on the case sets they were tuned on and ~0.92 on sets written apart
from the code. A logistic model (core/choice_model.py: a case is a group of two rows, "save"
holding the features and "skip" all zeros) weighs what the rules read: their verdict and reason,
the kinds of the turn's sentences, its shape, and the cosine of the turn's embedding to the
centroid of each label and of each gold reason of the training cases ("prototypes").

Trained on the rules as they stood before each set was tuned on: fitted on today's rules, which
were tuned on every set, the model would only learn to copy them. The readings of those older
rules are frozen in benchmarks/data/policy/readings/asof.jsonl (set, id, the commit read, the
verdict and the sentence kinds). It is fitted as well on the turns the policy's hand-written
tests ask about (benchmarks/data/policy/policy_patterns.jsonl, labelled by today's rules, which
pass those tests; their readings in readings/patterns.jsonl, written by
benchmarks/policy_patterns.py), so it keeps the saves the tests pin down (health, safety,
changed facts). Leave-one-set-out on the as-of readings (benchmarks/policy_loso.py): rules
0.9257, model 0.9505 at MARGIN 0 over eight sets (with policy_l; over the seven before it,
0.9215 and 0.9394 at MARGIN 0.5, and 0.9539 at 0 without the patterns, which drops 19 test
saves).

The model needs the turn's embedding; without one (no embedder) the rules decide alone. The
product passes it (models/local.py -> core/said_anew.said_anew), and `memory-pipelines eval
policy` scores with it (--rules-only for the rules alone).
Refit with `memory-pipelines eval policy --fit` (never on a held-out set).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from memory_pipelines.core.choice_model import ChoiceModel, fit

MODEL_PATH = Path(__file__).with_name("policy_model.json")
L2 = 5.0  # chosen by leave-one-set-out on the as-of readings (5 and 10 tie, 20 is worse)
# The model overrides the rules only when its score is further than this from 0: the margin
# leave-one-set-out ranks best among those at which every hand-written policy and extraction
# test passes with the model on. Fitted with the policy tests' patterns
# (readings/patterns.jsonl), leave-one-set-out on the as-of readings gives, over the seven
# sets before policy_l, 0.9488 at 0, 0.9454 at 0.25, 0.9394 at 0.5, 0.9300 at 1.0 (rules
# 0.9215), when the tests failed 2 at 0, 1 at 0.25 and none at 0.5 (so it was 0.5); fitted
# with policy_l too, over eight sets, 0.9505, 0.9489, 0.9444, 0.9347 (rules 0.9257), and the
# tests pass at every margin.
MARGIN = 0.0

# The reasons of the label guide (save ones first, as core/policy.SAVE_REASONS and SKIP_REASONS).
REASONS = (
    "hard_lesson",
    "commitment",
    "shipped_outcome",
    "decision_with_why",
    "stable_preference",
    "durable_fact",
    "greeting",
    "meta_chatter",
    "restatement",
    "already_in_history",
    "speculation",
)
KINDS = (  # what core/sentence_kinds.sentence_kind returns
    "meta",
    "hedge",
    "fact",
    "ack",
    "greeting",
    "plain",
    "hard_lesson",
    "commitment",
    "shipped_outcome",
    "decision_with_why",
    "stable_preference",
)
PROTOTYPES = ("save", "skip", *REASONS)
NAMES = (
    "bias",
    "rules_save",
    *(f"reason_{r}" for r in REASONS),
    *(f"has_{k}" for k in KINDS),
    "n_sents",
    "log_words",
    "assistant",
    "has_recent",
    "question",
    *(f"proto_{p}" for p in PROTOTYPES),
)

Embed = Callable[[Sequence[str]], np.ndarray]  # texts -> one unit vector a row


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / (np.linalg.norm(v) or 1.0)


def feature_row(
    save: bool,
    reason: str,
    kinds: Sequence[str],
    text: str,
    role: str,
    recent: Sequence[str],
    vector: np.ndarray,
    prototypes: np.ndarray,
) -> np.ndarray:
    """The "save" row of a turn, in the order of NAMES (the "skip" row is all zeros)."""
    head = [1.0, float(save)]
    head += [float(reason == r) for r in REASONS]
    head += [float(k in kinds) for k in KINDS]
    head += [
        float(len(kinds)),
        math.log1p(len(text.split())),
        float(role.lower() == "assistant"),
        float(bool(recent)),
        float(text.strip().endswith("?")),
    ]
    return np.concatenate([np.asarray(head), prototypes @ _unit(vector)])


@dataclass(frozen=True)
class PolicyModel:
    model: ChoiceModel
    prototypes: np.ndarray  # one unit vector a row, in the order of PROTOTYPES

    def decide(self, row: np.ndarray) -> tuple[bool, list[str]]:
        """Save or not, and the features that most favour that choice."""
        zeros = np.zeros_like(row)
        score = float(self.model.scores(row[None, :])[0])
        save = score > 0 if abs(score) > MARGIN else bool(row[NAMES.index("rules_save")] > 0.5)
        return save, self.model.reasons(row, zeros) if save else self.model.reasons(zeros, row)

    def to_json(self) -> str:
        body = json.loads(self.model.to_json())
        body["prototypes"] = [[round(float(x), 6) for x in p] for p in self.prototypes]
        return json.dumps(body) + "\n"


def load(path: Path = MODEL_PATH) -> PolicyModel:
    """The fitted model; refused (ValueError) when fitted on other features than NAMES."""
    model = ChoiceModel.load(path, NAMES)
    prototypes = np.asarray(json.loads(path.read_text())["prototypes"], dtype=np.float64)
    if prototypes.shape[0] != len(PROTOTYPES):
        raise ValueError(
            f"{path}: {prototypes.shape[0]} prototypes, the code has {len(PROTOTYPES)}"
        )
    return PolicyModel(model, prototypes)


@lru_cache(maxsize=1)
def shipped() -> PolicyModel:
    return load(MODEL_PATH)


def fit_policy(
    readings: Iterable[Mapping[str, Any]],
    cases: Mapping[tuple[str, str], Mapping[str, Any]],
    embed: Embed,
    l2: float = L2,
) -> PolicyModel:
    """Fit on readings of the rules (set, id, save, reason, kinds) and their labelled cases
    (keyed by set name and id). Prototypes are the label and gold-reason centroids."""
    readings = list(readings)
    keyed = [cases[(r["set"], r["id"])] for r in readings]
    vectors = np.asarray(embed([c["turn"]["text"] for c in keyed]), dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    labels = [c["label"] for c in keyed]
    groups_of = {
        "save": [lab == "save" for lab in labels],
        "skip": [lab == "skip" for lab in labels],
    }
    groups_of.update({r: [c.get("reason") == r for c in keyed] for r in REASONS})
    prototypes = np.stack([_unit(vectors[np.asarray(groups_of[p])].mean(0)) for p in PROTOTYPES])
    rows = [
        feature_row(
            r["save"],
            r["reason"],
            r["kinds"],
            c["turn"]["text"],
            c["turn"]["role"],
            c.get("recent", []),
            v,
            prototypes,
        )  # fmt: skip
        for r, c, v in zip(readings, keyed, vectors, strict=True)
    ]
    groups = [np.vstack([row, np.zeros_like(row)]) for row in rows]
    gold = [0 if lab == "save" else 1 for lab in labels]
    trained_on = tuple(dict.fromkeys(r["set"] for r in readings))
    return PolicyModel(fit(groups, gold, NAMES, l2=l2, trained_on=trained_on), prototypes)


HELD_OUT = ("_g",)  # as in cli_eval: a held-out set is never fitted on


def refit(
    readings_path: Path | Sequence[Path], out: Path, embed: Embed, l2: float = L2
) -> PolicyModel:
    """Fit on the readings files (each line: set, id, save, reason, kinds) and the case sets
    they name (beside their folder), and write the model to out."""
    paths = [readings_path] if isinstance(readings_path, Path) else list(readings_path)
    readings: list[dict] = []
    cases: dict[tuple[str, str], dict] = {}
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            mine = [json.loads(line) for line in fh if line.strip()]
        readings += mine
        for name in dict.fromkeys(r["set"] for r in mine):
            if name.endswith(HELD_OUT):
                raise ValueError(f"{name} is a held-out set: never fitted on")
            with (path.parent.parent / f"{name}.jsonl").open(encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        case = json.loads(line)
                        cases[(name, case["id"])] = case
    model = fit_policy(readings, cases, embed, l2)
    out.write_text(model.to_json(), encoding="utf-8")
    return model
