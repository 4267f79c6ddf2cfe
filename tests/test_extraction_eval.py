"""The LoCoMo extraction eval: which observations an item is compared with."""

from __future__ import annotations

import numpy as np

from memory_pipelines.evals.extraction import exchange, score

# seq -> (session, speaker): two sessions of Ana and Ben taking turns, Ana twice in a row at 4-5
SAID_BY = {
    1: ("D1", "Ana"),
    2: ("D1", "Ben"),
    3: ("D1", "Ana"),
    4: ("D1", "Ben"),
    5: ("D1", "Ben"),
    6: ("D1", "Ana"),
    7: ("D2", "Ana"),
    8: ("D2", "Ben"),
}


def test_an_item_is_compared_with_the_speakers_turns_either_side_in_its_session() -> None:
    # Ana's turn 3: her turns 1 and 6 either side (not Ben's between, not further back)
    assert exchange({3}, SAID_BY) == {1, 3, 6}
    # Ben's turn 4: his turns 2 and 5; the session ends Ana's turn 6 before her turn 7
    assert exchange({4}, SAID_BY) == {2, 4, 5}
    assert exchange({6}, SAID_BY) == {3, 6}
    assert exchange({7}, SAID_BY) == {7}
    assert exchange({99}, SAID_BY) == {99}  # a turn the eval does not know stays itself


def test_an_observation_cited_on_the_speakers_next_turn_backs_the_item() -> None:
    a, b = np.eye(2, dtype=np.float32)
    obs = [(6, a)]  # LoCoMo cites Ana's turn 6 for what she told at turn 3 and 6
    items = [({3}, a), ({3}, b)]
    strict = score(obs, items)
    assert (strict["covered"], strict["items_same"]) == (0, 0)
    wide = score(obs, [(exchange(t, SAID_BY), v) for t, v in items])
    # the item saying it is backed; the one saying something else is not
    assert (wide["covered"], wide["items_same"]) == (1, 1)
