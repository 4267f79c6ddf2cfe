"""A happening of the past is history: a later statement never replaces it, only its
correction does (core/judge_history.py).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_history import past_happening
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
