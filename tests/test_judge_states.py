"""A state come about replaces the state before it ("went vegan" beside "is vegetarian"); a
going somewhere, a doing or a result does not. A pet one had put to sleep is gone; a child put
to bed is not. A home address is where one lives; a label of many values keeps them all."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.judge_rules import analyse
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
        "went gluten-free after the diagnosis",
        "has gone freelance as a designer",
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
        "the interview went great",
        "she turned me down",
        "the milk went sour",
        "the line went dead",
        "turned left at the lights",
        "We went Saturday in the end",
        "went semi-vegan for Lent",
        "went kite-surfing in Tarifa",
        "the video went viral",
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
        ("we had Bramble put to sleep last week", True),
        ("had her old cat Rolo put to sleep on Monday", True),
        ("had to have Pepper put down in the end", True),
        # a child put to bed, a referee named, oneself under anaesthetic
        ("finally put Ava down at 7", False),
        ("took ages to put Noah to sleep tonight", False),
        ("I'll be put to sleep for the knee operation", False),
        ("put Tom down as a referee", False),
    ],
)
def test_a_pet_one_had_put_to_sleep_is_gone(said: str, gone: bool) -> None:
    assert ("died" in change_cues(said)) is gone


def test_a_home_address_is_where_one_lives(embedder: Embedder) -> None:
    stored = ["Works at 2 Dock Street, Hull", "Lives at 9 Ash Grove, Beverley"]
    moved = _judged(embedder, "Home address: 31 Mill Lane, Beverley", stored, None)
    assert (moved.action, moved.target) == ("supersede", 1), moved.reason
    same = _judged(embedder, "Home address: 9 Ash Grove, Beverley HU17", stored, None)
    assert (same.action, same.target) == ("merge", 1), same.reason


def test_a_label_of_many_values_takes_a_second_one(embedder: Embedder) -> None:
    # an allergy is never replaced by another: both stay current
    d = _judged(embedder, "Allergies: Penicillin", ["Allergies: Peanuts", "Blood type O+"], None)
    assert d.action != "supersede", d.reason
    meds = _judged(embedder, "Daily medication: Sertraline", ["Medication: Lisinopril"], None)
    assert meds.action != "supersede", meds.reason


def test_going_live_at_a_time_is_no_address() -> None:
    assert "residence" not in analyse("The site goes live at 9am on Monday").frames
    assert "residence" in analyse("Lives at 31 Mill Lane, Beverley").frames
