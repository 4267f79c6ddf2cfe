"""Auto-recall keeps the spec's rules: commitments inside the budget, only open ones, small talk
injects nothing, only what is injected counts as recalled (issue 11, conformance)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.core import injection
from memory_pipelines.core.relevance import is_generic

T0 = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)


def _commitments(memory: Memory, n: int) -> None:
    for i in range(n):
        memory.save(
            {
                "category": "commitment",
                "context": f"Send the signed lease number {i} to the agent",
                "confidence": 8,
                "due_at": (T0 + timedelta(days=i + 1)).isoformat(),
            }
        )


def test_open_commitments_count_against_the_budget(memory: Memory, recall: Recall) -> None:
    memory.write_turn("c", "hello")
    _commitments(memory, 3)
    small = autorecall(recall, "c", "What is on my plate?", budget_tokens=20)
    assert small.tokens <= 20
    assert len(small.records) < 3 and small.skipped["over_budget"] >= 1
    roomy = autorecall(recall, "c", "What is on my plate?", budget_tokens=400)
    assert [r["type"] for r in roomy.records].count("open commitment") == 3
    assert roomy.tokens > 20


def test_the_budget_caps_all_that_is_injected(memory: Memory, recall: Recall) -> None:
    """The synthetic call and its digest around the records count too (a helper saw budget 200
    inject about 274 tokens: 157 of records, the rest the wrapper)."""
    memory.write_turn("c", "hello")
    _commitments(memory, 3)
    for text in ("Prefers aisle seats on long flights", "Flies with TAP to Lisbon usually"):
        memory.save({"category": "fact", "context": text, "confidence": 7})
    carried = []
    for budget in (100, 200, 300, 1000):
        out = autorecall(recall, "c", "Which seat do I like on my flights?", budget_tokens=budget)
        injected = memory.embedder.count_tokens(injection.injected_text(out.messages))
        assert injected == out.tokens <= budget, (budget, injected, out.tokens)
        carried.append(len(out.records))
    assert carried[0] == 0 and carried == sorted(carried) and carried[-1] >= 4, carried


def test_closed_commitments_never_reach_a_turn(memory: Memory, recall: Recall) -> None:
    memory.write_turn("c", "hello")
    memory.configure(commitments={"carry_open": False})
    done = memory.save(
        {"category": "commitment", "context": "Renew the passport at the embassy", "confidence": 8}
    )
    memory.fulfil(done.id, actor="sam")
    hits = recall.search("When do I renew the passport at the embassy?", ["agent"])
    assert any(h.id == done.id for h in hits)  # still in search...
    out = autorecall(recall, "c", "When do I renew the passport at the embassy?")
    assert all(r.get("ref") != f"item:{done.id}" for r in out.records)  # ...never a turn


def test_small_talk_injects_nothing(memory: Memory, recall: Recall) -> None:
    memory.write_turns(
        "old",
        [
            {"text": "How are you doing today?", "created_at": T0},
            {"text": "I'm good, thanks for asking!", "created_at": T0 + timedelta(minutes=1)},
        ],
    )
    memory.write_turn("c", "hello")
    out = autorecall(recall, "c", "How are you today?")
    assert out.records == [] and out.messages == []
    assert is_generic("Hey Mel, how have you been?") and is_generic("ok thanks")
    assert not is_generic("How is the project going?")
    assert not is_generic("How are you getting to the airport?")


def test_only_injected_items_count_as_recalled(memory: Memory, recall: Recall) -> None:
    memory.write_turn("c", "hello")
    ids = [
        memory.save({"category": "fact", "context": text, "confidence": 7}).id
        for text in (
            "Prefers aisle seats on long flights",
            "Flies with TAP to Lisbon usually",
            "Keeps the passport in the desk drawer",
            "Has a cat called Miso",
        )
    ]
    out = autorecall(recall, "c", "Which seat do I like on flights?", budget_tokens=190)
    injected = {int(r["ref"].split(":")[1]) for r in out.records if r["type"] == "memory"}
    assert injected
    counts = {i: memory.get(i).access_count for i in ids}
    assert {i for i, n in counts.items() if n > 0} == injected


def test_a_search_then_its_hydrate_is_one_recall(memory: Memory, recall: Recall) -> None:
    item = memory.save({"category": "fact", "context": "Has a cat called Miso", "confidence": 7})
    hits = recall.search("What is the cat called?", ["agent"])
    recall.hydrate(hits)
    assert memory.get(item.id).access_count == 1


def test_a_turn_is_not_injected_beside_the_record_made_from_it(
    memory: Memory, recall: Recall
) -> None:
    """The record says the turn's fact, distilled: one line, not two (a helper saw an item and
    its own source turn in one context)."""
    memory.write_turns(
        "old",
        [
            {"text": "I swim in the mornings now, at the lido before work.", "created_at": T0},
            {"text": "Rice is my favourite food for dinner.", "created_at": T0},
        ],
    )
    memory.write_turn("c", "hello")
    made = memory.save(
        {"category": "fact", "context": "Swims in the mornings at the lido before work",
         "confidence": 7},
        chat="old", turn_seq=2, from_seq=1, to_seq=1,
    )  # fmt: skip
    out = autorecall(recall, "c", "When do I go swimming at the lido?", budget_tokens=2000)
    refs = [r.get("ref") for r in out.records]
    assert f"item:{made.id}" in refs, out.records
    assert not any(r["type"] != "memory" and "lido" in json.dumps(r) for r in out.records), refs
    assert out.skipped["in_a_record"] >= 1
