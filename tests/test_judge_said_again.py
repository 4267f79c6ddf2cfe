"""The dedup judge reads "again" on a verb of saying ("mentioned again that ...") as a claim
restated, not a habit resumed (judge_said_again); "playing the piano again" still resumes.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_claim_said_again_merges(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "User mentioned again that the car is a hybrid",
        ["Drives a hybrid Toyota Corolla", "Partner cycles to work"],
    )
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_habit_resumed_still_supersedes(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Playing the piano again after ten years off",
        ["Gave up the piano as a teenager", "Listens to jazz"],
        category="preference",
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason
