"""Unit tests of the save policy's turn-level mechanisms (recaps, restatements of durable
statements, categories read from the whole turn), each on hand-written turns (none taken from a
case set), with turns on both sides of each rule."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memory_pipelines.core.policy import judge_turn, skip_reason_for_item


def _reason(text: str, role: str = "user", recent: Sequence[str] = ()) -> str:
    return judge_turn(text, role, recent).reason


def test_a_listing_answer_to_a_recap_request_is_history() -> None:
    ask = ["user: that's all for today", "assistant: Nice work.", "user: can you sum it up?"]
    recap = "Today we set up the budget sheet, renamed the folders and booked the dentist."
    assert _reason(recap, "assistant", ask) == "already_in_history"
    # without the request the same turn is what happened, and saved
    assert judge_turn(recap, "assistant", ["user: anything else?"]).save
    # an answer that does one thing, or promises, is no recap
    one = "Sure. I've booked the dentist for Tuesday at 9."
    assert judge_turn(one, "assistant", ["user: book the dentist, then recap the week"]).save
    pledge = "I'll send the summary to Priya, Tom and Ana by Friday."
    assert judge_turn(pledge, "assistant", ["user: can you summarise the call?"]).save
    head = "Here's where we ended up: the blue tiles, the cheaper fitter and a May start."
    assert _reason(head, "assistant") == "already_in_history"


def _far(text: str, others: Sequence[str]) -> list[float]:
    return [0.3 for _ in others]


def test_a_durable_statement_made_again_is_a_restatement() -> None:
    said = ["assistant: I'll send the migration plan by Thursday.", "user: perfect"]
    again = "As agreed, I'll have the migration plan to you by Thursday."
    assert _reason(again, "assistant", said) == "restatement"
    # the embedder may overrule the words: far in meaning, it is no repeat
    assert judge_turn(again, "assistant", said, similarity=_far).save
    said = ["user: I'm coeliac, so the whole menu has to be gluten-free.", "assistant: Sure."]
    assert _reason("yeah, no gluten, I'm coeliac", "user", said) == "restatement"


@pytest.mark.parametrize(
    ("text", "recent"),
    [
        # a promise kept is news, not the promise again
        ("The fix is deployed.", ["assistant: I'll deploy the fix at 5pm.", "user: ok"]),
        # a list made longer
        ("I'm allergic to peanuts and shellfish.", ["user: I'm allergic to peanuts."]),
        # the words were asked, not said
        ("I'm allergic to peanuts, yes.", ["assistant: Are you allergic to peanuts?"]),
        ("Yes, always metric units.", ["assistant: Should I always use metric units?"]),
        # a new number
        ("My flight is at 7:40 now.", ["user: My flight is at 7:10.", "assistant: Noted."]),
    ],
)
def test_news_answers_and_longer_lists_are_no_restatement(text: str, recent: list[str]) -> None:
    role = "assistant" if text.startswith("The fix") else "user"
    assert judge_turn(text, role, recent).save


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a future with no due time or pledge beside a decision is its consequence
        (
            "We're going with the annual plan. It's cheaper and we'll be on it for years.",
            "decision",
        ),
        (
            "We went for the 30-year term so the payment fits. We'll overpay when we can.",
            "decision",
        ),
        # with a due time it is a promise, and the promise wins
        (
            "I'll send the lease to the agent by Friday. We chose Elm Road because of school.",
            "commitment",
        ),
        # a rule for oneself backed by a mishap, however it is put
        (
            "Reminder to self: always check the tyres before a long drive. We had a blowout.",
            "lesson",
        ),
        ("Note for future me: charge the camera the night before.", "lesson"),
        ("Don't ever sign a lease unseen. We did once and it had damp everywhere.", "lesson"),
        ("Won't do that again: I paid upfront and the builder vanished.", "lesson"),
        ("Second time the courier left it in the rain. From now on I use the locker.", "lesson"),
        # a rule for the service, or a wish, is a preference
        ("From now on I want all invoices as PDFs.", "preference"),
        ("Never put me on calls before 9, I'm useless in the mornings.", "preference"),
        ("No calls after 6. Remember that whenever you plan my week.", "preference"),
        # another person's task with its due time
        ("Priya owns the vendor review and will report back by 3 May.", "commitment"),
        ("Told my landlord he'd have the rent by Monday.", "commitment"),
        ("The parcel will arrive by Friday.", "fact"),
        # a mind made up, a bare choice with its reason
        ("Made up my mind: the smaller flat, because it's near the station.", "decision"),
        ("Fine, the cheaper tyres then, since we're selling the car in spring.", "decision"),
    ],
)
def test_categories_read_from_the_whole_turn(text: str, category: str) -> None:
    verdict = judge_turn(text)
    assert verdict.save and verdict.category == category, verdict


def test_a_durable_statement_made_again_as_an_item_is_kept() -> None:
    # the same words as a turn repeat it; as a memory item they may be its first record (dedup
    # merges it into the record if there is one)
    said = ["user: I'm allergic to kiwi.", "assistant: Noted, no kiwi for you."]
    assert _reason("Yes, I'm allergic to kiwi, no kiwi.", "user", said) == "restatement"
    assert skip_reason_for_item("I'm allergic to kiwi", said) is None
    promised = ["assistant: I'll send you the revised quote by 4pm.", "user: great"]
    assert skip_reason_for_item("Will send the revised quote by 4pm", promised) is None
