"""A promise's "it" is the one thing the talk just before it was about (core/promised_thing.py):
the listener's "my" is "your" to the promiser, a third person's their own."""

from __future__ import annotations

import pytest

from memory_pipelines.core.promised_thing import the_thing_promised


def _promised(said: str, before: list[tuple[str, str]]) -> str:
    return the_thing_promised(said, before, "Noa", "Lior")


@pytest.mark.parametrize(
    ("said", "before", "meant"),
    [
        # the object of the question's verb, not the thing after a preposition
        (
            "I'll post it to you tomorrow.",
            [("Lior", "Did you ever dig out my old tent from the garage?")],
            "I'll post your old tent to you tomorrow.",
        ),
        # the answerer's own thing ("your" asked)
        (
            "I'll send it tonight.",
            [("Lior", "Have you finished your essay yet?")],
            "I'll send my essay tonight.",
        ),
        # plural with "them"
        (
            "I'll drop them round on Sunday.",
            [("Lior", "Do you still have my spare keys?")],
            "I'll drop your spare keys round on Sunday.",
        ),
        # with no object of a verb, the one thing a question puts after a preposition
        (
            "I'll return it on Friday.",
            [("Lior", "Are you done with the pressure washer?")],
            "I'll return the pressure washer on Friday.",
        ),
        # a statement, and the promiser's own sentence naming nothing in between
        (
            "I'll drop it off on Saturday.",
            [("Lior", "btw my ladder's still in your shed"), ("Noa", "oh no, sorry!!")],
            "I'll drop your ladder off on Saturday.",
        ),
        # past a sentence that only points back to it and places it ("in the loft")
        (
            "I'll bring it to yours by Friday.",
            [
                ("Lior", "did you ever find the fondue set??"),
                ("Noa", "yes, it was in the loft the whole time"),
            ],
            "I'll bring the fondue set to yours by Friday.",
        ),
        # a third person's "my" is theirs
        (
            "I'll pick it up on my way home.",
            [("Ama", "Lior, my parcel went to your address"), ("Lior", "Noa can get it")],
            "I'll pick Ama's parcel up on my way home.",
        ),
        # the promiser's own "my"
        (
            "I'll lend it to you next week.",
            [("Noa", "My sewing machine is free now.")],
            "I'll lend my sewing machine to you next week.",
        ),
    ],
)
def test_a_promised_it_is_the_thing_just_talked_about(
    said: str, before: list[tuple[str, str]], meant: str
) -> None:
    assert _promised(said, before) == meant


@pytest.mark.parametrize(
    ("said", "before"),
    [
        ("I'll bring it Friday.", [("Lior", "Can you bring the charger and the cable?")]),
        ("I'll fix it later.", [("Lior", "Did you look at the leak in the loft?")]),
        ("I'll bring it Friday.", [("Lior", "Have you got my headphones?")]),  # plural
        ("I'll bring them Friday.", [("Lior", "Have you got my jacket?")]),  # one thing
        ("I'll call him tonight.", [("Lior", "Did you find my charger?")]),  # no "it"
        ("I'll bring it Friday.", [("Lior", "How was the trip?")]),  # the question's subject
        ("I'll bring it Friday.", [("Lior", "Does her bike still squeak?")]),  # hers, not said
        ("I'll sort it out.", [("Lior", "Thanks so much!")]),  # no thing named at all
        # the nearest sentence naming a thing decides, even when an earlier one names another
        ("I'll bring it Friday.", [("Lior", "Got my book?"), ("Noa", "My car and the van.")]),
    ],
)
def test_a_promised_it_is_left_as_said_when_it_is_not_clear(
    said: str, before: list[tuple[str, str]]
) -> None:
    assert _promised(said, before) == said


@pytest.mark.parametrize(
    "said",
    ["We'll make it, I promise.", "I'll get it, don't worry.", "I'll do it later."],
)
def test_an_idiom_of_it_is_no_thing(said: str) -> None:
    # "make it" is to succeed, "get it" to understand: no thing talked about before
    assert _promised(said, [("Lior", "You need my notes before the exam.")]) == said


def test_money_promised_as_it_is_the_amount_just_said() -> None:
    """ "58 but whatever" ... "58 then. I'll transfer it by the 25th" (extraction_x): the "it"
    of paying is the amount the nearest sentence says; two amounts, or none, leave it as said."""
    owed = [("Lior", "thanks for covering my ticket, that was 60 right?"), ("Noa", "58 tbh")]
    assert _promised("I'll transfer it by the 25th.", owed) == "I'll transfer 58 by the 25th."
    said = [("Lior", "Dinner was £42.50 in the end.")]
    assert _promised("I'll pay it back Friday.", said) == "I'll pay £42.50 back Friday."
    # two amounts, a time or a day is no amount to pay
    for before in ("It was 40 or 45, not sure.", "See you at 6.", "It's due on the 25th."):
        assert _promised("I'll pay it back Friday.", [("Lior", before)]) == (
            "I'll pay it back Friday."
        ), before
    # an idiom of paying pays no money
    assert _promised("I'll pay it a visit soon.", said) == "I'll pay it a visit soon."


def test_paying_somebody_back_pays_the_debt_just_named() -> None:
    """Two chat sets written apart from the code ended a debt talked about ("I still owe u
    the 200 for the tickets") with "I'll pay you back by July 1st": a promise of no sum. What
    is paid back is the debt the nearest sentence with a sum names, with what it was for."""
    owed = [("Lior", "I haven't forgotten the 80 for the concert, honest"), ("Noa", "no rush")]
    assert _promised("I'll pay you back on Friday.", owed) == (
        "I'll pay you back the 80 for the concert on Friday."
    )
    bare = [("Noa", "the cab was 35 in the end")]
    assert _promised("I'll pay you back tomorrow.", bare) == "I'll pay you back 35 tomorrow."
    # no sum said, or the sum said with the promise: left as said
    assert _promised("I'll pay you back tomorrow.", [("Noa", "thanks for lunch!")]) == (
        "I'll pay you back tomorrow."
    )
    assert _promised("I'll pay you back the 35 tomorrow.", bare) == (
        "I'll pay you back the 35 tomorrow."
    )


def test_a_person_is_no_thing_handled() -> None:
    """A new user's probe: "My landlord asked me for the signed lease renewal. I promised him
    I'd post it back" was written "post their landlord back"."""
    said = "I'll post it back by the 1st."
    before = [("Noa", "My landlord asked me for the signed lease renewal.")]
    assert "landlord" not in _promised(said, before)
    assert _promised(said, [("Noa", "My lease renewal came today.")]) == (
        "I'll post my lease renewal back by the 1st."
    )
