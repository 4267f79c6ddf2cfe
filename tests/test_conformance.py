"""Where the code bent the specs (issue 11, conformance): each test failed before its fix."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.calls import metered_calls
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.confidence import as_unit, least_stored
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import stores as stores_db

T0 = datetime(2024, 5, 6, 10, 0, tzinfo=UTC)


def test_a_save_during_a_turn_is_valid_from_the_turns_time(memory: Memory, recall: Recall) -> None:
    memory.write_turns(
        "c",
        [
            {"text": "We ship the importer on Friday.", "created_at": T0},
            {"text": "And we picked sqlite for it: simpler ops.", "created_at": T0 + timedelta(1)},
        ],
    )
    saved = memory.save(
        {"category": "decision", "context": "Picked sqlite for the importer: simpler ops"},
        chat="c",
        turn_seq=2,
    )
    assert memory.get(saved.id).valid_from == T0 + timedelta(1)
    rows = recall.by_period(T0, T0 + timedelta(days=2)).records
    assert ("item", saved.id) in {(r.kind, r.id) for r in rows}
    explicit = memory.save(
        {"category": "fact", "context": "The importer runs nightly", "validFrom": "2024-01-01"},
        chat="c",
        turn_seq=2,
    )
    assert memory.get(explicit.id).valid_from == datetime(2024, 1, 1, tzinfo=UTC)


def test_extracted_items_are_valid_from_the_turn_that_said_them(memory: Memory) -> None:
    memory.write_turns(
        "c",
        [
            {"speaker": "Ana", "text": "Morning!", "created_at": T0},
            {"speaker": "Ana", "text": "I'm allergic to peanuts.", "created_at": T0 + timedelta(1)},
        ],
    )
    run_extraction(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)),
                   memory.embedder, "r1")  # fmt: skip
    items = memory.items()
    assert items and all(i.valid_from == T0 + timedelta(1) for i in items)


def test_the_specs_call_shapes_work(memory: Memory, recall: Recall, db) -> None:
    first = memory.save_with_dedup(
        {"category": "decision", "context": "picked sqlite for the importer: simpler ops",
         "confidence": 8, "validFrom": "2024-03-01"},
        recall=recall,
    )  # fmt: skip
    assert first.saved and memory.get(first.id).valid_from.date().isoformat() == ("2024-03-01")
    with pytest.raises(ValidationError, match="recall"):
        memory.save_with_dedup(
            {"category": "fact", "context": "x is y"},
            recall=Recall(f"{memory.store_id}-other", db=db),
        )
    with pytest.raises(ValidationError, match="validFrom"):
        memory.save(
            {"category": "fact", "context": "a b", "validFrom": "2024-01-01", "valid_from": "2024"}
        )


def test_minimum_confidence_is_0_to_1(memory: Memory) -> None:
    for c in (6, 8, 10):
        memory.save({"category": "fact", "context": f"Fact number {c} holds", "confidence": c})
    assert {i.confidence for i in memory.items(min_confidence=0.8)} == {8, 10}
    assert {i.confidence for i in memory.items(min_confidence=0.75)} == {8, 10}
    assert len(memory.items(min_confidence=0)) == 3
    assert memory.items(min_confidence=1) and len(memory.items(min_confidence=1)) == 1
    with pytest.raises(ValidationError, match="min_confidence"):
        memory.items(min_confidence=8)
    assert (as_unit(7), least_stored(0.7), least_stored(0.71)) == (0.7, 7, 8)


def test_knowledge_graph_switch_changes_the_ranking(memory: Memory, recall: Recall) -> None:
    memory.write_turns(
        "c",
        [
            {"speaker": "Priya", "text": "The bakery near me sells great rye.", "created_at": T0},
            {"speaker": "Tom", "text": "Rye bread is the best with soup.", "created_at": T0},
        ],
    )
    on = recall.search("What did Priya say about rye bread?", ["history"])
    memory.configure(search={"knowledge_graph": False})
    off = recall.search("What did Priya say about rye bread?", ["history"])
    assert [h.score for h in on] != [h.score for h in off]
    priya = {h.id: h.score for h in on if h.extra.get("speaker") == "Priya"}
    assert all(priya[h.id] > h.score for h in off if h.id in priya)  # the name no longer counts


def test_the_reranker_is_a_metered_model_call(memory: Memory, recall: Recall) -> None:
    for text in (
        "The office plants need water twice a week, and the big fern likes the shade.",
        "Lunch is at noon. The spare office key is in the red drawer of the front desk.",
        "The printer on the second floor jams on thick paper.",
    ):
        memory.save({"category": "fact", "context": text, "confidence": 7})
    before = recall.search("Where is the spare key?", ["agent"], k=3)
    memory.configure(search={"reranker": "local"})
    after = recall.search("Where is the spare key?", ["agent"], k=3, request_id="req-1")
    assert after[0].text.startswith("Lunch is at noon")  # its one sentence answers
    assert {h.id for h in after} == {h.id for h in before}
    [row] = [r for r in metered_calls(memory.db, memory.store_id) if r["task"] == "rerank"]
    assert (row["calls"], row["runs"], row["backend"]) == (1, 1, "local")


def test_every_model_call_names_its_run_or_request(memory: Memory) -> None:
    memory.save_with_dedup({"category": "fact", "context": "Deploy day is Tuesday"})
    memory.save_with_dedup({"category": "fact", "context": "Deploys happen on Tuesdays"})
    memory.write_turns(
        "c",
        [
            {"speaker": "Ana", "text": "Morning!", "created_at": T0},
            {"speaker": "Ana", "text": "I'm allergic to peanuts.", "created_at": T0},
        ],
    )
    run_extraction(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)),
                   memory.embedder, "run-7")  # fmt: skip
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT task, run_id FROM model_calls WHERE store_id = %s", (memory.store_id,)
        ).fetchall()
    assert rows and all(r["run_id"] for r in rows)
    assert {r["run_id"] for r in rows if r["task"] == "extract"} == {"run-7"}
    assert len({r["run_id"] for r in rows if r["run_id"].startswith("request:")}) >= 1
    report = metered_calls(memory.db, memory.store_id, since="2000-01-01")
    assert sum(r["calls"] for r in report) == len(rows)
    assert metered_calls(memory.db, memory.store_id, until="2000-01-01") == []


def test_a_store_with_extraction_on_cannot_be_deleted(memory: Memory) -> None:
    memory.save({"category": "fact", "context": "Keep me"})
    with pytest.raises(ValidationError, match="switch extraction off first"):
        memory.delete_store(actor="admin")
    assert memory.items()
    memory.configure(extraction={"enabled": False})
    memory.delete_store(actor="admin")
    with memory.db.connection() as conn:
        assert (
            conn.execute("SELECT 1 FROM stores WHERE store_id = %s", (memory.store_id,)).fetchone()
            is None
        )
        [event] = conn.execute(
            "SELECT kind, actor FROM events WHERE store_id = %s", (memory.store_id,)
        ).fetchall()
    assert event == {"kind": "delete_store", "actor": "admin"}


def test_labels_are_set_when_written_and_read_only_afterwards(memory: Memory) -> None:
    saved = memory.save(
        {"category": "fact", "context": "Invoices go out monthly", "labels": ["finance", "q3"]}
    )
    assert memory.get(saved.id).labels == ["finance", "q3"]
    with pytest.raises(ValidationError, match="labels"):
        memory.save({"category": "fact", "context": "x y", "labels": "finance"})
    with memory.db.connection() as conn, pytest.raises(Exception, match="read-only"):
        conn.execute(
            "UPDATE agent_memory_items SET labels = '{other}' WHERE item_id = %s", (saved.id,)
        )


def test_history_of_an_old_version_shows_what_replaced_it(memory: Memory) -> None:
    old = memory.save_with_dedup({"category": "fact", "context": "Lives in Leeds", "confidence": 7})
    new = memory.save_with_dedup(
        {"category": "fact", "context": "Moved from Leeds to York in May", "confidence": 7}
    )
    assert new.superseded == old.id
    for item in (old.id, new.id):
        versions = memory.history(item)
        assert {v.item_id for v in versions} == {old.id, new.id}
    superseded = memory.get(old.id)
    assert superseded.valid_until is not None


def test_neighbors_show_replaced_wordings_and_when(memory: Memory, recall: Recall) -> None:
    old = memory.save_with_dedup({"category": "fact", "context": "Lives in Leeds", "confidence": 7})
    new = memory.save_with_dedup(
        {"category": "fact", "context": "Moved from Leeds to York in May", "confidence": 7}
    )
    [link] = recall.neighbors(f"item:{new.id}")
    assert (link.link_type, link.id, link.state) == ("supersedes", old.id, "superseded")
    assert link.at is not None
    assert new.id is not None and recall.neighbors(new.id) == [link]  # the spec's neighbors(id)
    assert old.id is not None and memory.get(old.id).access_count == 0  # shown, not recalled


def test_a_reranker_with_no_endpoint_keeps_the_search_order(
    memory: Memory, recall: Recall, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model named on the Search card while the server has no endpoint configured: the
    search answers in its own order and the call is recorded as failed (it was a 500)."""
    monkeypatch.delenv("MEMORY_LLM_BASE_URL", raising=False)
    for text in ("The spare key is in the red drawer.", "The printer jams on thick paper."):
        memory.save({"category": "fact", "context": text, "confidence": 7})
    before = recall.search("Where is the spare key?", ["agent"], k=2)
    memory.configure(search={"reranker": "some-remote-reranker"})
    after = recall.search("Where is the spare key?", ["agent"], k=2, request_id="req-2")
    assert [h.id for h in after] == [h.id for h in before]
    [row] = [r for r in metered_calls(memory.db, memory.store_id) if r["task"] == "rerank"]
    assert (row["backend"], row["model"], row["outcome"]) == (
        "openai",
        "some-remote-reranker",
        "error",
    )


def test_one_card_reads_as_the_whole_settings_do(memory: Memory, db) -> None:
    memory.configure(search={"knowledge_graph": False, "reranker": "rr-model"})
    with db.connection() as conn:
        card = stores_db.get_card(conn, memory.store_id, "search")
        assert card == stores_db.get_settings(conn, memory.store_id).search
        assert (card.knowledge_graph, card.reranker) == (False, "rr-model")
        with pytest.raises(NotFound, match="does not exist"):
            stores_db.get_card(conn, "no-such-store", "search")
        with pytest.raises(ValueError, match="unknown settings card"):
            stores_db.get_card(conn, memory.store_id, "store_id")
