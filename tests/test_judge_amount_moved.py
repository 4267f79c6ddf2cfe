"""An amount said to have moved by a factor, without its new value ("doc just doubled my
metformin" beside "On metformin for type 2, 500mg twice a day"), is news of the stored amount:
merged as the same fact, the change was lost (found by a new-user probe, end to end). Not when
the stored item states no amount ("the spoken price for the fence doubled" beside a lesson
about verbal quotes), nor when the candidate gives the new value, which the rules' change cues
read as before.

Every case is written for this file (none is taken from a case set)."""

from __future__ import annotations

from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_a_dose_doubled_is_not_merged_into_the_old_dose(embedder: Embedder) -> None:
    decided = judge(
        embedder,
        "Raj: Doc just doubled metformin actually",
        ["Raj is on metformin for type 2, 500mg twice a day", "Raj cycles to work"],
    )
    assert decided.action != "merge", decided.reason


def test_a_fee_halved_is_not_merged_into_the_old_fee(embedder: Embedder) -> None:
    decided = judge(
        embedder,
        "The climbing gym halved Noor's membership fee for the winter",
        ["Noor pays £48 a month for the climbing gym", "Noor lives in Sheffield"],
    )
    assert decided.action != "merge", decided.reason


def test_a_new_value_given_is_still_a_change(embedder: Embedder) -> None:
    decided = judge(
        embedder,
        "Noor's climbing gym went up to £52 a month from January",
        ["Noor pays £48 a month for the climbing gym", "Noor lives in Sheffield"],
    )
    assert (decided.action, decided.target) == ("supersede", 0), decided.reason
