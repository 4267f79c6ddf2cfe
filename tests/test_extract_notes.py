"""A short note with no verb says more of the statement before it ("And I got the promotion!
Senior analyst from January 1st."): kept alone it was an item about nobody, which the judge
then read as the user's (found by a helper probing recall as a new user)."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.antecedents import elliptical
from memory_pipelines.core.extract import WindowTurn, extract_window

SAID = datetime(2026, 11, 20, tzinfo=UTC)


def test_a_note_without_a_verb_is_read_as_one() -> None:
    for note in ("Senior analyst from January 1st.", "Definitely one of my favorites!"):
        assert elliptical(note), note
    for said in (
        "Something happened at work.",  # -ed
        "Definitely adding it to my list.",  # -ing
        "I'm super stoked.",  # a contraction
        "She’s a nurse now.",
        "Lily started piano.",
        "Senior analyst from January 1st, with a bigger team and a budget of her own.",  # long
    ):
        assert not elliptical(said), said


def test_a_note_is_kept_with_the_statement_before_it() -> None:
    said = [
        ("Hannah", "The talk went well, about 150 people came."),
        ("", "Wonderful! Any other news?"),
        ("Hannah", "And I got the promotion! Senior analyst from January 1st."),
    ]
    turns = [
        WindowTurn(n, "user" if who else "assistant", who, text, SAID)
        for n, (who, text) in enumerate(said, start=1)
    ]
    texts = [c["context"] for c in extract_window(turns, pronoun_of=lambda _: "she")]
    assert "Hannah got the promotion; senior analyst from January 1st." in texts, texts
    assert not any(t.startswith("Senior analyst") for t in texts), texts
