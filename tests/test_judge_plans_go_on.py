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
