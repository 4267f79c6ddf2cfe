"""The write path: validation (nothing written on error), save policy, trust, history, delete."""

from __future__ import annotations

from typing import Any

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.types import SaveResult
from memory_pipelines.errors import NotFound, ValidationError

GOOD = {
    "category": "preference",
    "context": "Prefers window seats on long flights",
    "confidence": 7,
}


def _counts(memory: Memory) -> tuple[int, int, int]:
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM agent_memory_items WHERE store_id = %(s)s) AS items,"
            " (SELECT count(*) FROM item_versions WHERE store_id = %(s)s) AS versions,"
            " (SELECT count(*) FROM links WHERE store_id = %(s)s) AS links",
            {"s": memory.store_id},
        ).fetchone()
    return row["items"], row["versions"], row["links"]


@pytest.mark.parametrize(
    ("change", "field", "allowed"),
    [
        ({"category": None}, "category", "required"),
        ({"category": "Not A Slug"}, "category", "slug"),
        ({"context": ""}, "context", "required"),
        ({"context": "line one\nline two"}, "context", "one line"),
        ({"context": "x" * 301}, "context", "at most 300"),
        ({"confidence": 12}, "confidence", "1-10"),
        ({"confidence": 0}, "confidence", "1-10"),
        ({"confidence": "high"}, "confidence", "integer"),
        ({"edges": [{"type": "loves", "target": 1}]}, "edges[0].type", "relates_to"),
        ({"person": "nobody"}, "person", "not a person of store"),
        ({"tags": "not-a-list"}, "tags", "list of strings"),
        ({"valid_from": "yesterday"}, "valid_from", "ISO date"),
        ({"status": "open"}, "status", "only a commitment"),
        ({"colour": "red"}, "colour", "unknown field"),
    ],
)
def test_validation_names_field_and_writes_nothing(
    memory: Memory, change: dict[str, Any], field: str, allowed: str
) -> None:
    item = {**GOOD, **change}
    with pytest.raises(ValidationError) as err:
        memory.save(item)
    assert err.value.field == field
    assert allowed in str(err.value)
    assert _counts(memory) == (0, 0, 0)


def test_commitment_status_validated(memory: Memory) -> None:
    with pytest.raises(ValidationError, match="status"):
        memory.save(
            {
                "category": "commitment",
                "context": "Send the form to Mr Patel by Friday",
                "confidence": 8,
                "status": "maybe",
            }
        )
    assert _counts(memory) == (0, 0, 0)


def test_durable_fact_is_saved_with_provenance(memory: Memory) -> None:
    memory.add_person("ana", "Ana")
    r = memory.save(
        {**GOOD, "person": "ana", "tags": ["travel"], "importance": 6}, written_by="app-key"
    )
    assert r.saved is True
    item = memory.get(r.id)
    assert item.person_id == "ana" and item.tags == ["travel"]
    assert item.origin == "explicit" and item.trusted is True
    assert item.state == "current" and item.written_by == "app-key"
    with memory.db.connection() as conn:
        emb = conn.execute(
            "SELECT vector_dims(embedding) AS d FROM agent_memory_items WHERE item_id = %s",
            (r.id,),
        ).fetchone()["d"]
    assert emb == 384


def test_greeting_is_skipped(memory: Memory) -> None:
    r = memory.save({"category": "fact", "context": "Hi there, good morning!", "confidence": 7})
    assert r == SaveResult(saved=False, skipped="greeting")
    assert _counts(memory)[0] == 0


def test_low_confidence_speculation_is_skipped(memory: Memory) -> None:
    r = memory.save(
        {"category": "fact", "context": "Might learn Go one day, not sure", "confidence": 6}
    )
    assert r.skipped == "speculation"
    r = memory.save({"category": "fact", "context": "Owns a red bicycle", "confidence": 2})
    assert r.skipped == "speculation"


def test_restatement_is_skipped(memory: Memory) -> None:
    memory.write_turn("c", "I moved to Porto last month.")
    t = memory.write_turn("c", "Noted, you live in Porto now.", role="assistant")
    t2 = memory.write_turn("c", "Yes, Porto, I moved there last month.")
    r = memory.save(
        {"category": "fact", "context": "Moved to Porto last month", "confidence": 7},
        chat="c",
        turn_seq=t2.seq,
        from_seq=t2.seq,
    )
    assert r == SaveResult(saved=False, skipped="restatement")
    assert t.seq == 2


def test_a_health_fact_said_again_is_still_saved(memory: Memory) -> None:
    """Health, allergy and safety facts are never missed: said again, not yet a record, saved."""
    memory.write_turn("c", "I'm allergic to kiwi.")
    memory.write_turn("c", "Noted, no kiwi for you.", role="assistant")
    t2 = memory.write_turn("c", "Yes, no kiwi, I'm allergic to it.")
    r = memory.save(
        {"category": "fact", "context": "I'm allergic to kiwi", "confidence": 7},
        chat="c",
        turn_seq=t2.seq,
        from_seq=t2.seq,
    )
    assert r.saved and r.item is not None and "kiwi" in r.item.context


def test_text_already_in_history_is_skipped(memory: Memory) -> None:
    memory.write_turn("c", "Traceback: KeyError 'user_id' in billing/export.py line 42")
    r = memory.save(
        {
            "category": "fact",
            "confidence": 7,
            "context": "traceback: KeyError 'user_id' in billing/export.py line 42",
        }
    )
    assert r.skipped == "already_in_history"


def test_budget_per_turn(memory: Memory) -> None:
    t = memory.write_turn("c", "We use Postgres 16, deploy on Fridays never, and our CI is GitLab.")
    facts = [
        "Production database is Postgres 16",
        "Deploys never happen on Fridays",
        "Our CI pipelines run on GitLab",
    ]
    results = [
        memory.save({"category": "fact", "context": f, "confidence": 7}, chat="c", turn_seq=t.seq)
        for f in facts
    ]
    assert [r.saved for r in results] == [True, True, False]
    assert results[2].skipped == "budget"
    assert _counts(memory)[0] == 2


def test_derived_trust_is_the_least_of_its_inputs(memory: Memory) -> None:
    memory.write_turn("c", "Let's plan the offsite.")
    trusted = memory.save(
        {"category": "fact", "context": "Offsite budget is 5000 euros", "confidence": 8}
    ).id
    untrusted = memory.save(
        {"category": "fact", "context": "Offsite venue is the Lisbon hub", "confidence": 6},
        origin="outside",
    ).id
    assert memory.get(untrusted).trusted is False
    both = memory.save(
        {
            "category": "decision",
            "confidence": 6,
            "context": "Offsite in Lisbon because it fits the 5000 euro budget",
        },
        chat="c",
        turn_seq=1,
        fed_by=[trusted, untrusted],
    )
    only_trusted = memory.save(
        {
            "category": "decision",
            "confidence": 6,
            "context": "Offsite food budget capped at 1000 euros",
        },
        chat="c",
        turn_seq=1,
        fed_by=[trusted],
    )
    a, b = memory.get(both.id), memory.get(only_trusted.id)
    assert a.origin == "derived" and a.trusted is False and a.fed_by == [trusted, untrusted]
    assert b.origin == "derived" and b.trusted is True
    with pytest.raises(ValidationError, match="fed_by"):
        memory.save(
            {"category": "fact", "context": "Fed by a ghost", "confidence": 6},
            chat="c",
            turn_seq=1,
            fed_by=[999_999_999],
        )


def test_history_oldest_first_and_delete_cascades(memory: Memory) -> None:
    a = memory.save({"category": "fact", "context": "Team standup is at 9:30", "confidence": 7}).id
    b = memory.save(
        {
            "category": "fact",
            "context": "Team uses Linear for tickets",
            "confidence": 7,
            "edges": [{"type": "relates_to", "target": a}],
        }
    ).id
    with memory.db.transaction() as conn:
        from memory_pipelines.store import items as items_db
        from memory_pipelines.store.versions import write_version

        conn.execute("UPDATE agent_memory_items SET confidence = 9 WHERE item_id = %s", (a,))
        # the version and its event are written by one statement
        write_version(
            conn, items_db.get_item(conn, a), "update", "test", event="update", payload={"n": 9}
        )
        updated = conn.execute(
            "SELECT actor, payload FROM events WHERE store_id = %s AND item_id = %s"
            " AND kind = 'update'",
            (memory.store_id, a),
        ).fetchall()
        assert updated == [{"actor": "test", "payload": {"n": 9}}]
    versions = memory.history(a)
    assert [v.version for v in versions] == [1, 2]
    assert [v.snapshot.confidence for v in versions] == [7, 9]
    assert _counts(memory) == (2, 3, 1)
    memory.delete(a, actor="alice")
    assert _counts(memory) == (1, 1, 0)  # a's versions and the link into it are gone
    with pytest.raises(NotFound):
        memory.get(a)
    with memory.db.connection() as conn:
        ev = conn.execute(
            "SELECT kind, actor FROM events WHERE store_id = %s AND item_id = %s"
            " ORDER BY event_id DESC LIMIT 1",
            (memory.store_id, a),
        ).fetchone()
    assert ev == {"kind": "delete", "actor": "alice"}
    assert memory.get(b).state == "current"


def test_meta_chatter_and_episodes_are_not_saved(memory: Memory) -> None:
    meta = memory.save(
        {"category": "fact", "context": "The user asked me a question about the weather"}
    )
    assert meta == SaveResult(saved=False, skipped="meta_chatter")
    episode = memory.save(
        {"category": "episode", "context": "Planned the move to Porto and compared two vans"}
    )
    assert episode == SaveResult(saved=False, skipped="already_in_history")
    kept = memory.save({"category": "fact", "context": "The user told me she is allergic to kiwi"})
    assert kept.saved
    assert _counts(memory)[0] == 1
