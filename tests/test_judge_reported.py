"""A change someone else made to a named person's thing (core/judge_reported.py): the thing's
new value replaces its old one, whoever made the change. Written by hand for the mechanism;
none from the case sets."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_reported import as_reported
from memory_pipelines.models.embedder import Embedder, get_embedder
from tests.judge_helpers import judge


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


def test_the_changed_thing_becomes_the_subject() -> None:
    assert as_reported("The physio cut Ola's exercises to three a week.") == (
        "Ola's exercises decreased to three a week."
    )
    assert as_reported("Coach Dunn moved Ira's training from Monday to Wednesday") == (
        "Ira's training moved from Monday to Wednesday"
    )
    # left as said: an owner who may be the one who changed it, a denied change, no change
    for same in (
        "Tom raised his rate to £40 an hour.",
        "The optician never changed Ola's prescription to varifocals.",
        "Ola's exercises are three a week.",
        "The landlord raised the rent to £900.",
    ):
        assert as_reported(same) == same


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "The physio cut Ola's exercises to three a week.",
            ["Ola does her physio exercises five times a week.", "Ola's physio is Mr Grant."],
        ),
        (
            "Dr Osei upped Ira's metformin to 1000mg.",
            ["Ira takes 500mg of metformin with dinner.", "Ira's GP is Dr Osei."],
        ),
        (
            "The orthodontist moved Bea's brace check to 9 July.",
            ["Bea's brace check is on 2 July.", "Bea is allergic to latex."],
        ),
    ],
)
def test_a_change_made_by_someone_else_supersedes(
    embedder: Embedder, candidate: str, stored: list[str]
) -> None:
    got = judge(embedder, candidate, stored)
    assert (got.action, got.target) == ("supersede", 0), got.reason


def test_a_change_to_someone_elses_thing_leaves_another_owner_alone(embedder: Embedder) -> None:
    got = judge(
        embedder,
        "The physio cut Ola's exercises to three a week.",
        ["Ben does his physio exercises five times a week."],
    )
    assert got.action == "create", got.reason


def test_what_someone_said_of_a_named_one_is_the_statement(embedder: Embedder) -> None:
    """Found by a new-user probe: "Dr. Bennett said Leo should take 10ml of the cetirizine
    instead of 5ml now" stayed beside "Leo takes 5ml of cetirizine", read as about the
    doctor."""
    assert as_reported("The optician said Ola needs reading glasses now.") == (
        "Ola needs reading glasses now."
    )
    assert as_reported("Ola said it was fine.") == "Ola said it was fine."
    assert as_reported("Brightwater emailed: milk goes up to 1.20 a litre.") == (
        "milk goes up to 1.20 a litre."
    )
    got = judge(
        embedder,
        "The nurse said Ira should use two puffs of the inhaler instead of one now.",
        ["Ira uses one puff of the inhaler morning and night.", "Ira's nurse is Mrs. Dale."],
    )
    assert (got.action, got.target) == ("supersede", 0), got.reason
