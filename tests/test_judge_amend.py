"""The dedup judge reads a value put right (judge_amend): the candidate names the old value in an
aside ("not Heathrow", "corrected the earlier size 12", "previously 2 June"), and the stored item
of its subject that held it, not the new value, is superseded; a stored item that already
holds the new value ("flashcards, not summaries" beside "revises with flashcards") is not.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_amend import _old_values
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_old_values_read_from_asides() -> None:
    assert [o for _, o in _old_values("Leaves from Gatwick, not Heathrow")] == ["Heathrow"]
    assert [o for _, o in _old_values("Size is 13 (corrected the earlier size 12)")] == ["size 12"]
    assert [o for _, o in _old_values("Booked for 9 June, previously 2 June")] == ["2 June"]
    assert _old_values("Does not eat meat") == []


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Flight to Oslo actually leaves from Gatwick, not Heathrow",
            ["Flight to Oslo leaves from Heathrow", "Hotel in Oslo is near the harbour"],
        ),
        (
            "Daughter Isla's shoe size is 13 (User corrected the earlier size 12)",
            ["Isla wears size 12 shoes", "Isla is 5"],
        ),
        (
            "Car service is booked for 9 June, previously 2 June",
            ["Car service booked on 2 June at Kwik Garage", "MOT due in August"],
        ),
    ],
)
def test_named_old_value_is_put_right(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_stored_item_with_the_new_value_is_restated(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Reads on a Kindle, not paper books, when travelling",
        ["Takes the Kindle on trips; paper books are too heavy to carry", "Likes crime novels"],
        category="preference",
    )
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_other_subject_is_not_corrected(embedder: Embedder) -> None:
    d = judge(
        embedder, "Partner Dev is vegetarian, not vegan", ["User is vegan", "Dev works in Leeds"]
    )
    assert d.action == "create", d.reason
