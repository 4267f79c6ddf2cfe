"""The judge's last word: a learned chooser weighs what the rules read and what they decided.

The rules of `judge.decide` read who each item is about, its values, cues and stances, and
decide in a fixed order, first answer wins. Written from the cases they were tuned on, that
order was right on those (0.90 mean) and wrong far more often on cases written apart from the
code (0.69-0.84). So every option of a case (create; merge into item i; supersede item i) gets
a row of the readings (`Pair`'s fields, the candidate's cues and hedges, the cosine and its
rank, the merge and supersede scores, whether a merge blocker fired) and a flag for the option
the rules chose; `core/choice_model.py` weighs them, fitted on the tuning sets of
`benchmarks/data/judge` (`memory-pipelines eval judge --fit`). When it keeps the rules' choice,
the rules' reason stands; when it overrides, the reason says so and names the readings that
weighed most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from functools import cache
from pathlib import Path

import numpy as np

from memory_pipelines.core.choice_model import ChoiceModel
from memory_pipelines.core.judge_cues import VALUE_MOVE_CUES, WEAK_CUES
from memory_pipelines.core.judge_merge import merge_blocker, merge_score, merge_threshold
from memory_pipelines.core.judge_pairs import Pair
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

MODEL_PATH = Path(__file__).with_name("judge_model.json")
Option = tuple[str, int | None]

CASE = (
    "bias", "top_cos", "top_margin", "cued", "strong_cue", "hedged", "exception", "has_values",
    "length", "value_move_cue", "planned", "tentative", "negated", "additive",
)  # fmt: skip
# Readings the shipped weights were not fitted on; `eval judge --fit` may take them in.
_NOT_FITTED = ("list_by_nearness", "list_swapped")
_PAIR_FLAGS = tuple(f.name for f in fields(Pair) if f.type == "bool" and f.name not in _NOT_FITTED)
_PAIR_AMOUNTS = ("cos", "contain_existing", "predicate_overlap", "old_hit")
PAIR = _PAIR_FLAGS + _PAIR_AMOUNTS + (
    "changed_value", "shares_names", "shares_value_names", "shares_values", "nearest",
    "cos_below_top", "merge_score", "merge_margin", "merge_blocked", "supersede_score",
    "item_planned", "item_hedged", "item_existence",
)  # fmt: skip
NAMES = (
    *(f"create:{n}" for n in CASE),
    *(f"merge:{n}" for n in PAIR + CASE),
    *(f"supersede:{n}" for n in PAIR + CASE),
    "rules_chose",
)


# The longest candidate of the sets the weights were fitted on: 23 words. Past that the chooser
# would only extrapolate, so the rules decide alone. Extraction's items run to 60 words (a
# statement with what its "it" stands for); read by the chooser, "length" alone merged them
# into whatever stored item was nearest (a hike story into a support group: LoCoMo's "learned:
# merge rather than create" went 30 -> 59 once items were joined).
LONGEST = 23
_LENGTH = NAMES.index("create:length")
# A stored item this far from the candidate is about something else: the chooser may not turn
# the rules' "new" into its replacement ("Gluten free from now on" had replaced the viva date
# at 0.15). Supersedes the rules find at a lower cosine ("Back in the office three days a
# week" / "Works fully remotely", 0.02) stand.
UNRELATED = 0.2
_COS = NAMES.index("supersede:cos")


def _case_row(c: Analysis, cos: np.ndarray) -> list[float]:
    ranked = np.sort(cos)[::-1]
    second = float(ranked[1]) if len(ranked) > 1 else 0.0
    return [
        1.0, float(ranked[0]), float(ranked[0]) - second, float(bool(c.cues)),
        float(bool(c.cues - WEAK_CUES)), float(c.hedged), float(c.exception),
        float(bool(c.values)), len(c.tokens) / 20, float(bool(c.cues & VALUE_MOVE_CUES)),
        float(c.planned), float(c.tentative), float(bool(c.negated)), float(c.additive),
    ]  # fmt: skip


def _pair_row(p: Pair, c: Analysis, e: Analysis, top: float, supersede: float) -> list[float]:
    changed = set(p.value_conflicts) - {"month", "year"}
    merge = merge_score(p)
    return [
        *(float(getattr(p, name)) for name in _PAIR_FLAGS),
        *(float(getattr(p, name)) for name in _PAIR_AMOUNTS),
        float(bool(changed)), float(p.shared_names > 0), float(p.shared_value_names > 0),
        float(p.shared_values > 0), float(p.cos == top), p.cos - top, merge,
        merge - merge_threshold(c, e), float(merge_blocker(p, c, e) is not None), supersede,
        float(e.planned), float(e.hedged), float(e.existence),
    ]  # fmt: skip


def option_rows(
    c: Analysis,
    es: Sequence[Analysis],
    pairs: Sequence[Pair],
    supersede_scores: Sequence[float],
    rules: JudgeDecision,
) -> tuple[np.ndarray, list[Option]]:
    """One row of NAMES per option of the case, and the options in the same order."""
    cos = np.array([p.cos for p in pairs])
    case = _case_row(c, cos)
    n_case, n_pair = len(CASE), len(PAIR)
    rows = np.zeros((1 + 2 * len(pairs), len(NAMES)))
    options: list[Option] = [("create", None)]
    rows[0, :n_case] = case
    merge_at, supersede_at = n_case, n_case + n_pair + n_case
    for p, sup in zip(pairs, supersede_scores, strict=True):
        pair = _pair_row(p, c, es[p.index], float(cos.max()), sup)
        for action, at in (("merge", merge_at), ("supersede", supersede_at)):
            row = rows[len(options)]
            row[at : at + n_pair] = pair
            row[at + n_pair : at + n_pair + n_case] = case
            options.append((action, p.index))
    rows[options.index(as_option(rules)), -1] = 1.0
    return rows, options


def as_option(d: JudgeDecision) -> Option:
    return (d.action, None if d.action == "create" else d.target)


@cache
def shipped_model() -> ChoiceModel:
    return ChoiceModel.load(MODEL_PATH, NAMES)


def choose(rules: JudgeDecision, rows: np.ndarray, options: Sequence[Option]) -> JudgeDecision:
    """The option the model scores highest; the rules' decision (and reason) when it is theirs,
    or when the candidate is longer than any the model was fitted on (LONGEST)."""
    if rows[0, _LENGTH] * 20 > LONGEST:
        return rules
    model = shipped_model()
    scores = model.scores(rows)
    best = int(np.argmax(scores))
    action, target = options[best]
    ruled = options.index(as_option(rules))
    if best == ruled:
        return rules
    if action == "supersede" and rules.action == "create" and rows[best, _COS] < UNRELATED:
        return rules  # nothing the two say ties them: what the weights learned does not apply
    weighed = ", ".join(model.reasons(rows[best], rows[ruled])) or "the weights"
    return JudgeDecision(
        action, target, f"learned: {action} rather than {rules.action} ({rules.reason}): {weighed}"
    )
