"""The dedup judge recognises a restatement whose value is written in another form: a term's
end read from its length and start (judge_terms), so "the contract ends in May 2027" restates
"a three-year contract starting June 2024", and an end in another year is another value.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge import JudgeItem, decide
from memory_pipelines.core.judge_terms import term_ends
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.models.embedder import Embedder, get_embedder


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


def judge(
    embedder: Embedder, candidate: str, existing: list[str], category: str = "fact"
) -> JudgeDecision:
    items = [JudgeItem(t, category, valid_from="2023-05-01") for t in existing]
    vecs = embedder.embed([candidate, *existing])
    return decide(JudgeItem(candidate, category), items, vecs[0], vecs[1:], embed=embedder.embed)


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
        (
            "Phone contract runs out in May 2029",
            ["Signed a three-year phone contract starting June 2024", "Phone is a Pixel 8"],
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
