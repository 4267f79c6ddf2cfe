"""The dedup judge reads one measure in two systems of units (judge_units): "Commute is 12 miles
each way" restates "Drives about 19 km to the office"; measures that disagree, or a measure of
someone else, are no restatement.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

from memory_pipelines.core.judge_units import _agree, measures
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_measures_convert_and_agree() -> None:
    assert _agree(measures("Weighs 82 kg"), measures("Weight is around 180 lb"))
    assert _agree(measures("Runs 5 km"), measures("Runs 3.1 miles"))
    assert not _agree(measures("Weighs 70 kg"), measures("Weighs 12 stone"))
    assert not _agree(measures("Weighs 70 kg"), measures("Target is 70 kg"))  # one unit
    assert measures("Pays 300 pounds a month") == []  # money, not weight


def test_same_distance_other_units_merges(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Commute is 12 miles each way",
        ["Drives about 19 km to the office", "Office is in Reading"],
    )
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_other_subject_measure_is_not_restated(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Dog Bruno weighs 30 kg",
        ["User weighs 66 lb less than at New Year", "Bruno is a Labrador"],
    )
    assert d.action == "create", d.reason
