"""A happening of the past is history: a later statement never replaces it, only its
correction does (core/judge_history.py).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_history import began_in, past_happening
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


@pytest.mark.parametrize(
    ("text", "past"),
    [
        ("Handed in the citizenship forms at the town hall last Tuesday", True),
        ("Went climbing with Dario three weeks ago", True),
        ("Dario's car broke down yesterday on the ring road", True),
        ("Moved to Ghent last year", False),  # a change that lasts: later news may undo it
        ("Got engaged two months ago", False),
        ("Lives in Ghent", False),
        ("Takes the train to work", False),
        # a time of life, or before the present one (judge_t: a past job was replaced)
        ("Sang in the cathedral choir as a boy", True),
        ("Was a night porter before this job", True),
        ("Worked in Leeds growing up", True),
        ("Sings in a choir", False),
    ],
)
def test_what_is_a_happening_of_the_past(text: str, past: bool) -> None:
    assert past_happening(text) is past


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "Passed the citizenship interview this week, finally!",
            "Handed in the citizenship forms at the town hall last Tuesday",
        ),
        (
            "Started a new climbing course with Dario at the Boulder Barn",
            "Went climbing with Dario three weeks ago at the Boulder Barn",
        ),
    ],
)
def test_a_later_happening_replaces_no_earlier_one(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = judge(embedder, candidate, [stored, "Works as a pharmacist"])
    assert d.action != "supersede", d.reason


def test_a_happening_is_put_right_by_its_correction(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Correction: the forms went in on Wednesday, not Tuesday",
        ["Handed in the citizenship forms at the town hall last Tuesday", "Works as a pharmacist"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("Femi started playing the cello about six years ago (2017); it helps him unwind", 2017),
        ("Took up rowing in 2015 and never looked back", 2015),
        ("Ama began baking when she was little", 0),
        ("Started at the new practice in March", None),
        ("Has started learning Portuguese", None),
    ],
)
def test_where_a_start_is_placed(text: str, year: int | None) -> None:
    assert began_in(text) == year


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Femi started playing the cello about six years ago (2017); it has been a great way to"
         " unwind and express himself.",
         "Playing and singing in the choir let Femi express himself and meet people!"),
        ("Ama started volunteering at the food bank about a year ago (2022) after seeing a"
         " neighbour struggle; it has been fulfilling.",
         "Volunteering at the food bank made Ama feel useful, even if only for a bit."),
    ],
)  # fmt: skip
def test_a_start_before_an_item_was_said_replaces_nothing(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    # The stored item was told in 2023, while the candidate's state already held.
    d = judge(embedder, candidate, [stored], said_on="2023-06-01")
    assert d.action != "supersede", d.reason


def test_a_recent_start_still_changes_a_value(embedder: Embedder) -> None:
    d = judge(embedder, "Started at Monzo this month", ["Works at Barclays"], said_on="2023-06-01")
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_new_job_replaces_no_job_told_as_before_it(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Works as a paramedic with the county ambulance service",
        ["Was a night porter at the infirmary before this job", "Lives in Hexham"],
    )
    assert d.action != "supersede", d.reason
