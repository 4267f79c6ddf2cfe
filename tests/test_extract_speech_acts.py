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


def test_a_hello_told_as_what_the_message_is_for_is_no_memory() -> None:
    """A new user's probe: "just saying hi lol" after "How can I help?" was kept as "User is
    just saying hi lol"."""
    said_to_assistant = durable_parts("just dropping by to say hello haha", "user", [], "Agent")
    assert said_to_assistant == []
    assert durable_parts("I'm just checking in, nothing urgent!", "user", [], "Agent") == []
    # what somebody said to someone else is told, not a hello of this chat
    told = durable_parts("I was saying hello to my new neighbour Bea at the bus stop", "user")
    assert told != []


def test_a_cheer_at_what_was_asked_about_is_no_answer_to_keep() -> None:
    """A new user's probe: "did you see the match last night??" / "mate what a goal in the
    89th" was kept with its question as what Jake said."""
    from memory_pipelines.core.across_turns import answer_asked

    assert not answer_asked("omg what an ending to that series", "Did you finish it?", "user")
    assert not answer_asked("honestly what a night", "How was the wedding?", "user")
    # a question of "what a ..." form, or an answer that names its thing, is no cheer
    assert answer_asked("a 1960s Bush radio with a dead valve", "What's on the bench?", "user")
    # how a night out ended is small talk: "did you get home ok after the gig?"
    said = "barely, the night bus was rammed"
    assert not answer_asked(said, "did u get home ok after the match?", "user")
    assert not answer_asked("yes, the band was unreal", "Did you have fun at the gig?", "user")
    assert answer_asked("not yet, just the savings", "Did you move your current account?", "user")


def test_an_answer_to_a_question_naming_nothing_is_not_kept_with_it() -> None:
    """ "u?" and "and you?" ask back what was asked before, "u in?" only whether: the answer
    said to them ("same, way too much telly") names nothing the question gives it."""
    from memory_pipelines.core.across_turns import answer_asked

    for question in ("u?", "and you?", "wbu?", "u in?", "what about u?"):
        assert not answer_asked("same lol, way too much telly", question, "user"), question
    assert not answer_asked("Tomasz: tempting", "Tomasz, u in?", "user", ("Tomasz", "Ana"))
    assert answer_asked("10 min drive", "is it close to u?", "user")
    assert answer_asked("oat milk", "anything for Oskar's visit?", "user")


def test_quick_one_before_a_dash_is_a_heading_and_alone_a_question_to_come() -> None:
    from memory_pipelines.core.sentence_kinds import sentence_kind

    assert sentence_kind("quick one - my landlord doubled the deposit", "user") != "meta"
    assert sentence_kind("Quick question: my landlord doubled the deposit", "user") != "meta"
    assert sentence_kind("quick one for you", "user") == "meta"
    assert sentence_kind("hey, a quick one if you have a sec", "user") == "meta"


def test_a_task_for_a_named_stretch_of_time_is_no_hedge() -> None:
    """A new user's probe: "I need to renew my passport at some point this summer" was read as
    a hedge and dropped; "at some point" alone leaves the time open, "at some point this
    summer" names it."""
    from memory_pipelines.core import sentence_kinds

    assert (
        sentence_kinds.sentence_kind(
            "I must get the boiler serviced at some point next month", "user"
        )
        != "hedge"
    )
    assert durable_parts("I have to book the MOT at some point before March", "user") != []
    assert (
        sentence_kinds.sentence_kind("I'd like to learn the cello at some point", "user") == "hedge"
    )


def test_laughter_and_emoji_closing_a_message_are_not_kept_in_its_memory() -> None:
    """A new user's probe: "User hates cilantro it tastes like soap haha", "... all over the desk
    🙃": how it was said stayed in what is remembered."""
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import WindowTurn, extract_window

    said = datetime(2025, 3, 3, 9, tzinfo=UTC)
    window = [WindowTurn(1, "user", "Noor", "I'm allergic to kiwi, found out the hard way lol 😅",
                         said)]  # fmt: skip
    (item,) = extract_window(window, pronoun_of=lambda _: "she")
    assert item["context"] == "Noor is allergic to kiwi, found out the hard way", item
    # laughter inside the sentence, or a name that starts like it, stays
    from memory_pipelines.core.plain_words import without_laughter

    assert without_laughter("The haha moment of the night was Tom's speech") == (
        "The haha moment of the night was Tom's speech"
    )
    assert without_laughter("Noor named the puppy Lolo") == "Noor named the puppy Lolo"


def test_the_message_itself_and_asking_after_a_thing_are_no_memory() -> None:
    """ "Keziah's CV's pasted below" tells of the message, whose content is elsewhere; "just
    checking on the lease addendum" asks after a thing said before (a chat set written apart
    from the code kept both)."""
    assert _kept("My cover letter's pasted below, sorry it's long.") == []
    assert _kept("Attached is the quote from the roofer.") == []
    assert (
        _kept("Hi Ola, just checking on the deposit for the van, the hire firm keeps ringing me")
        == []
    )
    assert _kept("Just following up on my email about the refund.") == []
    # late for this chat or meeting, and why, is the moment's
    assert _kept("morning Ana, sorry I'm late, the bus sat at the lights for ages") == []
    assert _kept("I'm late on my rent again this month.") != []
    # thanks said as a debt owes nothing; a sum owed is owed
    assert _kept("AMIR. I owe you forever") == []
    assert _kept("owe u one!") == []
    assert _kept("I owe you 40 quid for the tickets") != []
    # where a thing lies, or a person checked on, is told
    from memory_pipelines.core.sentence_kinds import sentence_kind

    assert sentence_kind("The spare keys are above the fridge now.", "user") != "meta"
    assert _kept("I'm checking on my mum every day since her fall.") != []


def test_a_question_by_its_word_order_after_the_listeners_name_is_no_memory() -> None:
    """ "maria are the wedding pics ever gonna see daylight" (the name first, no question mark)
    had been kept as a promise."""
    assert _kept("maria are the photos from the wedding ever gonna see daylight lol") == []
    assert _kept("maria can we go back to the budget") == []
    # a statement after the name is kept as before
    assert _kept("maria I'm moving to Leeds in May") != []


def test_a_way_of_working_asked_of_the_assistant_for_good_is_a_preference() -> None:
    """ "can u keep answers short from now on?" asks for good, not for this answer: the
    person's preference, kept as theirs. A request for this answer alone stays none."""
    kept = durable_parts("can u keep answers short from now on? i read on my phone", "user", [])
    assert ("I'd like the assistant to keep answers short from now on.", "preference") in kept
    assert durable_parts("can you always use metric?", "user", []) == [
        ("I'd like the assistant to always use metric.", "preference")
    ]
    assert durable_parts("can you make it shorter?", "user", []) == []
    # between people it is asked of the other, no preference of the asker's
    assert durable_parts("can u always text before calling?", "user", [], "Mo", True) == []
