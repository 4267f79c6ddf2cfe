"""Writers that change several records of their own choosing (evolution, a delete with the
records it contests) take the records' persons' locks first, as a dedup window does: a window
locks records in the judge's order, evolution in id order, and crossing on two records the
two deadlocked, and one of them failed (an extraction run, evolution's whole pass, or an
agent's delete)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api import evolution as evolution_api
from memory_pipelines.api.dedup import save_deduplicated
from memory_pipelines.api.dedup_near import DedupPool, Provenance
from memory_pipelines.core.evolution import Refresh
from memory_pipelines.core.records import validate_item
from memory_pipelines.store import items as items_db
from memory_pipelines.store import maintenance as maint_db
from tests.race_helpers import wait_for_lock_waiter

A_TEXT = "Ben stores his canoe in the garage behind the flat"
B_TEXT = "Ben's son has swimming practice on Tuesday evenings"


def _evolution_meets(memory: Memory, monkeypatch: pytest.MonkeyPatch, a: int, b: int,
                     other: Callable[[], None]) -> dict[str, BaseException]:  # fmt: skip
    """Evolution refreshes a then b (id order) and pauses once it holds a's row; `other`
    starts then, and evolution goes on once `other` waits on a lock."""
    holds_a, go = threading.Event(), threading.Event()
    get_item = items_db.get_item

    def paused(conn, item_id, **kw):  # type: ignore[no-untyped-def]
        item = get_item(conn, item_id, **kw)
        if threading.current_thread().name == "evolution" and item_id == a:
            holds_a.set()
            assert go.wait(60)
        return item

    monkeypatch.setattr(evolution_api.items_db, "get_item", paused)
    errors: dict[str, BaseException] = {}

    def run(name: str, body: Callable[[], None]) -> Callable[[], None]:
        def wrapped() -> None:
            try:
                body()
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors[name] = exc

        return wrapped

    def evolve() -> None:
        with memory.db.transaction() as conn:
            refreshes = [Refresh(a, ("boats",), ()), Refresh(b, ("sport",), ())]
            evolution_api.apply(conn, memory.store_id, refreshes)

    evo = threading.Thread(target=run("evolution", evolve), name="evolution")
    evo.start()
    assert holds_a.wait(60)
    second = threading.Thread(target=run("other", other), name="other")
    second.start()
    wait_for_lock_waiter(memory.db)  # the other writer waits (before: on a, holding b)
    go.set()
    evo.join(120)
    second.join(120)
    return errors


def _two(memory: Memory) -> tuple[int, int]:
    memory.add_person("ben")
    a = memory.save({"category": "fact", "context": A_TEXT, "person": "ben"}).id
    b = memory.save({"category": "fact", "context": B_TEXT, "person": "ben"}).id
    assert a is not None and b is not None and a < b
    return a, b


def test_evolution_and_a_dedup_window_crossing_on_two_records_both_finish(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _two(memory)

    def window() -> None:  # as apply_extracted: the persons' lock, then b restated, then a
        with memory.db.connection() as conn:
            pool = DedupPool(conn, memory.store_id, memory.embedder.dim)
        with memory.db.transaction() as conn:
            pool.lock_and_refresh(conn, ["ben"])
            prov = Provenance(origin="derived", trusted=True, written_by="extraction@v1")
            for text in (B_TEXT, A_TEXT):
                item = validate_item({"category": "fact", "context": text, "person": "ben"})
                vec = memory.embedder.embed_one(text)
                res = save_deduplicated(conn, memory.store_id, item, vec, memory.models, prov, pool)
                assert res.deduplicated, res

    assert _evolution_meets(memory, monkeypatch, a, b, window) == {}
    assert "boats" in memory.get(a).tags and "sport" in memory.get(b).tags
    assert memory.get(a).confirm_count == memory.get(b).confirm_count == 1


def test_evolution_and_deleting_a_contested_record_both_finish(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _two(memory)
    md5 = tuple(
        hashlib.md5(t.encode(), usedforsecurity=False).hexdigest() for t in (A_TEXT, B_TEXT)
    )
    with memory.db.transaction() as conn:
        assert maint_db.contest(conn, memory.store_id, a, b, md5, "test")

    def delete() -> None:  # locks b, then updates a (which contests it)
        memory.delete(b, actor="agent")

    assert _evolution_meets(memory, monkeypatch, a, b, delete) == {}
    assert memory.get(a).contested_with == [] and "boats" in memory.get(a).tags
    with memory.db.connection() as conn:
        gone = conn.execute("SELECT 1 FROM agent_memory_items WHERE item_id = %s", (b,))
        assert gone.fetchone() is None


def test_a_recall_never_waits_for_a_writer_holding_one_of_its_records(memory: Memory) -> None:
    """A search counts its hits' recall; a record a writer holds then is not counted (before,
    the search waited for the writer holding the hits it had counted, and a writer coming to
    want one of those deadlocked with it)."""
    from memory_pipelines.store import item_reads

    a, b = _two(memory)
    done = threading.Event()

    def touch() -> None:
        with memory.db.connection() as conn:
            item_reads.touch_items(conn, [a, b])
        done.set()

    with memory.db.transaction() as held:
        held.execute("SELECT 1 FROM agent_memory_items WHERE item_id = %s FOR UPDATE", (a,))
        thread = threading.Thread(target=touch)
        thread.start()
        finished = done.wait(10)
    thread.join(30)
    assert finished, "the recall waited for the writer"
    assert memory.get(b).access_count == 1 and memory.get(a).access_count == 0


def test_a_recall_counted_in_a_readers_transaction_gives_up_on_a_writer_and_goes_on(
    memory: Memory,
) -> None:
    """Inside an audited read's transaction: the held record goes uncounted after a short
    wait, the transaction stays usable and keeps its own lock_timeout."""
    from memory_pipelines.store import item_reads

    a, b = _two(memory)
    with memory.db.transaction() as writer:
        writer.execute("SELECT 1 FROM agent_memory_items WHERE item_id = %s FOR UPDATE", (a,))
        with memory.db.transaction() as reader:
            reader.execute("SET LOCAL lock_timeout = '5s'")
            item_reads.touch_items(reader, [a, b])
            row = reader.execute("SELECT current_setting('lock_timeout') AS v").fetchone()
            assert row["v"] == "5s"
    assert memory.get(b).access_count == 1 and memory.get(a).access_count == 0
