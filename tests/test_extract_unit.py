"""The local extractor's sentence rules (no database, no model)."""

from datetime import UTC, datetime

from memory_pipelines.core.extract import WindowTurn, durable_parts, extract_window

WHEN = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


def _kept(text: str, role: str = "user") -> list[str]:
    return [sentence for sentence, _ in durable_parts(text, role)]


def test_statements_about_the_speaker_or_a_named_person_are_kept() -> None:
    assert _kept("I went to a support group yesterday and it was powerful.") == [
        "I went to a support group yesterday and it was powerful."
    ]
    assert _kept("Last week Oliver got a new job at the hospital.") == [
        "Last week Oliver got a new job at the hospital."
    ]


def test_impersonal_small_talk_and_remarks_about_the_listener_are_not() -> None:
    assert _kept("It was so vibrant and welcoming, what a day.") == []
    assert _kept("Cherish the moments, they are the best!") == []
    assert _kept("You've made so much progress with the garden.") == []
    # "i" inside a word is not the speaker, "you" inside a word is not the listener.
    assert _kept("Bet the atmosphere was incredible tonight.") == []
    assert _kept("Youth sports leagues need more volunteers.") == []


def test_an_explicit_save_reason_needs_no_person() -> None:
    rule = durable_parts("From now on, use metric units in every answer.", "user")
    assert [category for _, category in rule] == ["preference"]
    lesson = durable_parts("Lesson learned: never deploy on a Friday afternoon.", "user")
    assert [category for _, category in lesson] == ["lesson"]


def test_candidates_name_the_speaker_and_carry_their_turn() -> None:
    turns = [
        WindowTurn(1, "user", "Caroline", "Hey Mel! Good to see you!", WHEN),
        WindowTurn(2, "user", "Caroline", "I adopted a dog named Oscar last week.", WHEN),
    ]
    cands = extract_window(turns)
    assert [c["from_seq"] for c in cands] == [2]
    assert cands[0]["context"].startswith("Caroline adopted a dog named Oscar last week")
    assert cands[0]["confidence"] <= 6
    assert "Oscar" in cands[0]["entities"]
