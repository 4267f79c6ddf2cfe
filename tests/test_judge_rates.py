"""The dedup judge reads one amount of money per period in another form (judge_rates): a yearly
amount said per month, per week, in thousands or with the currency named after it, or an hourly
rate times the hours a week, is the stored amount restated when what is paid for is one thing.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_rates import rates
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_rates_reads_yearly_amounts() -> None:
    assert rates("Pays 1,200 pounds a month for the flat") == {14400}
    assert rates("Earns 52k a year") == {52000}
    assert rates("Walker charges £12 an hour for 10 hours a week") == {6240}
    assert rates("Tutor charges £30 an hour") == frozenset()  # no hours: no yearly amount
    assert rates("Runs 3 a week") == frozenset()  # a bare count, not money


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Pays 1,200 pounds a month for the flat",
            ["Flat rent comes to £14,400 a year", "Council tax is £150 a month"],
        ),
        (
            "Dog walker charges £12 an hour for 10 hours a week",
            ["Spends £120 a week on the dog walker", "Dog is a beagle called Pip"],
        ),
    ],
)
def test_same_amount_other_period_merges(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("merge", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the same yearly amount, paid for another thing
        ("Savings goal is 6k a year", ["Puts £500 a month into a pension", "Rents a flat"]),
        # the same amount, another person's
        ("Partner earns 60k a year", ["Earns £5,000 a month", "Partner is a teacher"]),
    ],
)
def test_same_amount_other_thing_is_not_restated(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action == "create", d.reason
