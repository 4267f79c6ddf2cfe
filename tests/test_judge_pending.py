"""The dedup judge reads a change only considered ("Thinking about switching from Jira to
Linear") as a new item: no stored value moved (judge_pending); a change made, or a stored plan
changed, still supersedes. A change of someone ("Tariq moved to Glasgow") names whom it
is about, not an old value: an item of another attribute of theirs stands
(judge_supersede.cued_change).

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        ("Thinking about switching the team from Jira to Linear", ["Team tracks work in Jira"]),
        ("Maybe moving the book club to Thursdays", ["Book club meets on Tuesdays"]),
        ("Thinking about moving to Leeds next year", ["Lives in York", "Works in Leeds"]),
    ],
)
def test_considered_change_moves_nothing(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action == "create", d.reason


def test_change_made_still_supersedes(embedder: Embedder) -> None:
    d = judge(embedder, "Switched the team from Jira to Linear", ["Team tracks work in Jira"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_stored_plan_changed_still_supersedes(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Considering switching the blog to Ghost instead of Hugo",
        ["Thinking of moving the blog to Hugo", "Blog runs on WordPress"],
        category="decision",
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_move_of_a_person_does_not_replace_another_attribute(embedder: Embedder) -> None:
    # "Tariq" is whom the move is about, not an old value: the item about his job stands.
    d = judge(
        embedder,
        "Cousin Tariq moved to Glasgow",
        ["Tariq is a paramedic", "Brother lives in Glasgow"],
    )
    assert d.action == "create", d.reason
    d = judge(embedder, "Cousin Tariq moved to Glasgow", ["Tariq lives in Dundee"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # an answer owed, then given
        ("Told the agency yes, starting in the Leeds office", [
            "Has to answer the agency's Leeds offer by Friday", "Commutes by train"]),
        # a choice still being made, then made
        ("Picked the cheaper of the two quotes for the roof", [
            "Still deciding between two quotes for the new roof", "House is a 1930s semi"]),
        ("Chose Greenfield Primary for Amara in the end", [
            "Hasn't chosen a primary school for Amara yet", "Amara turns four in May"]),
    ],
)  # fmt: skip
def test_an_open_decision_is_settled_by_the_decision(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_an_open_decision_said_again_settles_nothing(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Still hasn't decided on the agency's Leeds offer",
        ["Has to answer the agency's Leeds offer by Friday", "Commutes by train"],
    )
    assert d.action != "supersede", d.reason
