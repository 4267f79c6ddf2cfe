"""Between people, sentences about the conversation itself are no memory: what is shown in the
chat, leaving it, the next turns promised, condolences and thanks (core/speech_acts.py)."""

from memory_pipelines.core.extract import durable_parts


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Maria", to_person=True)]


def test_a_picture_presented_in_the_chat_is_no_memory() -> None:
    assert _kept("We got another cat named Bailey too. Here's a pic of Oliver.") == [
        "We got another cat named Bailey too."
    ]
    assert _kept("Yeah, here's one I did last week.") == []
    assert _kept("Look at that - we all donated for it, and it looks awesome!") == []
    # a head that announces a statement is not a picture
    assert _kept("Here's the thing: I moved to Denver last month.") != []
    # said to an assistant, what follows "Here is" may be the fact itself
    assert durable_parts("Here is my new address: 12 Elm Street, Leeds.", "user") != []


def test_leaving_and_the_conversations_next_turns_are_no_memory() -> None:
    assert _kept("Well, I'm off to go do some research.") == []
    assert _kept("Thanks! I'm off to spend some time with them now. Have a good day!") == []
    assert _kept("I'm off to Paris next week for a conference.") != []
    assert _kept("Yeah, sure thing. I'll let you know. I got promoted at work!") == [
        "I got promoted at work!"
    ]
    assert _kept("If there's anything else I can do, just let me know.") == []
    assert _kept("Thanks, Maria. If I need anything, I'll be sure to reach out.") == []
    assert _kept("I'm keen to hear about it.") == []


def test_condolences_and_thanks_are_no_memory() -> None:
    assert _kept("Thanks, Jon! Appreciate the kind words.") == []
    assert _kept("I'm sorry about Max. Some friends from church and I went camping.") == [
        "Some friends from church and I went camping."
    ]
