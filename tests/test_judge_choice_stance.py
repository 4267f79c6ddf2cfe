"""The dedup judge weighs a choice ("would rather X than Y", "prefers X over Y") against the
stance a stored item takes on its two sides (judge_choice_stance): an item that shuns Y too is
the same choice (merge); one that favours Y and shuns X is the choice turned round (supersede).

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

from functools import partial

from memory_pipelines.core.judge_choice_stance import _stance
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge as judge_with

judge = partial(judge_with, category="preference")


def test_stance_of_a_thing_by_clause() -> None:
    assert _stance("Avoids flying; takes the train", frozenset({"train"})) == 1
    assert _stance("Takes the train; never flies by choice", frozenset({"fli"})) in (-1, 0)
    assert _stance("Navigates with an app; seldom carries a map", frozenset({"map"})) == -1
    assert _stance("Reads before bed", frozenset({"map"})) == 0


def test_choice_turned_round_supersedes(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Prefers paper maps over phone navigation when hiking",
        [
            "Navigates hikes with a phone app; seldom carries a paper map",
            "Hikes in the Lake District most summers",
        ],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_store_shunning_the_other_side_is_the_same_choice(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Would rather pay by card than cash at the market",
        ["Never carries cash; pays for everything by card", "Market is on Saturdays"],
    )
    assert (d.action, d.target) == ("merge", 0), d.reason
