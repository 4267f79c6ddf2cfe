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


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("Went for a run along the river at lunch.", False),
        ("Grabbed a sandwich over lunch and read the news.", False),
        # a habit said in the present tense has no past verb
        ("I swim at lunch on Mondays and Thursdays, so no calls then.", True),
    ],
)
def test_lunch_is_a_recent_anchor_for_a_past_verb(text: str, save: bool) -> None:
    assert judge_turn(text).save is save


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
    ("text", "role"),
    [
        ("Phew, what a morning.", "user"),
        ("Oh, that must have been a long drive!", "assistant"),
        ("I completely understand how draining that can be.", "assistant"),
        ("Let's dig into it together.", "assistant"),
        ("Let's break this down step by step.", "assistant"),
        ("I can certainly help with that.", "assistant"),
        ("Happy to. First, a few quick questions.", "assistant"),
        ("Oops, hit send too early.", "user"),
        ("Wrong thing pasted, ignore that.", "user"),
    ],
)
def test_empathy_and_talk_about_the_chat_are_skipped(text: str, role: str) -> None:
    verdict = judge_turn(text, role)
    assert not verdict.save, verdict


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "Let's go with the Tuesday slot, since Mia has swimming on Wednesdays.",
            "decision_with_why",
        ),
        ("I have two questions about my pension: it's with Aviva and I'm 52.", "durable_fact"),
        ("Ignore that, my new address is 4 Mill Lane.", "durable_fact"),
        ("I understand the contract ends on 31 May, so I'll renew it by 15 May.", "commitment"),
    ],
)
def test_near_turns_keep_their_save(text: str, reason: str) -> None:
    assert judge_turn(text).reason == reason


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
    ("text", "role", "save"),
    [
        ("Glad to hear the move went smoothly!", "assistant", False),
        ("It's perfectly normal to feel nervous before a new job.", "assistant", False),
        ("Sorry, my battery died mid-sentence.", "user", False),
        ("Lost signal in the tunnel, where were we?", "user", False),
        # a named thing is a detail; a lost thing that is no channel is news
        ("Can't believe Jonas is moving to Canada in May.", "user", True),
        ("I lost my passport, the new one arrives on the 20th.", "user", True),
    ],
)
def test_news_taken_in_and_the_chat_channel_failing(text: str, role: str, save: bool) -> None:
    assert judge_turn(text, role).save is save


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("Bumped into my old maths teacher at the shops earlier.", False),
        # a clause that says what is or will be beside the happening is kept
        ("Dad rang earlier, he's retiring to Spain next spring.", True),
        ("My sister called earlier and she's expecting twins.", True),
    ],
)
def test_earlier_anchors_an_episode_unless_a_clause_tells_more(text: str, save: bool) -> None:
    assert judge_turn(text).save is save


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
    ("text", "role", "save"),
    [
        ("Wow, that's quite a story.", "user", False),
        ("Blimey, that's a lot of paperwork.", "user", False),
        ("Cool, didn't know that.", "user", False),
        ("I'd be glad to go through the figures with you.", "assistant", False),
        ("Hey, it's me again with the boiler saga.", "user", False),
        ("Most landlords find a six-month break clause works for both sides.", "assistant", False),
        ("Still torn over which pram to get.", "user", False),
        ("Wasted the entire afternoon on a broken printer.", "user", False),
        # near turns that keep their save
        ("That's a lot cheaper than our old supplier, so we switched to Octopus.", "user", True),
        ("I didn't know that my pension had a 3% employer match until today.", "user", True),
        ("I'd be happy to pay extra for a window seat on long flights.", "user", True),
        ("Spent the whole day moving into the new flat on Kerr Street.", "user", True),
    ],
)
def test_more_reactions_offers_and_episodes(text: str, role: str, save: bool) -> None:
    assert judge_turn(text, role).save is save


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
