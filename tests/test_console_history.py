"""The History card keeps every wording: a merge that took a fuller wording changed the
record's text in place, and the card shows what it said before (real Postgres, real model)."""

from __future__ import annotations

from memory_pipelines.api import Memory
from memory_pipelines.service.console.records import history


def test_the_history_card_shows_the_wording_a_merge_replaced(memory: Memory) -> None:
    first = memory.save({"category": "fact", "context": "Ana prefers dark mode", "confidence": 7})
    fuller = "Ana prefers dark mode in every app she uses"
    res = memory.save_with_dedup({"category": "fact", "context": fuller, "confidence": 7})
    assert res.deduplicated and first.id is not None
    assert memory.get(first.id).context == fuller
    [card] = history(memory.history(first.id))
    assert card.snapshot.context == fuller
    assert [v.snapshot.context for v in card.earlier] == ["Ana prefers dark mode"]
    # a record never reworded has no earlier wording
    other = memory.save({"category": "fact", "context": "Bo walks to work", "confidence": 7})
    assert other.id is not None and history(memory.history(other.id))[0].earlier == []
