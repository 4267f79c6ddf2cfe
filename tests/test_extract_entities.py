"""What an extracted item names: a word of a closed class capitalised only because it opens a
sentence or a quote is no entity (a new user's probe found "Her", "Still", "Asked", "Are",
"Does", "Not", "Fine" and "Update" among a store's entities, and a question opening with "Are"
or "Does" found every item holding one through the graph)."""

from __future__ import annotations

import pytest

from memory_pipelines.core.extract import entities_of


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Her name is Janine Cho.", ["Janine Cho"]),
        ('Asked "Are you in?", Hannah said: "Still on for Friday."', ["Hannah", "Friday"]),
        ("Update: the Blue Ridge Ramblers cancelled.", ["Blue Ridge Ramblers"]),
        ("Fine, Tom will call. Does Ana know?", ["Tom", "Ana"]),
        # names stay, mid-sentence too when they are words ("May", "Will")
        ("Dana moved to Pittsburgh in May with Will.", ["Dana", "Pittsburgh", "May", "Will"]),
        ("Still Priya's call, not mine.", ["Priya"]),
    ],
)
def test_an_opener_is_no_entity(text: str, named: list[str]) -> None:
    assert entities_of(text, "") == named
