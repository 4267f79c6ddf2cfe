"""The dedup judge recognises a restatement whose value is written in another form: a term's
end read from its length and start (judge_terms), so "the contract ends in May 2027" restates
"a three-year contract starting June 2024", and an end in another year is another value. And
an uncued change of a measured amount: one thing measured in one unit with another number
(judge_counts), but not a span of time or a version after a name.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

from functools import partial

import pytest

from memory_pipelines.core.judge_terms import term_ends
from memory_pipelines.core.judge_values import typed_values, value_conflicts
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import LEARNED_MISS
from tests.judge_helpers import judge as judge_with

judge = partial(judge_with, said_on="2023-05-01")


def test_term_ends_reads_length_and_start() -> None:
    ends = {(k, v) for k, v, _, _ in term_ends("Took a three-year contract starting June 2024")}
    assert ends == {("year", "2027"), ("month", "may"), ("month", "jun")}
    assert {(k, v) for k, v, _, _ in term_ends("Fixed for 2 years from 2019")} == {("year", "2021")}
    left = {(k, v) for k, v, _, _ in term_ends("The loan has 6 years left", (2020, 3))}
    assert left == {("year", "2026")}
    # what is left needs the time it was said; a length with no start is no term
    assert not list(term_ends("The loan has 6 years left"))
    assert not list(term_ends("Has worked there for three years"))


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Phone contract runs out in May 2027",
            ["Signed a three-year phone contract starting June 2024", "Phone is a Pixel 8"],
        ),
        (
            "The student loan will be paid off in 2031",
            ["Student loan has 8 years left", "Studied law at Leeds"],
        ),
    ],
)
def test_term_end_restates_its_start(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("merge", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        pytest.param(
            "Phone contract runs out in May 2029",
            ["Signed a three-year phone contract starting June 2024", "Phone is a Pixel 8"],
            marks=LEARNED_MISS,
        ),
        (
            "The student loan will be paid off in 2035",
            ["Student loan has 8 years left", "Studied law at Leeds"],
        ),
    ],
)
def test_term_ending_another_year_is_not_a_restatement(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action != "merge", d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Biscuit eats 120 g of wet food daily, split over two meals",
            ["Biscuit's food allowance: 90 g of wet food", "Biscuit is a tabby cat"],
        ),
        (
            "Cycles about 150 km a week before the sportive",
            ["Aims for 100 km of cycling per week", "Rides a Trek Domane"],
        ),
    ],
)
def test_same_measure_another_amount_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # a span of time is said of many attributes: an allowance and what is left of it
        (
            "Yearly holiday entitlement is 30 days",
            ["Has 9 days of holiday left this year", "Works at a bakery"],
        ),
        # a number after a name is a version: two systems side by side
        (
            "The billing service is pinned to Node 18",
            ["The services are on Node 22", "Deploys with GitHub Actions"],
        ),
    ],
)
def test_time_spans_and_versions_are_not_one_measure(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action != "supersede", d.reason


def test_unit_spellings_are_one_unit() -> None:
    # a degree mark or word after a number is a temperature, not a clock time ("at 19")
    assert typed_values("Keeps the greenhouse at 16 degrees") == {"n:degr": frozenset({"16"})}
    assert typed_values("Keeps the greenhouse at 18°C") == {"n:degr": frozenset({"18"})}
    assert "clock" in typed_values("Leaves the house at 8")
    # a unit and its abbreviation ("req" / "requests") are one unit; short keys are not
    # read as abbreviations ("g" / "gal")
    one_unit = value_conflicts(
        typed_values("Service allows 80 req/s"), typed_values("Service allows 50 requests a second")
    )
    assert len(one_unit) == 1 and one_unit[0].startswith("n:req")
    assert value_conflicts(typed_values("Uses 3 g"), typed_values("Uses 5 gal")) == []


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Keeps the greenhouse at 16 degrees over winter",
            ["Keeps the greenhouse heated to 12°C over winter", "Grows chillies"],
        ),
        (
            "The search API accepts 80 requests per second per token",
            ["Search API rate limit is 50 req/s per token", "Search runs on Elasticsearch"],
        ),
    ],
)
def test_measure_in_another_spelling_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason
