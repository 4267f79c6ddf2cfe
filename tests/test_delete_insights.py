"""Deleting a record deletes the insights reflection made from it: an insight states what its
records said, and a deleted record's words must not outlive it (found by an audit helper: a
person deleted every record they wrote and reflection's insight still said them). Insights of
other records, and records an application saved with `fed_by`, stay. Nor do the extracted
candidates that made or confirmed a record keep its words or their vectors (found by a reader
of the spec: analysts still read "Ana is allergic to penicillin." there after its delete)."""

from __future__ import annotations

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.reflection import reflect
from memory_pipelines.core.records import trust_for, validate_item
from memory_pipelines.store import items as items_db

ANA = [  # a cluster by similarity alone (tests/test_reflection.py)
    "Ana prefers morning meetings before 10am",
    "Ana does not want meetings on Fridays",
    "Ana asked to keep standups short, under 15 minutes",
]


def _add(memory: Memory, texts: list[str]) -> list[int]:
    vecs = memory.embedder.embed(texts)
    with memory.db.transaction() as conn:
        return [
            items_db.insert_item(
                conn,
                memory.store_id,
                validate_item({"category": "fact", "confidence": 8, "context": t}),
                vec,
                origin="explicit",
                trusted=trust_for("explicit", []),
            ).item_id
            for t, vec in zip(texts, vecs, strict=True)
        ]


def test_an_insight_goes_with_a_record_it_was_made_from(memory: Memory) -> None:
    members = _add(memory, ANA)
    assert (
        reflect(memory.db, memory.store_id, memory.models, memory.embedder)["insights_created"] == 1
    )
    [insight] = memory.items(category="insight")
    assert sorted(insight.fed_by) == sorted(members)
    # an application's own derived record, fed by the same record, is the application's
    derived = memory.save(
        {"category": "fact", "context": "Ana's calendar rules are in the team wiki.",
         "confidence": 7},
        origin="explicit", fed_by=[members[0]],
    )  # fmt: skip
    assert derived.saved and derived.id is not None
    memory.delete(members[0], actor="ana's key")
    assert memory.items(category="insight", state=None) == []
    assert {i.item_id for i in memory.items()} == {*members[1:], derived.id}
    with memory.db.connection() as conn:
        events = conn.execute(
            "SELECT kind, item_id, actor FROM events WHERE store_id = %s AND kind = 'delete'",
            (memory.store_id,),
        ).fetchall()
    assert {(e["item_id"], e["actor"]) for e in events} == {
        (members[0], "ana's key"),
        (insight.item_id, "ana's key"),
    }
    # deleting another member, with no insight left, deletes only it
    memory.delete(members[1], actor="ana's key")
    assert {i.item_id for i in memory.items()} == {members[2], derived.id}


def test_deleting_a_correction_brings_no_old_value_back(memory: Memory) -> None:
    """The record a deleted one had replaced stays replaced, its history readable: a delete is
    no undo (deleting a new address for privacy must not make the old one current again)."""
    old = memory.save({"category": "fact", "context": "Noor lives at 4 Elm Road", "confidence": 8})
    new = memory.save_with_dedup(
        {"category": "fact", "context": "Noor has moved, she lives at 9 Birch Lane now",
         "confidence": 8}
    )  # fmt: skip
    assert new.superseded == old.id and new.id is not None
    memory.delete(new.id, actor="noor")
    kept = memory.get(old.id)
    assert kept.state == "superseded" and kept.superseded_by is None
    assert [v.change for v in memory.history(old.id)][-1] == "superseded"
    assert memory.items(state="current") == []


def test_a_deleted_records_extracted_candidates_keep_where_not_what(memory: Memory) -> None:
    memory.write_turns(
        "c1",
        [
            {"role": "user", "speaker": "Ana", "text": "I'm allergic to penicillin."},
            {"role": "assistant", "text": "Noted."},
            {"role": "user", "speaker": "Ana", "text": "My sister Leah lives in Porto."},
        ],
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    items = {i.context: i.item_id for i in memory.items()}
    gone = next(i for c, i in items.items() if "penicillin" in c)
    kept = next(i for c, i in items.items() if "Porto" in c)
    memory.delete(gone, actor="ana")
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT item_id, payload, embedding IS NULL AS no_vector FROM extraction_candidates"
            " WHERE store_id = %s AND item_id IS NOT NULL",
            (memory.store_id,),
        ).fetchall()
    by_item = {r["item_id"]: r for r in rows}
    assert "penicillin" not in str(by_item[gone]["payload"]) and by_item[gone]["no_vector"]
    assert by_item[gone]["payload"]["deleted"] is True
    assert isinstance(by_item[gone]["payload"]["from_seq"], int)  # where it was said stays
    assert "Porto" in by_item[kept]["payload"]["context"]  # another record's are untouched
