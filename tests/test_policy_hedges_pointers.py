"""The save policy's hedges and pointers back (policy29): deliberation, odds and gut feelings and
the assistant's general advice are guesses; a turn opened by pointing at earlier talk is history;
a choice made for an unsure reason is still made. Every turn is written for this file, with turns
on both sides of each rule."""

from __future__ import annotations

import pytest

from memory_pipelines.core.policy import judge_turn


@pytest.mark.parametrize(
    ("text", "role", "recent"),
    [
        ("As we discussed, the boiler service is due in April.", "assistant", []),
        ("Again, as I said, the kids' pickup is at 3:15.", "user", []),
        ("As you mentioned, the lift is out until next week.", "assistant", []),
    ],
)
def test_a_turn_opened_by_pointing_at_earlier_talk_is_history(
    text: str, role: str, recent: list[str]
) -> None:
    assert judge_turn(text, role, recent).reason == "already_in_history"


@pytest.mark.parametrize(
    ("text", "role"),
    [
        # a promise kept is news, not a pointer back
        ("As promised, the fix is live and the error rate is back to zero.", "assistant"),
        # "as ... said" further in is the speaker's own reason, not a recap
        ("We're going with the monthly plan, as my accountant said it's cheaper overall.", "user"),
    ],
)
def test_as_said_elsewhere_is_left_alone(text: str, role: str) -> None:
    assert judge_turn(text, role).save


@pytest.mark.parametrize(
    ("text", "save"),
    [
        # deliberation is no decision
        ("I'm torn between the Leeds job and staying put.", False),
        ("We keep arguing about whether to sell the flat.", False),
        ("The trip is roughly for late May, but nothing's fixed.", False),
        ("Still in two minds about the extension.", False),
        # a deliberation that is over names the choice
        ("After weeks of arguing we sold the flat, since the repairs were too much.", True),
        ("We fixed the date: the party is on 12 July.", True),
    ],
)
def test_deliberation_is_speculation(text: str, save: bool) -> None:
    assert judge_turn(text).save is save


@pytest.mark.parametrize(
    "text",
    [
        "Some people find a short walk after meals keeps their energy up.",
        "If you're open to it, a weekly review on Fridays can help you plan.",
        "Try to keep the first draft under a page.",
        "Make sure you back up the photos before the reset.",
        "Take it slowly with the new running plan.",
    ],
)
def test_the_assistants_general_advice_is_a_suggestion(text: str) -> None:
    assert judge_turn(text, "assistant").reason == "speculation"


@pytest.mark.parametrize(
    ("text", "role", "reason"),
    [
        # the assistant's own decisions, promises and results are not advice
        (
            "I've added an index on orders.created_at because the report scanned the table.",
            "assistant",
            "decision_with_why",
        ),
        (
            "I'll make sure the backup runs before the reset, at 6pm tonight.",
            "assistant",
            "commitment",
        ),
        (
            "I've turned on gzip, which can help on slow phones: the bundle is 40% smaller now.",
            "assistant",
            "decision_with_why",
        ),
        # a user who says "try" tells their own plan or preference
        (
            "Always try the cheapest fare first when you book my trains.",
            "user",
            "stable_preference",
        ),
    ],
)
def test_advice_words_leave_the_assistants_own_work_alone(
    text: str, role: str, reason: str
) -> None:
    assert judge_turn(text, role).reason == reason


@pytest.mark.parametrize(
    ("text", "role", "save"),
    [
        # odds and gut feelings are guesses
        ("There's a decent chance the flight gets moved.", "assistant", False),
        ("Chances are the landlord says no.", "user", False),
        ("My gut tells me the merger falls through.", "user", False),
        # "a chance to" is an opportunity, and odds with a fact beside them leave it alone
        ("I'm a nurse, so there's no chance I can do evening calls.", "user", True),
        # "not gonna lie" opens a sentence, it promises nothing
        ("Not gonna lie, what a day.", "user", False),
        ("I'm gonna send Dana the slides by Friday.", "user", True),
    ],
)
def test_odds_gut_feelings_and_not_gonna_lie(text: str, role: str, save: bool) -> None:
    assert judge_turn(text, role).save is save


@pytest.mark.parametrize(
    ("text", "role", "reason"),
    [
        # the choice is made; only its reason is unsure
        (
            "We've decided to lease rather than buy, since we might move abroad in two years.",
            "user",
            "decision_with_why",
        ),
        (
            "I went with a plain cron job over Airflow: a scheduler would be one more service.",
            "assistant",
            "decision_with_why",
        ),
        # a hedged choice stays a guess, whatever its reason
        ("Maybe we'll go with the van because it's cheaper to insure.", "user", "speculation"),
        ("We'll probably switch banks since the fees went up.", "user", "speculation"),
        ("I think we'll pick the later train: it might be quieter.", "user", "speculation"),
        # a hedge in a reason with no choice before it is still a hedge
        ("The roof is old, since it might be the original from 1960.", "user", "speculation"),
    ],
)
def test_a_hedge_in_the_reason_leaves_a_made_choice_alone(
    text: str, role: str, reason: str
) -> None:
    assert judge_turn(text, role).reason == reason


@pytest.mark.parametrize(
    ("text", "role", "reason"),
    [
        (
            "For reference, here's what you told me yesterday: the flat is on the third floor.",
            "assistant",
            "already_in_history",
        ),
        ("I'm so sorry you've had such a rough week.", "assistant", "meta_chatter"),
        ("Hold that thought, someone's at the door.", "user", "meta_chatter"),
        ("Leaning to the oak worktop, but we'll decide after the quotes.", "user", "speculation"),
        ("A short walk after lunch can make all the difference.", "assistant", "speculation"),
        # near turns that keep their save
        (
            "I told you yesterday I'm off from 12 to 20 August, so no meetings then.",
            "user",
            "durable_fact",
        ),
        ("We'll decide the menu by Friday and I'll send it to the caterer.", "user", "commitment"),
        (
            "I've switched you to the annual plan, which makes a £40 difference a year.",
            "assistant",
            "decision_with_why",
        ),
    ],
)
def test_pointers_back_sympathy_and_deferred_choices(text: str, role: str, reason: str) -> None:
    assert judge_turn(text, role).reason == reason


def test_either_way_hedges_an_open_outcome_not_a_settled_plan() -> None:
    from memory_pipelines.core.hedges import is_hedged

    assert is_hedged("Could go either way on the job offer, honestly.", "user")
    assert is_hedged("The vote could swing either way.", "user")
    # "either way": whatever happens, so the plan stands
    assert not is_hedged("I'm presenting a poster on soil microbes either way.", "user")
