"""A state come about replaces the state before it ("went vegan" beside "is vegetarian"); a
going somewhere, a doing or a result does not."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def _judged(embedder: Embedder, said: str, stored: list[str], who: str | None) -> JudgeDecision:
    return judge(embedder, said, stored, said_on="2025-03-02", said_by=who)


@pytest.mark.parametrize(
    "said",
    [
        "went pescatarian last spring",
        "Tom's gone teetotal",
        "she turned vegetarian at uni",
        "became a Buddhist in 2019",
    ],
)
def test_a_state_come_about_is_a_change(said: str) -> None:
    assert "became" in change_cues(said)


@pytest.mark.parametrize(
    "said",
    [
        "went to Porto for the weekend",
        "went running with Sam",
        "the launch went well",
        "turned down the offer",
        "turned 40 in May",
        "went vegan for Lent",
        "still went vegetarian like the rest of the family",
        "it's sad he's gone but we have the photos",
        "wants to become a paramedic one day",
        "working towards becoming a foster parent",
    ],
)
def test_a_going_a_doing_or_a_result_is_not(said: str) -> None:
    assert "became" not in change_cues(said)


def test_the_new_state_replaces_the_old_one(embedder: Embedder) -> None:
    stored = ["Priya is vegetarian", "Priya lives in Leicester"]
    now = _judged(embedder, "Priya went vegan after the documentary", stored, "Priya")
    assert (now.action, now.target) == ("supersede", 0), now.reason
    # the same state told again is no change
    again = _judged(embedder, "Priya has been vegetarian for years", stored, "Priya")
    assert again.action == "merge", again.reason


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("had to put Rolo to sleep on Monday", True),
        ("we had Bramble put to sleep last week", True),
        ("had to have Pepper put down in the end", True),
        ("put Tom down as a referee", False),
        ("put Ava to bed early", False),
    ],
)
def test_a_pet_put_to_sleep_by_name_is_gone(said: str, gone: bool) -> None:
    assert ("died" in change_cues(said)) is gone


def test_a_home_address_is_where_one_lives(embedder: Embedder) -> None:
    stored = ["Works at 2 Dock Street, Hull", "Lives at 9 Ash Grove, Beverley"]
    moved = _judged(embedder, "Home address: 31 Mill Lane, Beverley", stored, None)
    assert (moved.action, moved.target) == ("supersede", 1), moved.reason
    same = _judged(embedder, "Home address: 9 Ash Grove, Beverley HU17", stored, None)
    assert (same.action, same.target) == ("merge", 1), same.reason
