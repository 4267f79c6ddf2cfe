"""The name of the one a promise is said to is no part of its text ("Tom, I'll pick up the kids
on Friday" kept "Tom, Lena will pick up ..."; found by a helper probing as a new user): whom
it is owed to is a field of its own. Another name opening a sentence stays."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.sentence_forms import in_confidence, without_vocative

SAID = datetime(2026, 3, 4, tzinfo=UTC)


def test_the_listeners_name_is_taken_off_a_statement() -> None:
    assert without_vocative("Tom, I'll pick up the kids.", "Tom") == "I'll pick up the kids."
    assert without_vocative("Tom, the kids are at school.", "Tom") == "The kids are at school."
    # another name, or no statement after it, stays
    assert without_vocative("Paris, I loved it.", "Tom") == "Paris, I loved it."
    assert without_vocative("Tom, pick up the kids.", "Tom") == "Tom, pick up the kids."
    assert without_vocative("Tom, I'll call.", "") == "Tom, I'll call."


def test_a_promise_keeps_whom_it_is_owed_to_apart() -> None:
    turns = [
        WindowTurn(1, "user", "Lena", "Tom, I'll pick up the kids on Friday.", SAID),
        WindowTurn(2, "user", "Tom", "Thanks!", SAID),
    ]
    [promise] = extract_window(turns, pronoun_of=lambda _: "she")
    assert promise["category"] == "commitment"
    assert promise["context"].startswith("Lena will pick up the kids on Friday"), promise
    assert promise["owed_to"] == "Tom"


def test_what_is_told_in_confidence_keeps_that_it_was() -> None:
    """ "Between us: I have ..." read word by word became "Between Tom and others: he has ...",
    the opposite of what was said (found by the household probe)."""
    assert in_confidence("Between us: I have an interview.") == ("I have an interview.", True)
    assert in_confidence("Off the record, my boss is leaving.") == ("My boss is leaving.", True)
    # not an opener that confides, or no statement after it
    assert in_confidence("Between us and the sea is a wall.")[1] is False
    assert in_confidence("Between us, thanks!")[1] is False
    turns = [
        WindowTurn(1, "user", "Tom", "Between us: my manager is leaving in March.", SAID),
        WindowTurn(2, "user", "Lena", "Oh wow.", SAID),
    ]
    [fact] = extract_window(turns, pronoun_of=lambda _: "he")
    assert fact["context"] == "Tom's manager is leaving in March (told in confidence).", fact


def test_you_said_to_several_names_them_all() -> None:
    """ "I'll remind you both about the car insurance", said to Maya and Tom, was "Assistant
    will remind Tom both ...", owed to Tom alone (found by the household probe)."""
    turns = [
        WindowTurn(1, "user", "Maya", "Our car insurance renews in January.", SAID),
        WindowTurn(2, "user", "Tom", "Yes, we should compare quotes.", SAID),
        WindowTurn(
            3, "assistant", "", "I'll remind you both about the insurance renewal next week.", SAID
        ),
    ]
    promises = [c for c in extract_window(turns) if c["category"] == "commitment"]
    assert [(c["context"][:60], c["owed_to"]) for c in promises] == [
        ("Assistant will remind Maya and Tom about the insurance renew", "Maya and Tom")
    ]
    # said to one person, "you" stays that person
    one = [turns[0], WindowTurn(2, "assistant", "", "I'll remind you next week.", SAID)]
    assert [c.get("owed_to") for c in extract_window(one)] == [None, "Maya"]


def test_a_name_called_at_the_end_is_whom_the_promise_is_owed_to() -> None:
    """ "I'll have the slides to you first thing tomorrow, Raj" in a chat with the assistant was
    owed to the assistant and kept "to Assistant ..., Raj": the name called is the listener."""
    turns = [WindowTurn(1, "user", "Lena", "I'll get the invoice to you by Friday, Omar.", SAID)]
    [promise] = extract_window(turns, pronoun_of=lambda _: "she")
    assert promise["category"] == "commitment" and promise["owed_to"] == "Omar", promise
    assert promise["context"].startswith("Lena will get the invoice to Omar by Friday"), promise
    assert "Assistant" not in promise["context"]
    # a name of the window's speakers said short is that speaker; a word that names nobody
    # ("thanks", "mate") calls nobody
    turns = [
        WindowTurn(1, "user", "Omari", "Can you send it over?", SAID),
        WindowTurn(2, "user", "Lena", "I'll get the invoice to you by Friday, Om.", SAID),
    ]
    assert [c["owed_to"] for c in extract_window(turns, pronoun_of=lambda _: "she")] == ["Omari"]
    turns = [
        WindowTurn(1, "user", "Omari", "Can you send it over?", SAID),
        WindowTurn(2, "user", "Lena", "I'll send you the invoice by Friday, Mate.", SAID),
    ]
    assert [c["owed_to"] for c in extract_window(turns, pronoun_of=lambda _: "she")] == ["Omari"]


def test_a_name_called_first_is_whom_the_promise_is_owed_to() -> None:
    turns = [
        WindowTurn(
            1, "user", "Lena", "Joss, I'll take your bins out on Tuesday while you're away.", SAID
        )
    ]
    [promise] = extract_window(turns, pronoun_of=lambda _: "she")
    assert promise["owed_to"] == "Joss", promise
    assert "Joss's bins" in promise["context"] and "Assistant" not in promise["context"], promise
    # a name said first of a thing, or a word that opens any sentence, calls nobody
    for said in ("Biscuit, our beagle, loves you to bits.", "Honestly, I'll send you the map."):
        turns = [WindowTurn(1, "user", "Lena", said, SAID)]
        assert not any(
            c.get("owed_to") == said.split(",")[0]
            for c in extract_window(turns, pronoun_of=lambda _: "she")
        ), said


def test_a_you_that_is_anyone_leaves_a_fact_about_somebody_of_theirs() -> None:
    """ "my landlord is Mr. Okonjo-Baptiste, ..., he gets touchy if you drop one" was taken
    as said to the listener and dropped (found on extraction_x; these are our own words)."""
    from memory_pipelines.core.extract_parts import durable_parts
    from memory_pipelines.core.sentence_people import addresses

    said = "my neighbour is Mrs. Adeyemi-Clarke, she gets cross if you shorten it"
    assert not addresses(said, "Agent")
    kept = durable_parts(said, "user", [], "Agent")
    assert len(kept) == 1 and "Adeyemi-Clarke" in kept[0][0], kept
    # "if you need me" is the listener, whatever of the speaker's the sentence names
    assert addresses("I'm always here if you need me, my door is open", "Agent")
    # so is a "you" outside the clause
    assert addresses("my neighbour likes you, ask her if you want", "Agent")


def test_a_name_before_a_negated_verb_opens_a_fact_of_theirs() -> None:
    """The verb after a name was read as "doesn" in "Leo doesn't eat nuts"."""
    from memory_pipelines.core.sentence_people import name_then_verb

    assert name_then_verb("Leo doesn't eat nuts")
    assert name_then_verb("Priya can't have dairy")
    assert not name_then_verb("Everything isn't lost")


def test_a_name_called_first_without_a_comma_is_taken_off() -> None:
    """ "Lu I promise I'll call you tomorrow" was kept "Lu Kai promises ..." (a probe in our
    own words): chat often leaves out the comma after the name called."""
    from memory_pipelines.core.sentence_forms import without_vocative

    assert without_vocative("Sam I'll drop the keys round later", "Sam") == (
        "I'll drop the keys round later"
    )
    # a name that is the sentence's subject, or another's name, stays
    assert without_vocative("Sam is my cousin", "Sam") == "Sam is my cousin"
    assert without_vocative("Samira I met at uni", "Sam") == "Samira I met at uni"
