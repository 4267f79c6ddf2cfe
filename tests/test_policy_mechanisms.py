"""Unit tests of the save policy's sentence-level mechanisms (hedges, talk about the
conversation, moods), each on hand-written turns (none taken from a case set), with turns on
both sides of each rule."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memory_pipelines.core import hedges, sentence_kinds
from memory_pipelines.core.policy import judge_turn
from memory_pipelines.core.repeats import Similarity


def _reason(text: str, role: str = "user", recent: Sequence[str] = ()) -> str:
    return judge_turn(text, role, recent).reason


@pytest.mark.parametrize(
    "text",
    [
        "The mechanic reckons the clutch will need doing next year.",
        "My accountant believes we can claim the van.",
        "The landlord wasn't sure the lease can be extended.",
        "I'm not entirely certain the lease ends in August.",
        "The roof may need new tiles before winter.",
        "the roof may need new tiles before winter",
        "The promotion is up in the air at the moment.",
        "Honestly the house sale is a toss-up.",
        "The Lisbon job looks fifty-fifty right now.",
    ],
)
def test_hedges_whoever_holds_the_belief(text: str) -> None:
    assert hedges.is_hedged(text, "user")
    assert _reason(text) == "speculation"


@pytest.mark.parametrize(
    "text",
    [
        "We're moving to Cardiff in May, the lease is signed.",
        "This May we open the second shop.",
        "in may we open the second shop, the lease is signed",
        "Early May works for us, the ferry is booked.",
        "Aunt May lives with us now.",
        "We split the rent 50/50 with our flatmate.",
        "I'm sure the lease ends in August.",
        "My brother believes in cold showers every morning.",
    ],
)
def test_months_names_splits_and_certainty_are_no_hedge(text: str) -> None:
    assert not hedges.is_hedged(text, "user")
    assert judge_turn(text).save


def test_only_ones_own_bare_belief_is_the_weak_hedge() -> None:
    # "I think" hedges its own sentence only (a concrete fact beside it still saves); another
    # person's belief or a modal beside it is a full hedge
    assert hedges.is_belief_only("I think the boiler is about ten years old.")
    assert not hedges.is_belief_only("I think the roof may leak.")
    assert not hedges.is_belief_only("The plumber thinks the boiler is ten years old.")
    two = "I think the boiler is ten years old. The installer fitted it in 2014."
    assert judge_turn(two).save
    two = "The plumber reckons the boiler is ten years old. It was fitted in 2014."
    assert _reason(two) == "speculation"


@pytest.mark.parametrize(
    "text",
    [
        "That isn't what I meant at all.",
        "that's not what I asked lol",
        "no, you misread my question, I wanted the cheaper option",
        "I was asking about the second invoice, not the first one",
        "I meant the red jacket",
        "Let me go through your list properly first.",
        "wait, let me scroll back up to your table",
    ],
)
def test_talk_that_points_at_the_conversation_is_meta(text: str) -> None:
    assert not judge_turn(text, "user", ["assistant: Here are three options."]).save


@pytest.mark.parametrize(
    "text",
    [
        "I'm talking to a lawyer about the divorce.",
        "I was asking my boss for a raise all week.",
        "I meant that we're moving in June, not July.",
        "I mean, we've been married ten years, so it's serious.",
        "Let me introduce myself: I'm Sam, a night nurse in Leeds.",
        "Let me handle the supplier calls from now on, I know them.",
        "This sofa is exactly what I wanted for the flat.",
    ],
)
def test_a_frame_with_a_statement_or_a_standing_scope_is_content(text: str) -> None:
    assert judge_turn(text).save


def test_apologies_are_social_formulae_unless_they_carry_a_fact() -> None:
    assert not judge_turn("sorry, got pulled into a call for a while").save
    assert not judge_turn("Apologies for the wait, the kids needed me.").save
    assert _reason("sorry, had to step away for a bit. I'm back") == "greeting"
    assert judge_turn("Sorry, my flight got cancelled so I'm late.").save
    assert judge_turn("My bad, the budget is 4,000, not 40,000.").save
    assert judge_turn("Sorry, I should have said earlier: I'm vegetarian.").save


def test_a_label_before_a_colon_lets_what_follows_decide() -> None:
    # the event after the label is a fact, so the greeting no longer hides it
    assert judge_turn("Hiya! Quick update: we got the keys to the new flat yesterday.").save
    assert sentence_kinds.sentence_kind("Good news: we got the keys yesterday.", "user") == "fact"
    # a label over chatter is no fact
    assert not judge_turn("Hiya! Quick update: nothing much.").save


def test_a_plain_sentence_that_only_tells_a_mood_is_no_fact() -> None:
    assert not judge_turn("that's a lot to take in, honestly").save
    assert not judge_turn("Honestly it's been a wild ride, really.").save
    assert judge_turn("The landlord has changed, it's Ashgrove Lettings now.").save
    assert judge_turn("Keep the meal plans vegetarian, we don't cook meat at home.").save
    # how the body feels this moment is a mood too ("so hot, I'm melting"), not how it is
    from memory_pipelines.core.moods import is_mood

    assert is_mood("ugh it's so hot today, I'm melting")
    assert is_mood("lol we're doomed")
    assert not is_mood("I'm allergic to cats")


def test_a_request_about_a_placed_part_of_the_last_output_is_meta() -> None:
    assert _reason("nah, ignore that last bit") == "meta_chatter"
    assert _reason("redo this second part, shorter") == "meta_chatter"
    assert judge_turn("Ignore that last bit, the budget is 5,000 now.").save


@pytest.mark.parametrize(
    "text",
    [
        "hmm ok, give me a minute to read all that",  # several lead words
        "can we go back to the budget question from earlier",  # a question, no question mark
        "what's the rate on the 25-year one",
        "wait what? I never said that",  # a speech act pointing at what was said
        "skip the intro this time, straight to the numbers",  # an instruction for this once
        "that answer was way too long",  # the last output as the subject
        "interesting, never thought of it that way",  # "never" narrating, no rule
    ],
)
def test_more_talk_about_the_conversation(text: str) -> None:
    assert _reason(text) == "meta_chatter"


@pytest.mark.parametrize(
    "text",
    [
        "we're kind of leaning towards the bigger flat but who knows",
        "if the bonus comes through I'd love to go to Japan",
        "apparently the bridge could close for repairs next year",
    ],
)
def test_leanings_conditional_wishes_and_hearsay_hedge(text: str) -> None:
    assert _reason(text) == "speculation"


@pytest.mark.parametrize(
    "text",
    [
        "I hate phone calls, email me instead whenever possible",  # no hedge in "whenever possible"
        "skip the intro in every report you write for me",  # an instruction with a scope
        "Never scheduling a release on a Friday again, we lost the weekend.",
        "I never eat after 8pm.",  # "never" and a present habit: a preference
        "She could already read at four, so the school moved her up a year.",  # past ability
        "If you suggest restaurants, I'd like vegetarian ones.",  # a condition on the assistant
        "Is it ok if I call you Sam? No: my name is Samira, and I go by Sam.",
    ],
)
def test_past_narration_standing_instructions_and_ability_still_save(text: str) -> None:
    assert judge_turn(text).save


def test_a_state_said_of_now_only_is_no_lasting_fact() -> None:
    assert not judge_turn("I'm so tired today lol").save
    assert not judge_turn("Just a moment while I look that up.", "assistant").save
    assert judge_turn("I'm a night-shift nurse, so mornings are when I sleep.").save
    assert judge_turn("I'm in Lisbon until the 14th for work.").save


def test_announcing_a_list_and_telling_the_assistant_to_take_its_time_are_meta() -> None:
    assert not judge_turn("Here are three options for the venue:", "assistant").save
    assert not judge_turn("no worries, take your time").save
    assert judge_turn("Here are our opening hours: 9 to 5, Monday to Friday.").save


@pytest.mark.parametrize(
    "text",
    [
        "The lease says the rent may only go up once a year, max 3%.",  # a rule, not a maybe
        "The clinic could only give me an appointment on the 9th, so that's booked.",  # a limit
        "I meant to tell you, we adopted a greyhound called Pip.",  # an intention, no pointing
        "My daughter May starts university in Leeds this autumn.",
        "Sorry, forgot to say: I'm diabetic, type 1.",
    ],
)
def test_the_new_rules_leave_these_saves_alone(text: str) -> None:
    assert judge_turn(text).save


def test_a_fact_beside_talk_about_the_chat_is_kept() -> None:
    # a referent that carries a fact, a statement after the colon of a meta phrase
    assert judge_turn("I'm talking about the Leeds flat, which we bought in 2021.").save
    after = "That's not what I asked, but while we're here: my landlord is Mr Osei."
    assert judge_turn(after).save
    assert _reason("That's not what I asked: the other one") == "meta_chatter"
    # a head that presents what follows stays meta
    draft = "Here's the revised draft: our team is proud to announce the new office."
    assert not judge_turn(draft, "assistant").save
    # "who knows why" is no hedge
    assert judge_turn("Who knows why, but the printer only works on the second floor.").save


@pytest.mark.parametrize(
    ("text", "role", "reason"),
    [
        # Something presented as said before is the history's, not a new memory.
        ("Here's the packing list again, as agreed: passports, chargers, sun cream.", "user",
         "already_in_history"),
        ("To remind you what I said on Tuesday: the boiler service is on the 9th.", "user",
         "already_in_history"),
        ("Call notes: 1) blue tiles chosen, 2) builder starts Monday.", "assistant",
         "already_in_history"),
        # Steering this conversation tells nothing ...
        ("scrap that, let's start over", "user", "meta_chatter"),
        ("ignore my last msg, wrong window", "user", "meta_chatter"),
        ("Let's pause this and pick it up tomorrow.", "user", "meta_chatter"),
        ("you've made my day, thanks", "user", "meta_chatter"),
        # ... but a clause after it keeps its own kind.
        ("Ignore my last message, my new address is 4 Mill Lane, Bude.", "user", "durable_fact"),
        # The day's news is no fact to keep; a clause not so dated keeps the turn.
        ("ugh, the bus was late again this morning", "user", "meta_chatter"),
        ("The fixed rate is dearer today but I need to know what I'm paying every month.",
         "user", "durable_fact"),
        # A possibility weighed and doubted, an attempt with no pledge.
        ("I suppose I could switch banks, though I doubt it's worth the hassle.", "user",
         "speculation"),
        ("I'll try to finish the quilt this weekend, no promises.", "user", "speculation"),
    ],
)  # fmt: skip
def test_talk_about_this_chat_and_the_days_news(text: str, role: str, reason: str) -> None:
    assert _reason(text, role) == reason


@pytest.fixture(scope="module")
def similarity() -> Similarity:
    """The cosines the service passes the policy: the real embedder's."""
    from memory_pipelines.models.embedder import get_embedder

    embedder = get_embedder()

    def cosines(text: str, others: Sequence[str]) -> list[float]:
        vecs = embedder.embed([text, *others])
        return [float(v @ vecs[0]) for v in vecs[1:]]

    return cosines


def test_a_promise_acknowledged_again_is_a_restatement(similarity: Similarity) -> None:
    recent = ["user: I promise I'll return the drill by Sunday."]
    said_again = judge_turn("yep, Sunday, promise", "user", recent, similarity=similarity)
    assert said_again.reason == "restatement"
    new_promise = judge_turn("yep, and I'll bring the ladder back by Sunday too", "user", recent,
                             similarity=similarity)  # fmt: skip
    assert new_promise.save


def test_an_answer_to_a_question_restates_nothing(similarity: Similarity) -> None:
    """Only what was stated can be said again: an answer near the question it answers is news."""
    answer = "Both flats are on the ground floor, so stairs aren't something we need to plan for."
    asked = ["assistant: Should I plan for stairs when we move the piano between the flats?"]
    assert judge_turn(answer, "user", asked, similarity=similarity).save
    stated = ["user: Both flats are on the ground floor, so we won't need to plan for stairs."]
    assert judge_turn(answer, "user", stated, similarity=similarity).reason == "restatement"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The user asked me to redo the table with totals.", "meta_chatter"),
        ("Sam asked me to always copy her in on invoices.", "stable_preference"),
    ],
)
def test_a_reported_request_is_a_task_unless_it_stands(text: str, reason: str) -> None:
    assert _reason(text, "assistant") == reason
