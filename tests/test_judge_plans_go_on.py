"""A plan goes on until something settles it: a search still under way, a plan said to go
on, or a look ahead settles no stored plan (judge_modality.plan_settled).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge

PLAN = "Looking for a second-hand upright piano for the living room"
OTHER = "Teaches maths at a secondary school"


@pytest.mark.parametrize(
    "candidate",
    [
        "Hunting for a second-hand upright piano has been exhausting",
        "Still on the lookout for a decent second-hand upright piano",
        "Is going to visit a piano dealer in Leeds about an upright",
        "Can't wait to have an upright piano in the living room",
    ],
)
def test_a_plan_that_goes_on_is_not_settled(embedder: Embedder, candidate: str) -> None:
    d = judge(embedder, candidate, [PLAN, OTHER])
    assert d.action != "supersede", d.reason


def test_a_choice_made_settles_the_plan(embedder: Embedder) -> None:
    d = judge(
        embedder, "Bought a second-hand Yamaha upright piano for the living room", [PLAN, OTHER]
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    "plan",
    [
        "Is saving up for a second-hand upright piano for the living room",
        "Puts £50 aside each month, saving for an upright piano",
        "Hopes to buy a second-hand upright piano for the living room next year",
    ],
)
def test_money_put_aside_or_a_hope_is_a_plan_the_purchase_settles(
    embedder: Embedder, plan: str
) -> None:
    d = judge(
        embedder, "Bought a second-hand Yamaha upright piano for the living room", [plan, OTHER]
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason
    # still saving settles nothing
    d = judge(embedder, "Still saving for the piano, about halfway there", [plan, OTHER])
    assert d.action != "supersede", d.reason


def test_a_hope_to_be_someone_is_a_goal_no_promotion_settles(embedder: Embedder) -> None:
    """A promotion moves the job on; it does not settle the hope to become a nurse
    practitioner one day."""
    stored = [
        "Hopes to become a nurse practitioner within five years",
        "Works as a staff nurse at a hospital in Derby",
    ]
    d = judge(embedder, "Got promoted to lead nurse after a year on the ward", stored)
    assert (d.action, d.target) == ("supersede", 1), d.reason


@pytest.mark.parametrize(
    "candidate",
    [
        "Her dream is to own a second-hand upright piano for the living room",
        "Would love to have an upright piano in the living room one day",
    ],
)
def test_an_aim_said_again_settles_no_plan(embedder: Embedder, candidate: str) -> None:
    plan = "Hopes to buy a second-hand upright piano for the living room next year"
    d = judge(embedder, candidate, [plan, OTHER])
    assert d.action != "supersede", d.reason
