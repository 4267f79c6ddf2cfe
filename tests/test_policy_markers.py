"""The save policy's markers read off the eighth case set's misses (policy_h, a tuning set): a
task taken on ("the booking's on me") against "go easy on me"; closing the chat ("that's it for
today") against "that's it for normal cat food"; content shown again ("re-sharing the plan from
earlier", "scrolled up"); a possibility asked ("Could I be anaemic?"); sensory conditions as
health facts; a time of the speaker's ("saved my afternoon") as no detail; feedback on how much
an answer says. Every turn is written for this file, with turns on both sides of each rule."""

from __future__ import annotations

import pytest

from memory_pipelines.core.policy import judge_turn


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # a task taken on is a commitment ...
        ("The booking's on me, I'll sort it tonight.", "commitment"),
        ("Action on me: chase the roofer about the quote by Friday.", "commitment"),
        ("Sorting the visas is on me this time.", "commitment"),
        # ... "on me" in other phrases is not
        ("Hi, new here, go easy on me.", "greeting"),
    ],
)
def test_on_me_is_a_task_taken_on_only_after_a_copula(text: str, reason: str) -> None:
    assert judge_turn(text).reason == reason


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("OK, that's it for today, thanks!", False),
        ("That's all for now.", False),
        # "that's it for X" with X no span of the chat: a fact told
        ("Rolo has kidney disease, so that's it for salty treats from now on.", True),
        ("The dentist says that's it for the old crown, it has to come out.", True),
    ],
)
def test_thats_it_for_closes_the_chat_only_for_a_span_of_it(text: str, save: bool) -> None:
    assert judge_turn(text).save is save


@pytest.mark.parametrize(
    "text",
    [
        "Re-sharing the packing list from earlier: passports, adapters, the blue bag.",
        "Resharing the spec so it's in one place: 3 replicas, 2 GB each.",
        "Re-pasted the error below, same as before.",
        "The schema from earlier: users, orders, refunds.",
        "Scrolled back up and what I wrote at the start still holds: no flights before 9.",
        "What I said at the beginning still stands: the budget is £600.",
    ],
)
def test_content_shown_again_is_already_in_history(text: str) -> None:
    assert judge_turn(text).reason == "already_in_history"


@pytest.mark.parametrize(
    "text",
    [
        "I shared a flat with two nurses for years.",
        "We're repainting the hall in May.",
        "I started sharing a car with my neighbour on Mondays.",
    ],
)
def test_plain_sharing_and_re_words_are_not_history(text: str) -> None:
    assert judge_turn(text).save


@pytest.mark.parametrize(
    "text",
    [
        "Could I be low on iron? I get dizzy on the stairs.",
        "Could it be the router? The wifi drops every evening.",
        "It could be the thermostat, the radiators never get hot.",
    ],
)
def test_a_possibility_asked_or_guessed_is_speculation(text: str) -> None:
    assert judge_turn(text).reason == "speculation"


def test_a_possibility_is_no_hedge_on_a_plain_statement_of_ability() -> None:
    # "could" as a past ability or a firm plan is no guess
    assert judge_turn("I could swim before I could walk, I've done triathlons for years.").save


@pytest.mark.parametrize(
    "text",
    [
        "haha yeah, I'm colour-blind, so the red and green lines look the same to me",
        "lol I'm red-green colorblind, use shapes not colours please",
        "FYI I'm partially sighted, so bigger fonts help.",
        "Ok, I'm dyslexic, so short paragraphs are much easier.",
    ],
)
def test_sensory_and_reading_conditions_are_saved_whatever_opens_them(text: str) -> None:
    assert judge_turn(text).save


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("Brilliant, that shortcut just saved my afternoon.", False),
        ("Great, that made my week.", False),
        # a thing of the speaker's is still a detail worth keeping
        ("Great, my flat sale finally went through.", True),
        ("Thanks, my landlord agreed to the repair.", True),
    ],
)
def test_a_time_of_the_speakers_is_no_detail_a_thing_is(text: str, save: bool) -> None:
    assert judge_turn(text).save is save


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("Whoa, too much Terraform detail, I just need the gist.", False),
        ("Too many words, I only want the headlines.", False),
        # the same wish, standing: a preference
        ("From now on I just need the gist, never the full detail.", True),
    ],
)
def test_feedback_on_how_much_an_answer_says_is_meta_unless_standing(text: str, save: bool) -> None:
    assert judge_turn(text).save is save
