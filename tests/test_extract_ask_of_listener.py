"""A fact said with a wish or an invitation to the listener beside it ("My first show opens on
Friday, it'd mean a lot if you came") is kept without that clause: the rules read the whole
sentence as talk to the listener and kept nothing. Written by hand for the mechanism; found on
a chat set written apart from the code (extraction_t)."""

from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.sentence_clauses import without_ask_of_listener


def test_the_ask_is_taken_off_and_the_fact_kept() -> None:
    said = "We're launching the bakery on Saturday, hope you can make it."
    assert without_ask_of_listener(said) == "We're launching the bakery on Saturday."
    kept = durable_parts(
        "My choir sings at the cathedral on Sunday, it'd mean a lot if you came.",
        "user",
        [],
        "Dana",
        to_person=True,
    )
    assert [s for s, _ in kept] == ["My choir sings at the cathedral on Sunday."], kept


def test_a_clause_that_asks_nothing_stays() -> None:
    for said in (
        "I moved to Leeds in May, you know how I love the north.",
        "Come if you can.",  # nothing left to keep
    ):
        assert without_ask_of_listener(said) == said


def test_an_ask_to_keep_what_was_said_keeps_it() -> None:
    """ "my EpiPen expires in June, remind me?" ends as a question, yet asks the listener to keep
    what comes before it: a health fact had been dropped with the question."""
    said = "Gran's hearing aid batteries run out on the 20th, can you remind me?"
    assert without_ask_of_listener(said) == "Gran's hearing aid batteries run out on the 20th."
    kept = durable_parts("my EpiPen expires in the middle of June, remind me?", "user", [], "Agent")
    assert [s for s, _ in kept] == ["My EpiPen expires in the middle of June."], kept
    # a request of another kind stays a request
    said = "I'm heading to the shops, remind me to buy milk?"
    assert without_ask_of_listener(said) == said
