"""Supersede is one function (store.items.supersede) for dedup on save, maintenance's merges
and reflection: the old record stays valid until the new one became valid, and never for
negative time (a new record dated before the old one ends it where it began)."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.api import Memory
from memory_pipelines.api.maintenance import maintain

EARLY = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
LATE = datetime(2024, 3, 10, 9, 0, tzinfo=UTC)


def _fact(context: str, valid_from: datetime) -> dict:
    return {"category": "fact", "context": context, "confidence": 7, "valid_from": valid_from}


def test_dedup_ends_the_old_item_when_the_new_one_begins(memory: Memory) -> None:
    old = memory.save_with_dedup(_fact("Daily standup is at 9:30", EARLY)).id
    res = memory.save_with_dedup(_fact("Daily standup now starts at 10:00", LATE))
    assert res.superseded == old
    assert memory.get(old).valid_until == LATE == memory.get(res.id).valid_from


def test_dedup_with_a_correction_dated_earlier_leaves_no_negative_time(memory: Memory) -> None:
    old = memory.save_with_dedup(_fact("Daily standup is at 9:30", LATE)).id
    res = memory.save_with_dedup(_fact("Daily standup now starts at 10:00", EARLY))
    assert res.superseded == old
    item = memory.get(old)
    assert item.valid_until == item.valid_from == LATE  # valid for no time, not -9 days


def _duplicates(memory: Memory, weak_from: datetime, strong_from: datetime) -> tuple[int, int]:
    """Two wordings of one preference: the machine's (weak) and the person's (strong)."""
    memory.configure(maintenance={"duplicate_threshold": 0.9})
    weak = memory.save(
        {
            "category": "preference",
            "context": "Ana prefers window seats on flights",
            "source": "machine",
            "valid_from": weak_from,
        }
    ).id
    strong = memory.save(
        {
            "category": "preference",
            "context": "Ana prefers a window seat on flights",
            "valid_from": strong_from,
        }
    ).id
    assert weak is not None and strong is not None
    return weak, strong


def test_maintenance_ends_the_duplicate_when_the_survivor_begins(memory: Memory) -> None:
    weak, strong = _duplicates(memory, EARLY, LATE)
    assert maintain(memory.db, memory.store_id)["merged"] == 1
    gone = memory.get(weak)
    assert gone.superseded_by == strong and gone.valid_until == LATE


def test_maintenance_with_an_older_survivor_leaves_no_negative_time(memory: Memory) -> None:
    weak, strong = _duplicates(memory, LATE, EARLY)
    assert maintain(memory.db, memory.store_id)["merged"] == 1
    gone = memory.get(weak)
    assert gone.superseded_by == strong and gone.valid_until == gone.valid_from == LATE
