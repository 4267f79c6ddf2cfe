"""The save policy's reading of small talk (policy29): a reaction that only judges what was just
said or shown ("That sounds like a lovely trip!"), a one-off happening of the last hours, talk about
the chat's own channel and work; while a reaction followed by a fact, a recent lasting change, or a
happening beside a lasting clause still saves. Every turn is written for this file, with turns on
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
        # somebody the judgement is about
        ("It's really hard for him to sleep without the fan on.", "durable_fact"),
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


def test_a_memory_item_that_judges_for_somebody_is_kept() -> None:
    from memory_pipelines.core.policy import skip_reason_for_item

    assert skip_reason_for_item("It is really hard for her to sleep without the fan on.") is None
    assert skip_reason_for_item("That sounds like a lovely trip!") == "meta_chatter"


@pytest.mark.parametrize(
    ("text", "role", "save"),
    [
        ("Ahh right, that clears it up.", "user", False),
        ("Ok, that helps.", "user", False),
        ("Oh never mind, found it.", "user", False),
        ("My nephew just bit the cat, chaos here.", "user", False),
        ("Generally it helps to soak the beans overnight.", "assistant", False),
        # near turns that keep their save
        ("Never mind the blue one, we bought the green sofa because it's washable.", "user", True),
        ("I never mind early starts, book me the 6am train.", "user", True),
        (
            "That helped: the router reset fixed the drops, so we're keeping the old modem.",
            "user",
            True,
        ),
        (
            "It helps that my office is next to the station, so I take the train daily.",
            "user",
            True,
        ),
    ],
)
def test_answers_taken_in_never_mind_and_more_episodes(text: str, role: str, save: bool) -> None:
    assert judge_turn(text, role).save is save
