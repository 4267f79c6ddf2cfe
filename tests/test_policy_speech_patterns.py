"""The save policy's reading of what a sentence does (policy30): narration with "never", a bare
"Will do", "anyway" back to the chat, thanks for a recap, doubt about relevance, the choice idiom
"X it is", the day's doing, losing the thread of the chat, praise of the listener, a reaction
carried on by a feeling, a bare "Back", the detail of a request, congratulations on news just
told, a degree answering a question, and a rule told again. Every turn is written for this file,
with turns on both sides of each rule."""

from __future__ import annotations

import pytest

from memory_pipelines.core.policy import SAVE_REASONS, judge_turn
from memory_pipelines.core.repeats import _numbers


def _reason(text: str, role: str = "user", recent: tuple[str, ...] = ()) -> str:
    return judge_turn(text, role, list(recent)).reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Perhaps I'd like rowing? Never really tried it, honestly.", "speculation"),
        ("I never really eat bread after six, it keeps me up.", "stable_preference"),
        ("Will do, cheers.", "meta_chatter"),
        ("Will do the VAT return by Thursday, promise.", "commitment"),
        ("Anyway, go on, I'm listening.", "meta_chatter"),
        ("Anyway, my brother lives in Oslo now, so we'll visit in July.", "durable_fact"),
        ("Not sure it matters, but our boiler is a Vaillant from 2019.", "durable_fact"),
        ("Not sure the boiler is a Vaillant, could be a Baxi.", "speculation"),
        ("OK, the 7:40 train it is: the later one misses the connection.", "decision_with_why"),
        ("I'm working from my parents' place today, their wifi is better.", "meta_chatter"),
        ("Btw I'm in room 12 today if the courier calls.", "durable_fact"),
        ("Sorry, I got lost around the third bullet.", "meta_chatter"),
        (
            "We got lost in Lisbon last year, so I always carry a paper map now.",
            "stable_preference",
        ),
        ("Ha, you're smarter than my old chemistry teacher.", "meta_chatter"),
        ("That sounds amazing, I'm so envious of my future self.", "meta_chatter"),
        (
            "Sounds good, I'm so glad we chose the heat pump because gas keeps climbing.",
            "decision_with_why",
        ),  # fmt: skip
    ],
)
def test_what_the_sentence_does_decides(text: str, reason: str) -> None:
    verdict = judge_turn(text)
    if reason in SAVE_REASONS:  # a save: its reason may be another durable one
        assert verdict.save, verdict
    else:
        assert verdict.reason == reason, verdict


def test_thanks_for_a_recap_is_no_recap() -> None:
    recap = ("assistant: Recap: we compared the two roofers and drafted the email.",)
    assert _reason("Thanks for the recap. I'll call both roofers by Friday.", recent=recap) == (
        "commitment"
    )
    assert _reason("Recap for myself: roofers compared, email drafted.") == "already_in_history"


def test_a_bare_back_is_a_greeting() -> None:
    brb = ("user: brb, someone at the door",)
    assert _reason("Back, sorry! It was only the postman.", recent=brb) == "greeting"
    assert judge_turn("Back pain is bad again, so no gym for a month.").save


def test_the_detail_of_a_request_belongs_to_it() -> None:
    shown = ("assistant: Here is the long comparison of the three phones.",)
    short = "Can you trim that? Like, four bullets max, I'm on my phone."
    assert _reason(short, recent=shown) == "meta_chatter"
    lasting = "Can you trim that? Like, always keep answers under 100 words for me."
    assert judge_turn(lasting, "user", list(shown)).save


def test_congratulations_on_news_just_told_restate_it() -> None:
    news = ("user: The loft conversion is done, £3k under budget.",)
    echo = "Congratulations! A finished loft, £3,000 under budget, brilliant."
    assert _reason(echo, "assistant", news) == "restatement"
    own = "Congratulations! I've also booked the building inspector for 14 May."
    assert judge_turn(own, "assistant", list(news)).save


def test_numbers_are_compared_by_value() -> None:
    assert _numbers("£2k and 2,000 and 3pm") == {"2000", "3"}


def test_a_degree_answering_a_question_cues_an_echo() -> None:
    said = ("user: My niece Ada starts at Bristol uni in October.", "assistant: Is she excited?")
    assert _reason("Very! October is the big start at Bristol for Ada.", recent=said) == (
        "restatement"
    )
    assert judge_turn("Very! She's allergic to penicillin, so the GP must know.", "user",
                      list(said)).save  # fmt: skip


def test_a_rule_told_again_is_a_restatement() -> None:
    lesson = ("user: Lesson learnt, always pack a spare phone charger.", "assistant: Ouch!")
    again = "So yes, spare phone charger in the bag from now on. Never again."
    assert _reason(again, recent=lesson) == "restatement"
    other = "Also, from now on send me the agenda the day before every meeting."
    assert judge_turn(other, "user", list(lesson)).save


def test_back_at_the_keyboard_is_a_greeting() -> None:
    assert _reason("Hi hi, back at my laptop with a fresh tea.") == "greeting"
    assert judge_turn("Back at my desk! Btw, my new manager is Ines, she starts on the 4th.").save


def test_out_for_me_ships_nothing() -> None:
    said = ("user: I never eat gluten, my gut can't take it.", "assistant: Noted.")
    assert not judge_turn("yeah so pasta is out for me", "user", list(said)).save
    assert _reason("Version 2.4 is out: exports are twice as fast.") == "shipped_outcome"
