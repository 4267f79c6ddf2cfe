"""A happening the candidate dates ("Last Friday, Priya spent the afternoon at the food bank")
was merged into the lasting fact it belongs to ("Priya volunteers at the food bank"), and a
merge keeps the stored words: the happening was lost (the LoCoMo extraction pass: a car
donated to the shelter, an afternoon volunteering there). It is a fact of its own; the same
happening told again still merges, and so does the lasting fact said again."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.models.embedder import Embedder

ELSE = "Priya works at the library."


@pytest.mark.parametrize(
    ("candidate", "stored", "action"),
    [
        (
            "Last Friday (11 August 2023), Priya spent the day at the food bank sorting tins.",
            "Priya volunteers at the food bank.",
            "create",
        ),
        (
            "Priya gave her old bike to the food bank she volunteers at yesterday (21 May 2023).",
            "Priya has been volunteering at the food bank and training for a 10K.",
            "create",
        ),
        (
            "Yesterday (3 May 2023) Priya ran the Leeds half marathon.",
            "Priya ran the Leeds half marathon yesterday (3 May 2023).",
            "merge",
        ),
        (
            "Priya volunteers at the food bank every Saturday.",
            "Priya volunteers at the food bank.",
            "merge",
        ),
    ],
)
def test_a_dated_happening_is_no_restatement_of_the_lasting_fact(
    embedder: Embedder, candidate: str, stored: str, action: str
) -> None:
    vecs = embedder.embed([candidate, stored, ELSE])
    d = decide(
        JudgeItem(candidate, "fact"),
        [JudgeItem(t, "fact", valid_from="2023-05-01") for t in (stored, ELSE)],
        vecs[0],
        vecs[1:],
        embed=embedder.embed,
    )
    assert d.action == action, d.reason
    assert d.target == (0 if action == "merge" else None)
