"""The spec saves "decisions with the why": a decision said in one sentence and its reason in
the next is one item, the decision's. Written by hand for the mechanism; found on a chat set
written apart from the code (extraction_t), where "We're dropping the tablet layout from v2.
Under 2% of sessions come from tablets" gave the decision without its reason."""

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
