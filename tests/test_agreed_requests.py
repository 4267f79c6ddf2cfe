"""A request answered by another person: the pledge that answers it is due when the request
said, and a request agreed to in a word ("sure, will do") is a promise of what was asked
(core/agreed.py, core/extract.py). Written by hand from ordinary chat, not from any
evaluation case."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_pipelines.core.agreed import agreed_pledge
from memory_pipelines.core.extract import WindowTurn, extract_window

SAID = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)  # a Wednesday


def _commitments(*said: tuple[str, str]) -> list[tuple[str, str | None, str | None]]:
    turns = [
        WindowTurn(n, "assistant" if who == "Assistant" else "user", who, text, SAID)
        for n, (who, text) in enumerate(said, start=1)
    ]
    return [
        (c["context"], c.get("owed_to"), c["due_at"][:16] if c.get("due_at") else None)
        for c in extract_window(turns)
        if c["category"] == "commitment"
    ]


def test_a_request_agreed_to_in_a_word_is_a_promise_of_what_was_asked() -> None:
    [(what, whom, due)] = _commitments(
        ("Maya", "can you send me the slides by thursday?"), ("Tom", "sure, will do")
    )
    assert "Tom" in what and "slides" in what and "Maya" in what
    assert (whom, due) == ("Maya", "2026-03-12T23:59")
    [(what, whom, _)] = _commitments(
        ("Maya", "Tom, could you please book our table for Saturday?"), ("Tom", "on it!")
    )
    assert "table" in what and whom == "Maya"


def test_a_pledge_answering_a_request_is_due_when_the_request_said() -> None:
    [(_, whom, due)] = _commitments(
        ("Maya", "could you pick up the cake before 5pm tomorrow?"),
        ("Tom", "yep I'll grab it on my way"),
    )
    assert (whom, due) == ("Maya", "2026-03-12T17:00")
    # the pledge's own time stands
    [(_, _, due)] = _commitments(
        ("Maya", "can you send me the slides by thursday?"), ("Tom", "sure, I'll send them monday")
    )
    assert due == "2026-03-16T23:59"


@pytest.mark.parametrize(
    ("reply", "asked_for"),
    [
        ("yes", "can you believe it rained again?"),  # no act asked
        ("sure", "can you tell mum I'll be late?"),  # the asker's own act: not said back
        ("sure, but I need the budget from you first", "can you send me the slides?"),
        ("sorry, can't this week", "can you send me the slides?"),
        ("will do", "The slides are due thursday."),  # nothing asked
    ],
)
def test_no_pledge_where_no_act_was_agreed_to(reply: str, asked_for: str) -> None:
    asked = [asked_for] if "?" in asked_for else []
    assert agreed_pledge(reply, asked) is None


def test_the_askers_words_are_turned_to_the_one_who_agreed() -> None:
    assert agreed_pledge("ok!", ["please return my drill by the weekend"]) == (
        "I'll return your drill by the weekend"
    )
    assert agreed_pledge("you got it", ["Could you pick us up at 6?"]) == "I'll pick you up at 6"


def test_a_request_inside_a_sentence_and_messages_after_it_still_ask() -> None:
    """A pledge answering "..., could you look after Pixel that weekend?", with another message
    of the asker's between ("sure, I'll take Pixel that weekend"), was a plan of his own."""
    [(what, whom, _)] = _commitments(
        ("Zoe", "my sister's wedding is in July, could you look after Pixel that weekend?"),
        ("Zoe", "she's fine alone for a day but not three"),
        ("Ben", "haha sure, I'll take Pixel that weekend"),
    )
    assert "Pixel" in what and whom == "Zoe"


def test_a_reminder_the_assistant_agrees_to_is_its_promise() -> None:
    """Asked of the assistant, a reminder is an act it does later; anything else it agrees to
    ("can you make it shorter?" / "Sure!") it does in the chat itself: no promise."""
    [(what, whom, due)] = _commitments(
        ("User", "can you remind me to call the vet tomorrow at 9am?"),
        ("Assistant", "Sure, will do!"),
    )
    assert what.startswith("Assistant will remind User to call the vet") and whom == "User"
    assert due == "2026-03-12T09:00"
    assert _commitments(("User", "can you make it shorter?"), ("Assistant", "Sure!")) == []


def test_agreeing_and_saying_when_is_the_promise_by_then() -> None:
    """A new user's probe: "Raj could you email the supplier?" / "will do, first thing
    tomorrow" was kept as Raj's answer, a fact; it is his promise to Sue, not to the supplier."""
    [(what, whom, due)] = _commitments(
        ("Sue", "Raj could you email the supplier?"),
        ("Raj", "will do, first thing tomorrow"),
        ("Sue", "ta"),
    )
    assert "email the supplier" in what and (whom, due) == ("Sue", "2026-03-12T09:00")
    assert agreed_pledge("sure, the weather is nice today", ["can you send me the report?"]) is None


def test_the_askers_next_message_may_say_when() -> None:
    """A new user's probe: "Tom can you sort out the venue deposit?" / "sure, will do" / "it
    needs to be paid by Friday week" had no due time. A date of something else said next (a
    flight) is none."""
    [(_, whom, due)] = _commitments(
        ("Priya", "Tom can you sort out the venue deposit for the offsite?"),
        ("Tom", "sure, will do"),
        ("Priya", "it needs to be paid by Friday week, they were strict about that"),
    )
    assert (whom, due) == ("Priya", "2026-03-20T23:59")
    [(_, _, due)] = _commitments(
        ("Priya", "can you send me the report?"),
        ("Tom", "sure, will do"),
        ("Priya", "thanks! my flight is on Friday btw"),
    )
    assert due is None


def test_an_act_offered_for_a_need_and_thanked_for_is_owed_to_the_thanker() -> None:
    """No request, but the other person's need told, the offer, and their thanks for it: the
    act is theirs, due when the offer says."""
    [(what, whom, due)] = _commitments(
        (
            "Greta",
            "garage just called, clutch is done but i'm stuck at work til 7 and they close at 6",
        ),
        ("Amadou", "i'll pick the car up tmrw after 5 then, i finish early on tuesdays"),
        ("Greta", "u r a star. already paid them over the phone btw"),
    )
    assert "car" in what and (whom, due) == ("Greta", "2026-03-12T23:59")
    taken_up = _commitments(
        ("Wren", "my basil died again, no idea why"),
        ("Tobias", "i'll bring u a pot of mine when i come round saturday"),
        ("Wren", "omg yes please"),
    )
    assert [w for _, w, _ in taken_up] == ["Wren"]


@pytest.mark.parametrize(
    "answer",
    ["go you!! couch to 5k is great", "haha good luck with that", "nice, which park?"],
)
def test_a_plan_of_ones_own_praised_or_asked_about_stays_owed_to_nobody(answer: str) -> None:
    assert (
        _commitments(
            ("Fritjof", "new year new me lol"),
            ("Fritjof", "i'll start running again after work, couch to 5k"),
            ("Noor", answer),
        )
        == []
    )


@pytest.mark.parametrize(
    ("said", "thanks"),
    [
        # thanks for the kind words, not for a plan said beside them
        ("it's been tough but i'm gonna make it happen. you're great with the shop btw", "thanks!"),
        # the thanks may answer the question asked beside the offer
        ("hang in there! i'll keep at my novel too. how's the new oven?", "thanks! it's a dream"),
    ],
)
def test_thanks_for_something_else_makes_no_promise(said: str, thanks: str) -> None:
    assert (
        _commitments(("Ines", "rough month at the bakery"), ("Ola", said), ("Ines", thanks)) == []
    )
