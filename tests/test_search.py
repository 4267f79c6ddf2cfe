"""First hybrid search over items and turns."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.errors import ValidationError


def test_hybrid_search_finds_items_and_turns(memory: Memory, recall: Recall) -> None:
    memory.add_person("ana")
    memory.write_turn("c", "My sister just adopted a greyhound called Biscuit.")
    memory.write_turn("c", "The quarterly report is due on the 14th.")
    memory.write_turn("c", "We had pasta for dinner.")
    shared = memory.save(
        {"category": "fact", "context": "Sister owns a greyhound named Biscuit", "confidence": 7}
    )["id"]
    private = memory.save(
        {
            "category": "fact",
            "context": "Ana's greyhound Biscuit is afraid of cats",
            "confidence": 7,
            "person": "ana",
        }
    )["id"]
    hits = recall.search("what dog does the sister have?", k=3)
    assert hits[0].kind in ("item", "turn")
    kinds_ids = {(h.kind, h.id) for h in hits}
    assert ("item", shared) in kinds_ids
    assert ("item", private) not in kinds_ids  # another person's record never leaks
    assert any(h.kind == "turn" and "greyhound" in h.text for h in hits)
    as_ana = recall.search("greyhound", ["agent"], person="ana", k=5)
    assert {h.id for h in as_ana} == {shared, private}
    assert memory.get(shared)["access_count"] == 2


def test_search_validates_input(recall: Recall) -> None:
    with pytest.raises(ValidationError, match="scopes"):
        recall.search("x", ["everything"])
    with pytest.raises(ValidationError, match="k"):
        recall.search("x", k=0)
    with pytest.raises(ValidationError, match="query"):
        recall.search("  ")
