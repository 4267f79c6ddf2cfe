"""Between people, a first-person sentence that tells no fact about the speaker is no memory: a
spectator's anticipation, a resolution said to oneself, a confident guess about how things will
turn out (core/chat_asides.py)."""

from memory_pipelines.core.chat_asides import aside
from memory_pipelines.core.extract import durable_parts


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Gina", to_person=True)]


def test_waiting_to_see_what_the_other_shows_is_no_memory() -> None:
    assert _kept("No prob! Always here to help. Can't wait to see the vid!") == []
    assert _kept("Wow, they look great! Can't wait to see them rock the festival.") == []
    assert aside("I can't wait to see what we can do together!") == "spectator"
    # the speaker's own plan stays
    assert aside("I can't wait to open the studio in May!") is None
    assert _kept("I can't wait to open my dance studio in May!") != []


def test_a_resolution_said_to_oneself_is_no_memory() -> None:
    assert _kept("Appreciate your advice. Gotta stay resilient and focused, that's key!") == []
    assert aside("I have to focus on success and why I started.") == "resolution"
    # a task with its thing, or with its time, is kept
    assert aside("I have to renew my passport by June.") is None
    assert aside("I need to stay at my mum's next week.") is None
    assert _kept("I have to move out of my flat in Leeds by March.") != []


def test_a_pledge_of_effort_alone_is_no_memory() -> None:
    assert _kept("Sure, Maria! I'll do my best to find some resources.") == []
    assert aside("I'll do my best to finish the quilt by Friday.") is None


def test_a_feeling_that_names_nothing_of_the_speakers_is_no_memory() -> None:
    assert _kept("Thanks! I'm so glad everyone could make it.") == []
    assert aside("I'm truly grateful for all the support I've got.") == "feeling"
    # the speaker's own thing, a number or a name: a fact told as a feeling
    assert aside("I'm lucky to have my husband and kids.") is None
    assert aside("I'm so proud I ran the Boston marathon.") is None
    assert _kept("I'm lucky to have my husband and kids.") != []


def test_a_confident_guess_about_an_outcome_is_no_memory() -> None:
    assert _kept("Wow, what a touching moment. I'm sure it made a big impact.") == []
    assert aside("I'm sure it'll pay off.") == "guess"
    # after a fact in the same sentence, the fact is kept
    assert _kept("I got a temp job to cover expenses, but I'm sure it'll be worth it.") != []
    assert aside("I'm sure about my answer.") is None


def test_said_to_the_assistant_the_same_sentences_are_judged_as_before() -> None:
    assert durable_parts("I have to stay off dairy for a month.", "user") != []


def test_a_wish_for_the_listener_is_no_memory() -> None:
    assert _kept("Oh no, I hope he recovers quickly.") == []
    assert aside("I really hope you have a great time in Lisbon!") == "wish"
    # the speaker's own hope is theirs, and so is their own thing in a wish
    assert aside("I hope my visa comes through by May.") is None
    assert aside("I hope it doesn't rain at my wedding in Seville on Saturday.") is None
