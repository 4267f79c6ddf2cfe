"""Casual chat drops apostrophes ("ill send u the form", "im off dairy"): written out before
the sentence is read, the rules that know "I'll" and "I'm" read it. Written by hand for the
mechanism; found on a chat set written apart from the code (extraction_t), where "ok ok ill
send u the slides by wednesday" gave no promise."""

from datetime import datetime

from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.plain_words import with_apostrophes
from memory_pipelines.core.promises import promise


def test_contractions_without_apostrophes_are_written_out() -> None:
    assert with_apostrophes("ill drop u the keys, dont worry") == (
        "I'll drop you the keys, don't worry"
    )
    assert with_apostrophes("im vegan now and i cant eat eggs") == (
        "I'm vegan now and I can't eat eggs"
    )
    # the words themselves stay: an adjective, a capitalised name, a band
    for said in (
        "I was ill on Monday.",
        "ill health runs in the family",
        "Dont is my cat.",
        "u2",
        "we did a u-turn",
    ):
        assert with_apostrophes(said) == said


def test_ill_before_a_verb_and_its_thing_is_i_will() -> None:
    # a verb of any kind with its thing after it ("toss the advil"), not the adjective before
    # a preposition, a quantity or a noun it describes
    assert (
        with_apostrophes("ok got it, ill toss the old advil")
        == "ok got it, I'll toss the old advil"
    )
    assert with_apostrophes("ill water your plants sat") == "I'll water your plants sat"
    for said in ("she was ill with the flu", "ill most of the week", "ill health the whole year"):
        assert with_apostrophes(said) == said


def test_a_promise_typed_casually_is_a_promise() -> None:
    kept = durable_parts("yep ill post u the contract by friday", "user", [], "Mina", True)
    assert [c for _, c in kept] == ["commitment"], kept
    made = promise(kept[0][0], "Ola", "Mina", datetime(2026, 3, 2, 9))
    assert made is not None and made.owed_to == "Mina" and made.due_at is not None
    assert made.due_at.day == 6


def test_an_interjection_typed_without_its_comma_is_an_opener() -> None:
    from memory_pipelines.core.sentence_forms import without_opener

    assert without_opener("ok ok I'll send it tonight.") == "I'll send it tonight."
    assert without_opener("ugh I promised Nell I'd go.") == "I promised Nell I'd go."
    # a word of manner stays, and so does an interjection before anything but a first person
    assert without_opener("Honestly I love it.") == "Honestly I love it."
    assert without_opener("Sure thing.") == "Sure thing."


def test_a_bet_said_as_where_ones_money_is_is_a_guess() -> None:
    from memory_pipelines.core.sentence_kinds import sentence_kind

    assert sentence_kind("My money's on the Danes winning it.", "user") == "hedge"
    assert sentence_kind("my moneys on rain by noon", "user") == "hedge"


def test_a_heading_that_flags_what_follows_is_an_opener() -> None:
    """ "one important thing: she's allergic to bee stings" (extraction_w): the heading files
    the fact and is no part of it, so its pronoun opens the sentence and can be read."""
    from memory_pipelines.core.sentence_forms import without_opener

    said = "one important thing: she's allergic to bee stings."
    assert without_opener(said) == "She's allergic to bee stings."
    assert without_opener("Oh and one more thing - the gate code is 4471.") == (
        "The gate code is 4471."
    )
    assert without_opener("Important: never give him ibuprofen.") == "Never give him ibuprofen."
    # the words without their colon say something of their own
    assert without_opener("One thing I love is baking.") == "One thing I love is baking."
    assert (
        without_opener("Important meetings go on Mondays.") == "Important meetings go on Mondays."
    )


def test_days_spelled_short_are_written_out() -> None:
    said = "ill pick the car up tmrw after 5, or 2moro morning, see u 2nite"
    assert with_apostrophes(said) == (
        "I'll pick the car up tomorrow after 5, or tomorrow morning, see you tonight"
    )
    made = promise(
        with_apostrophes("ill post u the forms tmrw"), "Ola", "Mina", datetime(2026, 3, 2, 9)
    )
    assert made is not None and made.due_at is not None and made.due_at.day == 3


def test_a_names_s_before_an_age_is_is() -> None:
    """A new user's probe: "we've got two cats, Miso and Udon" / ... / "and Miso's 14 now,
    getting a bit creaky" was dropped: "Miso's" read as whose, the sentence named nobody."""
    assert with_apostrophes("and Miso's 14 now, getting a bit creaky") == (
        "and Miso is 14 now, getting a bit creaky"
    )
    assert with_apostrophes("Gran's 90 next week") == "Gran is 90 next week"
    # whose it is, or no name: as said
    for said in ("Tom's 2 cats are fine", "Tom's 40 quid", "It's 5 now", "What's 5 times 3?"):
        assert with_apostrophes(said) == said
    kept = durable_parts("we got two cats. Miso's 14 now, getting a bit creaky", "user", [], "Ai")
    assert any("Miso is 14" in s for s, _ in kept), kept
