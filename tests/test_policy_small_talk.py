"""The save policy's reading of small talk (policy29): a reaction that only judges what was just
said or shown ("That sounds like a lovely trip!") is no fact, while a reaction followed by a fact,
or holding a detail of its own, still saves. Every turn is written for this file, with turns on
both sides of each rule."""

from __future__ import annotations

import pytest

from memory_pipelines.core.policy import judge_turn


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("That sounds like a wonderful weekend!", "assistant"),
        ("Looks like a tricky one.", "assistant"),
        ("Absolutely, that makes a lot of sense.", "assistant"),
        ("Nice pick! That's a really sensible option.", "assistant"),
        ("Oh wow, what a view from the balcony.", "user"),
        ("Ha, you're right, my bad.", "user"),
        ("This is way too formal, tone it down.", "user"),
        ("Honestly that seems a bit much for a first draft.", "user"),
    ],
)
def test_a_reaction_to_what_was_said_is_small_talk(text: str, role: str) -> None:
    verdict = judge_turn(text, role)
    assert not verdict.save, verdict


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # a fact after the reaction keeps its own kind
        ("You're right, the lease ends on 30 September.", "durable_fact"),
        ("Sounds good, and I always want the receipts emailed, never posted.", "stable_preference"),
        # a detail inside the judged thing makes it a statement about the world
        ("That's our standard contract for freelancers.", "durable_fact"),
        ("That's really Priya's call, she owns the budget.", "durable_fact"),
        # an exclamation with a number in it tells a fact
        ("What a pity the gym closes at 9, I train late.", "durable_fact"),
    ],
)
def test_a_reaction_leaves_a_fact_beside_it_alone(text: str, reason: str) -> None:
    assert judge_turn(text).reason == reason


@pytest.mark.parametrize(
    "text",
    [
        "Just knocked my tea over the keyboard, great.",
        "Missed the bus this morning and walked in the rain.",
        "My neighbour's dog barked the whole of last night.",
        "Got soaked on the way home, forgot the umbrella.",
        "Burnt the rice an hour ago, the kitchen still smells.",
    ],
)
def test_a_one_off_happening_of_the_last_hours_is_small_talk(text: str) -> None:
    verdict = judge_turn(text)
    assert not verdict.save, verdict


@pytest.mark.parametrize(
    "text",
    [
        # a change that lasts, however recent
        "We adopted a rescue greyhound this morning, she's called Luna.",
        "Just moved into the new flat on Harbour Road.",
        "Just switched my phone contract to a SIM-only plan.",
        # a result with a number, a cause or a finding
        "Last night's import took 40 minutes, twice the usual.",
        "The build failed this morning because the signing certificate had expired.",
        "I checked the meter this morning: it reads way above last month.",
        # health is never an episode
        "Had an asthma attack on the way in, first in years.",
        # the same happening with no recent anchor is left as it was
        "Our boiler broke down twice over the winter.",
    ],
)
def test_a_recent_change_or_result_is_no_episode(text: str) -> None:
    assert judge_turn(text).save
