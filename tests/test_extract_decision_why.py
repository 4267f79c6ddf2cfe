"""The spec saves "decisions with the why": a decision said in one sentence and its reason in
the next is one item, the decision's. Written by hand for the mechanism; found on a chat set
written apart from the code (extraction_t), where "We're dropping the tablet layout from v2.
Under 2% of sessions come from tablets" gave the decision without its reason."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np

from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.extract_parts import durable_parts


def _kept(text: str) -> list[tuple[str, str]]:
    return durable_parts(text, "user", [], "Assistant")


def test_the_reason_said_next_is_kept_with_the_decision() -> None:
    kept = _kept("We're moving the standup to 10am. Half the team starts late on Mondays.")
    assert kept == [
        ("We're moving the standup to 10am; half the team starts late on Mondays.", "decision")
    ], kept
    # "final call" decides too
    (decision,) = [
        s
        for s, c in _kept("Final call: the offsite is in Porto. Flights are cheapest.")
        if c == "decision"
    ]
    assert decision.startswith("Final call: the offsite is in Porto; flights are cheapest")


def test_a_decision_with_its_own_reason_stays_as_said() -> None:
    kept = _kept("We're moving the standup to 10am because of the school run. Lunch is at 1.")
    assert ("We're moving the standup to 10am because of the school run.", "decision") in kept
    assert not any(";" in s for s, _ in kept), kept


DECIDED = "We chose Postgres over Mongo for the billing service"


def _window(*turns: tuple[str, str]) -> list[WindowTurn]:
    """The turns, the first with the vector ingest stored for its decision's sentence."""
    said = datetime(2025, 6, 2, 10, 0, tzinfo=UTC)
    out = [
        WindowTurn(n, "user", who, text, said + timedelta(minutes=n))
        for n, (who, text) in enumerate(turns, start=1)
    ]
    out[0] = replace(out[0], sentences={DECIDED: np.ones(384, dtype=np.float32)})
    return out


def _decided(*turns: tuple[str, str]) -> tuple[dict, list[dict]]:
    """The one decision extracted from the turns, and every candidate."""
    made = extract_window(_window(*turns), pronoun_of=lambda _: "she")
    (decision,) = [c for c in made if c["category"] == "decision"]
    return decision, made


CHOSE = ("Ana", "we chose Postgres over Mongo for the billing service")


def test_the_reason_given_when_asked_why_is_kept_with_the_decision() -> None:
    """ "club decided to move all training to the indoor hall" / "why, the pitch again?" /
    "yeah it floods ...": the reason was lost or a memory of its own (found on extraction_u;
    the chats here are our own words)."""
    decision, made = _decided(
        CHOSE, ("Bo", "how come?"), ("Ana", "yeah the reports need joins everywhere. and more")
    )
    assert decision["context"].startswith(
        "Ana and others chose Postgres over Mongo for the billing service; the reports need joins"
    ), decision["context"]
    assert (decision["from_seq"], decision["to_seq"]) == (1, 3)
    assert "embedding" not in decision  # its text changed: embedded anew
    # the reason is no memory of its own
    assert not any(c is not decision and "joins" in c["context"] for c in made), made


def test_an_answer_to_another_question_is_no_reason() -> None:
    decision, _ = _decided(
        CHOSE, ("Bo", "nice, is it hosted?"), ("Ana", "yes, on the managed plan from Aiven")
    )
    assert "Aiven" not in decision["context"] and decision["to_seq"] == 1
    assert "embedding" in decision  # the stored vector of its sentence, as said
    # nor is the reason someone else gives
    decision, _ = _decided(CHOSE, ("Bo", "why?"), ("Cy", "the reports need joins everywhere"))
    assert "joins" not in decision["context"]
