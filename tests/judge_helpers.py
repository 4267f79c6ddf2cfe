"""One way for the judge's tests to ask for a decision: the candidate and the stored items
as texts, embedded by the real model, the stored ones said on `said_on`."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.models.embedder import Embedder

# A case the rules answer right and the learned chooser (core/judge_model.py) overrides: a known
# miss of the shipped judge, kept strict so that a refit which mends it is noticed.
LEARNED_MISS = pytest.mark.xfail(
    strict=True, reason="the learned chooser overrides the rules' right answer here"
)


def judge(
    embedder: Embedder,
    candidate: str,
    existing: list[str],
    *,
    category: str = "fact",
    said_on: str = "2024-03-01",
    with_model: bool = True,
    said_by: str | None = None,
) -> JudgeDecision:
    """`with_model` False: the judge gets no embedder of its own (as a caller without one);
    `said_by`: whose turn the candidate came from, as dedup passes it."""
    items = [JudgeItem(t, category, valid_from=said_on) for t in existing]
    vecs = embedder.embed([candidate, *existing])
    embed = embedder.embed if with_model else None
    item = JudgeItem(candidate, category, said_by=said_by)
    return decide(item, items, vecs[0], vecs[1:], embed=embed)
