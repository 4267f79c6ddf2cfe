"""The judge on items extraction writes from chat (issue 16, a new user's cross-session probes):
an answer kept with its question ('Asked "What's the rate?", Marcus said: "around 5.5%."'), and
a result "come back". Sentences of our own, shaped like what the probes showed: each replaced
or swallowed a true item."""

from __future__ import annotations

from memory_pipelines.core.answer_kept import answer_kept, question_and_answer
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_an_answer_kept_with_its_question_reads_back() -> None:
    kept = answer_kept("How old is Pickle?", "Callum", "12.")
    assert kept == 'Asked "How old is Pickle?", Callum said: "12."'
    assert question_and_answer(kept) == ("How old is Pickle?", "12.")
    assert question_and_answer("Asked her sister to feed the cat") is None


def test_answers_to_two_questions_are_two_facts(embedder: Embedder) -> None:
    """ "down to about 15k" answering "What's left?" was merged into the rate's answer, and the
    rate was lost."""
    d = judge(
        embedder,
        answer_kept("What's left on the loan?", "Marcus", "down to about 15k"),
        [answer_kept("What's the interest rate?", "Marcus", "around 5.5%.")],
    )
    assert d.action == "create", d
    # the same question answered again is not kept apart by it
    d = judge(
        embedder,
        answer_kept("What's the interest rate?", "Marcus", "about 5.5%"),
        [answer_kept("What's the interest rate?", "Marcus", "around 5.5%.")],
    )
    assert d.action != "create", d


def test_an_answer_is_no_choice_made(embedder: Embedder) -> None:
    """'Asked "Any interests?", Mateo said: "..."' opens with a verb in the past, and read as a
    choice made it settled the one plan stored beside it."""
    d = judge(
        embedder,
        answer_kept("Anything you two love doing?", "Mateo", "we like tapas and galleries"),
        ["Mateo is planning a weekend in Seville with Carla, budget around 700 euros"],
    )
    assert d.action == "create", d


def test_a_result_come_back_is_no_return(embedder: Embedder) -> None:
    """ "Her HbA1c came back at 48" read "back at" as a return, and replaced the diagnosis."""
    d = judge(
        embedder,
        "Priyanka's HbA1c has come back at 48, down from 58 when she was diagnosed.",
        ["Priyanka was diagnosed with type 2 diabetes last month and is still taking it in."],
    )
    assert d.action == "create", d
    # ... while somebody back in a place they had left is
    d = judge(embedder, "Oskar is back in Leeds now", ["Oskar lives in Glasgow"])
    assert d.action == "supersede", d


def test_the_talk_come_back_to_its_topic_is_no_return(embedder: Embedder) -> None:
    """ "Back to the allotment questions: it's plot 14 ..." replaced "Has got an allotment"."""
    d = judge(
        embedder,
        "Back to the allotment questions: it's plot 9 at Elm Road, heavy clay soil.",
        ["Has got an allotment."],
    )
    assert d.action != "supersede", d
    d = judge(embedder, "Back to running three times a week", ["Runs twice a week"])
    assert d.action == "supersede", d


def test_a_child_called_rose_moves_no_number(embedder: Embedder) -> None:
    """ "their two kids, alfie (5) and rose (2)" read "rose" as the verb, a number moved, and
    replaced "Hugo's sister Clara lives in Leeds"."""
    d = judge(
        embedder,
        "She lives near Roundhay Park with her husband Sam and their kids, alfie (5) and rose (2)",
        ["Hugo's sister Clara lives in Leeds"],
    )
    assert d.action != "supersede", d
    d = judge(embedder, "The rent rose to £1,500 in May", ["The rent is £1,300 a month"])
    assert d.action == "supersede", d


def test_a_cue_and_a_date_or_sum_of_another_thing_replace_nothing(embedder: Embedder) -> None:
    """Between items of one speaker's chat, which hold the dates and sums of many things, a
    change cue and a value of one kind replaced an item about something else (a new user's
    wedding-planning and moving probes: a birthday replaced by the move's new date, a deposit
    by money saved, the caterer's price by the florist's). Sentences of our own, so shaped."""
    for candidate, stored in [
        (
            "Priya: The move is now April 20 instead.",
            "Priya needs a gift idea for her dad's 70th birthday; it's on April 12.",
        ),
        (
            "Priya: The florist is $1,800, the other one is $2,400 but uses local flowers.",
            "120 guests confirmed, so catering goes up to about $9,500.",
        ),
    ]:
        d = judge(embedder, candidate, [stored], said_by="Priya")
        assert d.action == "create", (candidate, d)
    # The same thing's value moved still replaces it.
    d = judge(
        embedder,
        "Priya: The move is now April 20 instead.",
        ["Priya: Movers are booked for April 6."],
        said_by="Priya",
    )
    assert (d.action, d.target) == ("supersede", 0), d
