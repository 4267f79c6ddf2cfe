"""Dedup when the record it chose changed after it was read: a record replaced or deleted
meanwhile by a writer that does not take the person's lock (the code's writers of several
records take it; a writer of one record, or an operator's SQL, need not) is neither merged
into nor replaced; the statement is saved as a new record."""

from __future__ import annotations

import threading

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.store import items as items_db
from tests.race_helpers import wait_for_lock_waiter

FACT = "Ana's building has a bike store in the basement, code 4471"


@pytest.mark.parametrize("meanwhile", ["superseded", "deleted"])
def test_a_record_replaced_or_deleted_meanwhile_is_not_merged_into(
    memory: Memory, meanwhile: str
) -> None:
    memory.add_person("ana")
    first = memory.save({"category": "fact", "context": FACT, "person": "ana"})
    assert first.id is not None
    results: list = []
    errors: list = []

    def save_again() -> None:
        try:
            item = {"category": "fact", "context": FACT, "person": "ana"}
            results.append(memory.save_with_dedup(item))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=save_again)
    with memory.db.transaction() as conn:
        conn.execute("SELECT 1 FROM agent_memory_items WHERE item_id = %s FOR UPDATE", (first.id,))
        thread.start()
        wait_for_lock_waiter(memory.db)
        if meanwhile == "superseded":  # as a writer without the person's lock would
            old = items_db.get_item(conn, first.id)
            embedding = conn.execute(
                "SELECT embedding FROM agent_memory_items WHERE item_id = %s", (first.id,)
            ).fetchone()["embedding"]
            newer = items_db.insert_item(
                conn, memory.store_id, _input(old.context + " (since May)", "ana"),
                embedding.to_numpy(), origin="explicit", trusted=True,
            )  # fmt: skip
            items_db.supersede(conn, memory.store_id, first.id, newer.item_id, "test")
        else:  # an operator's SQL (Memory.delete waits for the person's lock)
            conn.execute("DELETE FROM agent_memory_items WHERE item_id = %s", (first.id,))
    thread.join(timeout=120)
    assert not errors, errors
    [result] = results
    assert result.saved and not result.deduplicated and result.merged_into is None
    assert result.superseded is None and result.id not in (None, first.id)
    assert "meanwhile" in result.reason
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT state, confirm_count FROM agent_memory_items WHERE item_id = %s",
            (first.id,),
        ).fetchone()
    if meanwhile == "superseded":
        assert row["state"] == "superseded" and row["confirm_count"] == 0
    else:
        assert row is None
    assert memory.get(result.id).state == "current"


def _input(context: str, person: str):
    from memory_pipelines.core.records import validate_item

    return validate_item({"category": "fact", "context": context, "person": person})


def test_a_statement_is_never_merged_into_an_insight(memory: Memory) -> None:
    """Reflection's insights are not among the records a statement is judged against, by
    the table's search or a run's pool: merged into one, a statement would go when the
    insight goes (with any record it was made from) or keep it alive past them."""
    from memory_pipelines.api.dedup_near import DedupPool, nearest
    from memory_pipelines.core.records import validate_item

    memory.add_person("ana")
    member = memory.save({"category": "fact", "context": "Ana cycles to work", "person": "ana"})
    text = "Ana cares a lot about keeping fit"
    vec = memory.embedder.embed_one(text)
    with memory.db.transaction() as conn:
        insight = items_db.insert_item(
            conn, memory.store_id,
            validate_item({"category": "insight", "context": text, "person": "ana",
                           "source": "machine", "confidence": 5}),
            vec, origin="derived", trusted=True, written_by="reflection", fed_by=[member.id],
        )  # fmt: skip
    with memory.db.connection() as conn:
        pool = DedupPool(conn, memory.store_id, memory.embedder.dim)
        for using in (None, pool):
            ids = [i.item_id for i, _ in nearest(conn, memory.store_id, "ana", vec, 5, using)]
            assert member.id in ids and insight.item_id not in ids
    result = memory.save_with_dedup({"category": "fact", "context": text, "person": "ana"})
    assert result.saved and result.merged_into is None and result.id != insight.item_id
