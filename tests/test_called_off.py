"""A promise called off is cancelled: core/called_off.calls_off reads it from what the two
say, dedup (api/dedup.py) cancels the commitment in the save's transaction, and the statement
is a fact of its own. Found by a new-user probe: "Forget the receipts ...", "no need to pay
... after all" and "don't bother" left their promises open and overdue. Written by hand for
the mechanism; none from the probe's chats."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.called_off import calls_off
from memory_pipelines.core.extract import durable_parts
from tests.promise_helpers import commitment

CALLED_OFF = [
    ("Lars will bring the projector to the workshop on Tuesday", "The workshop got cancelled."),
    ("Assistant will book a table at Nonna's for Saturday", "Never mind the table at Nonna's."),
    ("Pia will order the flowers for the wedding", "Pia no longer needs to order the flowers."),
    (
        "Assistant will send Ravi the hotel shortlist by Friday",
        "The hotel shortlist: don't bother, Ravi booked one himself.",
    ),
    ("Kit will pay the plumber 80 pounds", "No need to pay the plumber after all, it was free."),
    # the act itself taken back, on a day of May ("May" the month, no maybe)
    (
        "Ada will host the book club at her flat on Saturday (9 May 2026)",
        "Ada won't host the book club at her flat on Saturday (9 May 2026) after all.",
    ),
]
NOT_CALLED_OFF = [
    # asked, only possible
    ("Lars will bring the projector to the workshop", "Should we cancel the workshop?"),
    ("Lars will bring the projector to the workshop", "The workshop might be cancelled."),
    ("Ada will host the book club", "Ada may not host the book club after all."),
    # another thing called off, in its own clause
    ("Lars will bring the projector to the workshop", "Forget the cake, the workshop is on."),
    ("Pia will order the flowers for the wedding", "The rehearsal dinner is called off."),
    # kept, not called off
    ("Kit will pay the plumber 80 pounds", "Kit paid the plumber."),
]


@pytest.mark.parametrize(("commitment", "statement"), CALLED_OFF)
def test_a_statement_calling_the_promise_off(commitment: str, statement: str) -> None:
    assert calls_off(commitment, statement)


@pytest.mark.parametrize(("commitment", "statement"), NOT_CALLED_OFF)
def test_a_question_a_maybe_or_another_thing_calls_nothing_off(
    commitment: str, statement: str
) -> None:
    assert not calls_off(commitment, statement)


def test_extraction_keeps_a_thing_called_off() -> None:
    said = "The school concert got cancelled because of the snow, so no need to buy tickets."
    assert durable_parts(said, "user", [], "Assistant") == [(said, "fact")]


def test_dedup_cancels_the_commitment_a_save_calls_off(memory: Memory) -> None:
    projector = commitment(memory, "Lars will bring the projector to the workshop on Tuesday")
    flowers = commitment(memory, "Lars will order the flowers for Pia's birthday")
    asked = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Should we cancel the workshop?"}
    )
    assert asked.cancelled is None and memory.get(projector).status == "open"
    res = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "The workshop got cancelled, snow."},
        written_by="key k1",
    )
    assert res.cancelled == projector and res.fulfilled is None
    # the statement is a fact of its own, never merged into the promise it calls off
    assert res.id is not None and res.merged_into is None and res.id != projector
    assert memory.get(projector).status == "cancelled"
    assert memory.get(flowers).status == "open"
    assert [(v.change, v.actor) for v in memory.history(projector)][-1] == ("cancel", "key k1")
    with memory.db.connection() as conn:
        [payload] = (
            conn.execute(
                "SELECT payload FROM events WHERE item_id = %s AND kind = 'cancel'", (projector,)
            )
            .fetchone()
            .values()
        )
    assert payload["reported_in"] == res.id


def test_only_the_promise_of_the_same_person_is_called_off(memory: Memory) -> None:
    """Person B's statement never closes person A's promise: its closing would tell A's
    readers that B said something."""
    memory.add_person("ana")
    memory.add_person("ben")
    anas = commitment(memory, "Lars will bring the projector to the workshop", person="ana")
    bens = memory.save_with_dedup(
        {
            "category": "fact",
            "confidence": 7,
            "person": "ben",
            "context": "The workshop is off the table.",
        }
    )
    assert bens.cancelled is None and memory.get(anas).status == "open"
    own = memory.save_with_dedup(
        {
            "category": "fact",
            "confidence": 7,
            "person": "ana",
            "context": "The workshop is off the table.",
        }
    )
    assert own.cancelled == anas and memory.get(anas).status == "cancelled"


def test_a_shared_promise_is_called_off_by_no_persons_statement(memory: Memory) -> None:
    """A shared promise is closed by no person's own statement: its readers would learn that
    the person said something. (A person's dedup reads only that person's items, and the
    closing checks the person again: either guard keeps this.)"""
    memory.add_person("ana")
    shared = commitment(memory, "Lars will bring the projector to the workshop")
    anas = memory.save_with_dedup(
        {
            "category": "fact",
            "confidence": 7,
            "person": "ana",
            "context": "The workshop got cancelled.",
        }
    )
    assert anas.cancelled is None and memory.get(shared).status == "open"


def test_the_one_owed_needing_it_no_longer_calls_the_promise_off() -> None:
    """A new user's probe: "I told Priya I'd cover her shift on Sunday" / ... / "actually she
    doesn't need it anymore, her sister's covering" left the promise open: the thing is only
    "it", so the promise is known by whom it is owed to."""
    promised = "Joe will cover Priya's shift on Sunday"
    said = "Actually Priya doesn't need it anymore, her sister's covering"
    assert calls_off(promised, said, owed_to="Priya")
    assert not calls_off(promised, said, owed_to="Sam")  # owed to another
    assert not calls_off(promised, said)  # nobody known it is owed to
    assert not calls_off(promised, "Priya might not need it anymore", owed_to="Priya")
    assert durable_parts("so she doesn't need it anymore, all sorted", "user", [], "Ai") != []


def test_dedup_cancels_the_promise_its_owed_one_no_longer_needs(memory: Memory) -> None:
    res = memory.save(
        {
            "category": "commitment",
            "context": "Joe will cover Priya's shift on Sunday",
            "confidence": 8,
            "owed_to": "Priya",
        }
    )
    assert res.id is not None
    news = "Actually Priya doesn't need it anymore, her sister's covering"
    saved = memory.save_with_dedup({"category": "fact", "confidence": 7, "context": news})
    assert saved.cancelled == res.id
    assert memory.get(res.id).status == "cancelled"
