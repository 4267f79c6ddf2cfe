"""A health or safety fact is never replaced on the learned chooser's guess alone
(core/judge._safety_lost): a new-user probe lost "He carries an EpiPen in his school bag at
all times" to "Leo is completely off nuts of any kind at home now" (the rules said new; the
weights said replace). A change the rules read still replaces one. Written by hand."""

from __future__ import annotations

import pytest

from memory_pipelines.models.embedder import Embedder, get_embedder
from tests.judge_helpers import judge


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


def test_a_guess_never_replaces_a_safety_fact(embedder: Embedder) -> None:
    got = judge(
        embedder,
        "Ravi is completely off shellfish at home now, the others cleared the freezer.",
        [
            "He carries an EpiPen in his work bag at all times.",
            "Ravi has a severe shellfish allergy.",
        ],
    )
    assert got.action == "create", got.reason


def test_a_change_the_rules_read_still_replaces_one(embedder: Embedder) -> None:
    got = judge(
        embedder, "Ravi is no longer allergic to shellfish.", ["Ravi has a shellfish allergy."]
    )
    assert (got.action, got.target) == ("supersede", 0), got.reason
