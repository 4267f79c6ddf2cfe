"""The learned chooser (core/choice_model.py): fitting finds the option the labels favour,
scaling leaves choices alone, and a model fitted on other features is refused."""

import numpy as np
import pytest

from memory_pipelines.core.choice_model import ChoiceModel, fit

NAMES = ("near", "noise")


def _cases(n: int, seed: int) -> tuple[list[np.ndarray], list[int]]:
    """Each case has three options; the right one is the one with the largest 'near'."""
    rng = np.random.default_rng(seed)
    groups, gold = [], []
    for _ in range(n):
        rows = np.column_stack([rng.normal(size=3) * 50, rng.normal(size=3)])
        groups.append(rows)
        gold.append(int(np.argmax(rows[:, 0])))
    return groups, gold


def test_a_fitted_model_chooses_what_its_labels_favour_on_new_cases() -> None:
    groups, gold = _cases(300, 1)
    model = fit(groups, gold, NAMES, trained_on=("synthetic",))
    assert model.weights[0] > 0 and abs(model.weights[1]) < model.weights[0] / 5
    test_groups, test_gold = _cases(200, 2)
    pairs = zip(test_groups, test_gold, strict=True)
    right = sum(int(np.argmax(model.scores(g))) == y for g, y in pairs)
    assert right >= 190
    row, other = test_groups[0][test_gold[0]], test_groups[0][(test_gold[0] + 1) % 3]
    assert model.reasons(row, other)[0] == "near"


def test_a_model_round_trips_through_json_and_refuses_other_features(tmp_path) -> None:
    groups, gold = _cases(100, 3)
    model = fit(groups, gold, NAMES)
    path = tmp_path / "m.json"
    path.write_text(model.to_json())
    back = ChoiceModel.load(path, NAMES)
    assert np.allclose(back.scores(groups[0]), model.scores(groups[0]), atol=1e-4)
    with pytest.raises(ValueError, match="refit"):
        ChoiceModel.load(path, ("near", "other"))
