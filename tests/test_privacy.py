"""A person's records reach only that person: extraction, dedup, edges, drill-down, neighbours,
readers of items, history, commitments and the feed (issue 10, points 1-4)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import BaseModel

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
ANA_CHAT = [
    "My bank PIN is 4321, I keep forgetting it.",
    "I earn 93,000 euros a year at Orbital.",
    "I am planning to resign from Orbital in June.",
    "My divorce from Marco was finalised last month.",
    "I see my therapist Dr Oyelaran every Tuesday.",
]
SECRETS = ("4321", "93,000", "resign", "divorce", "oyelaran", "therapist")


def _people(memory: Memory) -> None:
    memory.add_person("ana")
    memory.add_person("bob")


def _write(memory: Memory, chat: str, texts: list[str], person: str | None) -> None:
    memory.write_turns(
        chat,
        [
            {"role": "user", "speaker": "Ana", "text": t, "created_at": T0 + timedelta(minutes=i)}
            for i, t in enumerate(texts)
        ],
        person=person,
    )


def _json(value: object) -> object:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else str(value)


def _leaks(out: object) -> list[str]:
    text = json.dumps(out, default=_json).lower()
    return [s for s in SECRETS if s in text]


def test_extracted_items_belong_to_their_chats_person(memory: Memory, recall: Recall) -> None:
    _people(memory)
    _write(memory, "ana-chat", ANA_CHAT, "ana")
    memory.write_turn("bob-chat", "Hello there", person="bob", created_at=T0)
    counts = run_extraction(
        memory.db, memory.store_id, Models(LocalBackend(memory.embedder)), memory.embedder, "r1"
    )
    assert counts["written"] >= 3
    items = memory.items(state=None)
    assert items and {i.person_id for i in items} == {"ana"}
    assert any("4321" in i.context for i in items)

    q = "What is Ana's bank PIN?"
    assert not _leaks([h.model_dump() for h in recall.search(q, person="bob")])
    assert not _leaks(autorecall(recall, "bob-chat", q, person="bob"))
    assert not _leaks(recall.by_period("2024-01-01", "2025-01-01", person="bob"))
    assert not _leaks(recall.hydrate([f"item:{i.item_id}" for i in items], person="bob"))
    assert not _leaks(memory.items(reader="bob"))
    assert _leaks([h.model_dump() for h in recall.search(q, person="ana")])  # ana still finds it


def test_drill_down_and_hydrate_hide_another_persons_turns(memory: Memory, recall: Recall) -> None:
    _people(memory)
    _write(memory, "ana-chat", ["Our office moves to the Lisbon building in May."], "ana")
    saved = memory.save(
        {"category": "fact", "context": "The office moves to Lisbon in May", "person": None},
        chat="ana-chat",
        turn_seq=1,
    )
    ref = f"item:{saved.id}"
    assert recall.drill_down(ref, person="ana").children  # ana opens her own turn
    assert recall.drill_down(ref, person="bob").children == []
    [seen] = recall.hydrate([ref], person="bob")
    assert (seen.chat_id, seen.from_seq, seen.to_seq) == (None, None, None)
    [hit] = [h for h in recall.search("office Lisbon", ["agent"], person="bob") if h.id == seen.id]
    assert hit.chat_id is None and hit.from_seq is None


def test_an_item_saved_in_a_persons_chat_is_theirs_unless_shared(memory: Memory) -> None:
    _people(memory)
    _write(memory, "ana-chat", ["I moved to Porto last month."], "ana")
    mine = memory.save(
        {"category": "fact", "context": "Ana lives in Porto"}, chat="ana-chat", turn_seq=1
    )
    assert memory.get(mine.id).person_id == "ana"
    with pytest.raises(ValidationError, match="person"):
        memory.save(
            {"category": "fact", "context": "Ana lives in Porto now", "person": "bob"},
            chat="ana-chat",
            turn_seq=1,
        )
    with pytest.raises(ValidationError, match="person"):  # bob's turn never lands in ana's chat
        memory.write_turn("ana-chat", "Hi, Bob here", person="bob")


def test_dedup_never_merges_or_supersedes_across_persons(memory: Memory, recall: Recall) -> None:
    _people(memory)
    lunch = memory.save_with_dedup({"category": "fact", "context": "Team lunch is on Fridays"})
    deploy = memory.save_with_dedup({"category": "fact", "context": "Deploy day is Tuesday"})
    private = memory.save_with_dedup(
        {
            "category": "fact",
            "context": "Team lunch is on Fridays, Ana goes there after her therapist session",
            "person": "ana",
            "tags": ["private"],
        }
    )
    moved = memory.save_with_dedup(
        {"category": "fact", "context": "Deploy day is Thursday", "person": "ana"}
    )
    assert private.merged_into is None and moved.superseded is None
    shared = memory.get(lunch.id)
    assert shared.tags == [] and "therapist" not in shared.context
    assert memory.get(deploy.id).state == "current"
    texts = [h.text for h in recall.search("When is deploy day?", ["agent"], person="bob")]
    assert "Deploy day is Tuesday" in texts and "Deploy day is Thursday" not in texts


def test_edges_must_point_at_records_the_item_s_person_may_read(
    memory: Memory, recall: Recall, db
) -> None:
    _people(memory)
    other = Memory(f"{memory.store_id}-x", db=db, embedder=memory.embedder)
    foreign = other.save({"category": "fact", "context": "The other store keeps this"})
    ana = memory.save({"category": "fact", "context": "Ana's sister is Rita", "person": "ana"})
    edge = {"type": "relates_to", "kind": "item"}
    for target in (999_999_999, foreign.id):
        with pytest.raises(ValidationError, match=r"edges\[0\]\.target"):
            memory.save(
                {
                    "category": "fact",
                    "context": "Family dinner on Sunday",
                    "edges": [{**edge, "target": target}],
                }
            )
    with pytest.raises(ValidationError, match=r"edges\[0\]\.target"):  # shared names ana's
        memory.save(
            {
                "category": "fact",
                "context": "Family dinner on Sunday",
                "edges": [{**edge, "target": ana.id}],
            }
        )
    with pytest.raises(ValidationError, match="fed_by"):
        memory.save({"category": "fact", "context": "Family dinner is Sunday"}, fed_by=[ana.id])
    bobs = memory.save({"category": "fact", "context": "Bob hosts on Sundays", "person": "bob"})
    linked = memory.save(
        {"category": "fact", "context": "Ana visits Rita in June", "person": "ana",
         "edges": [{**edge, "target": ana.id}]}
    )  # fmt: skip
    assert recall.neighbors(f"item:{linked.id}", person="ana")
    for ref in (f"item:{ana.id}", f"item:{linked.id}"):
        with pytest.raises(NotFound):
            recall.neighbors(ref, person="bob")
    assert recall.neighbors(f"item:{bobs.id}", person="bob") == []
    with pytest.raises(NotFound):
        memory.history(ana.id, reader="bob")
    with pytest.raises(NotFound):
        memory.get(ana.id, reader="bob")


def test_history_is_not_walked_through_another_persons_record(memory: Memory) -> None:
    """Ana's record names two shared ones as superseded (she may read both): Bob's history of
    the first must not join the second to it through her record, nor change when she writes it;
    Ana's own history walks the whole chain."""
    _people(memory)
    s1 = memory.save({"category": "fact", "context": "Parking is on level 2", "confidence": 8})
    s2 = memory.save({"category": "fact", "context": "The canteen opens at noon", "confidence": 8})
    edges = [{"type": "supersedes", "kind": "item", "target": s.id} for s in (s1, s2)]
    ana = memory.save(
        {"category": "fact", "context": "Ana parks on level 2 before therapy at noon",
         "person": "ana", "confidence": 8, "edges": edges}
    )  # fmt: skip
    assert {v.item_id for v in memory.history(s1.id, reader="bob")} == {s1.id}
    assert {v.item_id for v in memory.history(s1.id, reader="ana")} == {s1.id, s2.id, ana.id}
    assert {v.item_id for v in memory.history(s1.id)} == {s1.id, s2.id, ana.id}


def test_hidden_references_are_taken_out_of_what_a_reader_sees(
    memory: Memory, recall: Recall, db
) -> None:
    """Rows written before these checks (or by SQL) may still name a person's record: every
    read takes such references out for whoever may not see them."""
    _people(memory)
    ana = memory.save({"category": "fact", "context": "Ana's sister is Rita", "person": "ana"})
    shared = memory.save({"category": "fact", "context": "Family dinner is on Sunday"})
    with db.connection() as conn:
        conn.execute(
            "UPDATE agent_memory_items SET edges = %s::jsonb, fed_by = %s, contested_with = %s"
            " WHERE item_id = %s",
            (
                json.dumps([{"type": "relates_to", "kind": "item", "target": ana.id}]),
                [ana.id],
                [ana.id],
                shared.id,
            ),
        )
    for record in (
        recall.hydrate([f"item:{shared.id}"], person="bob")[0],
        memory.get(shared.id, reader="bob"),
        memory.items(reader="bob")[0],
    ):
        assert (record.edges, record.fed_by, record.contested_with) == ([], [], [])
    assert memory.get(shared.id).fed_by == [ana.id]  # the application sees all


def test_readers_of_commitments_and_the_feed_see_shared_and_their_own(memory: Memory) -> None:
    _people(memory)
    ana = memory.save({"category": "commitment", "context": "Ana pays Rita back", "person": "ana"})
    shared = memory.save({"category": "commitment", "context": "Team sends the report"})
    memory.delete(ana.id, actor="ana")
    assert [c.item_id for c in memory.commitments(reader="bob")] == [shared.id]
    events = list(memory.subscribe(0, reader="bob", idle_timeout=0.2))
    assert events and {e.item_id for e in events} == {shared.id}
    everything = list(memory.subscribe(0, idle_timeout=0.2))
    assert {e.item_id for e in everything} == {ana.id, shared.id}
    assert {e.kind for e in everything if e.item_id == ana.id} == {"create", "delete"}


def test_boot_window_of_another_persons_chat_is_not_found(memory: Memory) -> None:
    _people(memory)
    _write(memory, "ana-chat", ["I see my therapist every Tuesday."], "ana")
    assert memory.boot_window("ana-chat", 500, reader="ana").records
    for reader in ("bob", None):
        with pytest.raises(NotFound):
            memory.boot_window("ana-chat", 500, reader=reader)
