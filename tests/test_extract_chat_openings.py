"""How a chat turn opens, as people type them: a value given first and the turn going on, a
"yeah" with the thing asked for, a hello run into the news, a request tacked on to a fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_pipelines.core.across_turns import answer_asked, gives_value
from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.sentence_clauses import without_ask_of_listener
from memory_pipelines.core.sentence_kinds import sentence_kind
from memory_pipelines.core.window_turn import WindowTurn
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from tests.extract_helpers import window_items


def test_a_value_answered_first_is_kept_when_the_turn_goes_on() -> None:
    items = window_items(
        ("Callum", "user", "my cat pickle got diagnosed w kidney disease today :("),
        ("Assistant", "assistant", "I'm so sorry. How old is Pickle?"),
        ("Callum", "user", "12. the vet put her on a renal diet, and benazepril 2.5mg once a day"),
    )
    texts = [text for _, text in items]
    assert 'Asked "How old is Pickle?", Callum said: "12."' in texts
    assert any("renal diet" in text for text in texts)


def test_an_opinion_answered_first_is_not_kept_beside_what_follows() -> None:
    items = window_items(
        ("Dana", "user", "we did the team photos at the harbour on Friday"),
        ("Assistant", "assistant", "How did the team photos turn out?"),
        ("Dana", "user", "Really well. Ines is framing the best one for reception"),
    )
    assert not any(text.startswith("Asked") for _, text in items)
    assert any("framing" in text for _, text in items)


@pytest.mark.parametrize(
    ("question", "answer", "gives"),
    [
        ("When do you move?", "1st march.", True),
        ("What do you usually enjoy?", "spicy stuff, thai, korean.", True),
        ("Does she have any allergies the school should know about?", "yeah peanuts.", True),
        ("how was the concert??", "unreal, they played the whole second album.", False),
        ("where are we on the vendor report?", "almost there, the numbers came in late.", False),
        ("What's your target?", "we reckon we can hit it by spring", False),
    ],
)
def test_a_value_is_a_note_answering_what_was_asked(
    question: str, answer: str, gives: bool
) -> None:
    assert gives_value(question, answer) is gives


def test_a_yes_with_the_thing_asked_for_is_an_answer_and_a_bare_yes_is_not() -> None:
    asked = "Does she have any allergies or needs the school should know about?"
    assert answer_asked("yeah peanuts, pretty bad one.", asked, "user", ("Omar", "Agent"))
    assert not answer_asked("yeah it was so much fun!", asked, "user", ("Omar", "Agent"))
    assert not answer_asked("yes pls", "Want the steps?", "user", ("Omar", "Agent"))


def test_a_hello_run_into_news_is_the_news() -> None:
    assert sentence_kind(
        "hey so i finally started the new job lol, data analyst at kestrel", "user"
    )
    assert sentence_kind("hey so i finally started the new job at kestrel", "user") == "fact"
    assert sentence_kind("hey, how are you?", "user") == "greeting"
    items = window_items(
        ("Nadia", "user", "hey so i finally started the new job lol, data analyst at kestrel"),
        ("Assistant", "assistant", "Congrats! How's the first week going?"),
        ("Nadia", "user", "tiring but good"),
    )
    # (and "how's the first week going?" asks after the listener: "tiring but good" is chatter)
    assert [text for _, text in items] == [
        "Nadia finally started the new job, data analyst at kestrel"
    ]


def test_a_request_for_help_tacked_on_leaves_the_fact() -> None:
    said = "my daughter leila starts reception at hillcrest on sept 4th, can u help me make a list"
    assert (
        without_ask_of_listener(said.replace(" u ", " you "))  # read so: plain_words
        == "my daughter leila starts reception at hillcrest on sept 4th."
    )
    items = window_items(
        ("Omar", "user", said),
        ("Assistant", "assistant", "Of course! Does she have any allergies?"),
        ("Omar", "user", "yeah peanuts, pretty bad one. she carries an epipen"),
    )
    texts = [text for _, text in items]
    assert any("starts reception at hillcrest on sept 4th" in text for text in texts)
    assert any("peanuts" in text for text in texts)


def test_a_thing_of_ones_own_told_without_its_owner_is_kept() -> None:
    items = window_items(
        ("Sophie", "user", "me and my husband rhys agreed a £400/month grocery budget"),
        ("Assistant", "assistant", "Sounds sensible. Anything else to track?"),
        ("Sophie", "user", "car insurance renews 12th of next month w admiral, £640"),
    )
    assert any("Car insurance renews 12th of next month" in text for _, text in items)


@pytest.mark.parametrize(
    "said",
    [
        "any rainy day ideas for two kids under 6",
        "ugh this traffic is unreal, been stuck on the ring road 40 min",
        "his knee is killing him though, what can he actually take",
    ],
)
def test_a_question_or_a_mood_told_without_an_owner_is_not_kept(said: str) -> None:
    items = window_items(("Saskia", "user", said))
    assert items == []


def test_a_subject_left_out_before_got_and_a_participle_is_the_speaker() -> None:
    items = window_items(
        ("Olga", "user", "got promoted to tech lead today!!!"),
        ("Assistant", "assistant", "Congratulations! What changes?"),
        ("Olga", "user", "i'll be leading the payments team, 5 engineers"),
    )
    assert any(text.startswith("Olga got promoted to tech lead") for _, text in items)


def test_he_is_the_relative_the_speakers_last_turns_named() -> None:
    items = window_items(
        ("Anna", "user", "my brother luca flies in from toronto friday!"),
        ("Assistant", "assistant", "Exciting! How long is he staying?"),
        ("Anna", "user", "2 weeks, with me. he's a chef so he's cooking for us every night"),
    )
    assert any("Anna's brother's a chef" in text for _, text in items)
    # ... however many turns of others came between
    items = window_items(
        ("Anna", "user", "my brother luca flies in from toronto friday!"),
        ("Assistant", "assistant", "Exciting! Are you picking him up?"),
        ("Anna", "user", "yep heathrow T2, he lands 6:45am so early start lol"),
        ("Assistant", "assistant", "How long is he staying?"),
        ("Anna", "user", "2 weeks, with me. he's a chef so he's cooking for us every night"),
    )
    assert any("Anna's brother's a chef" in text for _, text in items)


@pytest.mark.parametrize(
    "said",
    [
        "ugh feeling rubbish today, hay fever's awful",
        "he has adhd so long homework sessions are hard for him",
        "ah i dont drink, 2 yrs sober now",
    ],
)
def test_a_long_term_condition_is_a_health_fact(said: str) -> None:
    from memory_pipelines.core.health_safety import SAFETY

    assert SAFETY.search(said)
    assert not SAFETY.search("what a stroke of luck that was")


def test_a_repair_after_and_puts_right_the_earlier_amount() -> None:
    items = window_items(
        ("Eilidh", "user", "Kitchen reno budget is 25k all in."),
        ("Agent", "assistant", "That's workable. Are you keeping the existing layout?"),
        ("Eilidh", "user", "Same layout, yeah. And no, sorry, 28k, I forgot the appliances."),
    )
    assert any("budget is 28k" in text for _, text in items)


def test_a_turn_that_tells_then_asks_keeps_what_it_tells(embedder: Embedder) -> None:
    """The learned save policy read "My dad has type 1 diabetes ... what should I keep in the
    house?" whole and took it for the task it asks: the health fact was lost. A person's
    turn is read without its requests when it tells something besides; the assistant's
    explanation before its question is still no memory."""
    backend = LocalBackend(embedder)
    said = datetime(2025, 6, 2, 10, tzinfo=UTC)
    call = ModelCall("generate", "extract", "local", "rules")

    def texts(*turns: tuple[str, str, str]) -> list[str]:
        window = [WindowTurn(n, r, w, t, said) for n, (w, r, t) in enumerate(turns, 1)]
        return [str(c["context"]) for c in backend.extract(window, "", (), call)]

    kept = texts(("Aoife", "user", "My dad has had type 1 diabetes since he was a boy. He's "
                  "staying with us over Christmas; what should I keep in the house?"))  # fmt: skip
    assert any("type 1 diabetes" in t for t in kept), kept
    kept = texts(("Zara", "user", "Bo has left the company and we've hired Elif to replace "
                  "him. Can you draft an onboarding plan?"))  # fmt: skip
    assert any("Elif" in t for t in kept), kept
    assert texts(("Zara", "user", "Can you draft an onboarding plan for a new hire?")) == []
    kept = texts(
        ("Sione", "user", "what does the GP form mean by 'current medications'?"),
        ("Agent", "assistant", "Anything you take regularly, with the dose. Are you on "
         "anything at the moment?"),
    )  # fmt: skip
    assert not any("regularly" in t for t in kept), kept


def test_the_assistants_health_advice_answering_a_question_is_no_health_fact() -> None:
    """ "what should I keep in the house?" answered "Some fast-acting glucose like juice ..."
    was kept as a health fact, the assistant's advice stored as if it were somebody's."""
    items = window_items(
        ("Aoife", "user", "My dad has type 1 diabetes. He's staying over Christmas, what "
         "should I keep in the house?"),
        ("Assistant", "assistant", "Some fast-acting glucose like juice or jelly babies, and "
         "check what he likes for low-carb snacks."),
    )  # fmt: skip
    texts = [text for _, text in items]
    assert any("type 1 diabetes" in t for t in texts), texts
    assert not any("glucose" in t for t in texts), texts
    # ... nor is its suggestion, asked or not
    items = window_items(
        ("Priyanka", "user", "My GP has started me on metformin, 500mg twice a day."),
        ("Assistant", "assistant", "Metformin is a common first treatment. How is it going?"),
        ("Priyanka", "user", "Some stomach upset, but manageable."),
        ("Assistant", "assistant", "Taking it with food usually helps the side-effects. Happy "
         "to help with meal ideas whenever you like."),
    )  # fmt: skip
    assert not any("usually helps" in text for _, text in items), items
    # told without being asked, the assistant's note of a health fact is still kept
    items = window_items(
        ("Aoife", "user", "Dad's coming for Christmas."),
        ("Assistant", "assistant", "Your dad is allergic to penicillin, keep that in mind."),
    )
    assert any("penicillin" in text for _, text in items), items
