"""The same state or liking of one person in other words is a restatement, though the two
share few words beyond who they are about: the judge reads them with that person set aside
(core/judge_names.said_otherwise). Two happenings on one topic stay two ("taught her cousins to
kayak" / "learned to kayak at camp": core/judge_history.told_as_past).

Every case is written for this file (none is taken from a case set)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_history import told_as_past
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_a_liking_said_otherwise_is_the_same_fact(embedder: Embedder) -> None:
    decided = judge(
        embedder,
        "Nadia always cycles to work because buses make her carsick",
        [
            "Nadia prefers her bike for the commute since she gets motion sickness on buses",
            "Lives in a flat above a bakery",
        ],
    )
    assert (decided.action, decided.target) == ("merge", 0), decided.reason


def test_two_happenings_on_one_topic_stay_two(embedder: Embedder) -> None:
    decided = judge(
        embedder,
        "Ola taught her nephews to sail at the lake house",
        ["Ola learned to sail on holiday as a teenager", "Ola works night shifts"],
    )
    assert decided.action == "create", decided.reason


def test_what_is_told_as_past_is_read_from_the_first_clause() -> None:
    assert told_as_past("Ola taught her nephews to sail")
    assert told_as_past("Velwood's trademark was registered in 2023")
    assert not told_as_past("Ola always sails at dawn, since she learned young")
    assert not told_as_past("Yasmin is scared of flying")
    assert not told_as_past("She's moved to Leeds")


def test_a_pair_too_far_to_merge_is_not_embedded_again(embedder: Embedder) -> None:
    """Reading a pair with its subject set aside costs an embedding of both: the judge asks
    for it only where the answer could change its action, not for two facts of one person
    that would not merge anyway."""
    asked: list[str] = []

    def counting(texts: Sequence[str]) -> np.ndarray:
        asked.extend(texts)
        return embedder.embed(texts)

    cand, stored = "Omar is allergic to penicillin", "Omar drives a blue Volvo"
    vecs = embedder.embed([cand, stored])
    decided = decide(
        JudgeItem(cand, "fact"), [JudgeItem(stored, "fact")], vecs[0], vecs[1:], embed=counting
    )
    assert decided.action == "create", decided.reason
    assert asked == []
