"""Which clause of a statement the judge reads a change or a negation in. Written by hand for
the mechanisms (judge_pairs._own_words, judge_claims.change_clauses); none from the case
sets."""

from __future__ import annotations

import pytest

from memory_pipelines.models.embedder import Embedder, get_embedder
from tests.judge_helpers import judge


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ola doesn't drink alcohol at all.", "Ola is teetotal, Mark drinks most nights."),
        ("Ines never smokes.", "Ines is trying to be healthier; her dad Raul smokes a pipe."),
    ],
)
def test_a_denial_turns_round_no_clause_about_someone_else(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    """Found by a new-user probe: "Aisha doesn't eat meat or fish" replaced "Aisha is
    vegetarian, Ben eats everything" as a negation turned round, and Ben's diet was lost. The
    verb the stored item says without a negation is Ben's."""
    got = judge(embedder, candidate, [stored])
    assert got.action != "supersede", got.reason


def test_a_denial_turned_round_in_the_subjects_own_clause_still_replaces(
    embedder: Embedder,
) -> None:
    got = judge(embedder, "Ola drinks alcohol again, wine mostly.", ["Ola doesn't drink alcohol."])
    assert (got.action, got.target) == ("supersede", 0), got.reason
