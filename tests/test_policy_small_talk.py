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
