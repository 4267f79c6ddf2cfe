"""One way for the commitments' tests to store a promise as it stands (no dedup)."""

from __future__ import annotations

from memory_pipelines.api import Memory


def commitment(memory: Memory, text: str, person: str | None = None) -> int:
    """Save `text` as an open commitment (of `person`, or shared); its id."""
    res = memory.save(
        {"category": "commitment", "context": text, "confidence": 8, "person": person}
    )
    assert res.saved and res.id is not None
    return res.id
