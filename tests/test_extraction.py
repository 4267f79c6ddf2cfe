"""Extraction through Dagster: windows -> candidates -> memory items, idempotent and resumable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import EXTRACTOR
from memory_pipelines.definitions import ASSETS
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
CHAT = [
    ("user", "Ana", "Morning!"),
    ("assistant", "", "Good morning, how can I help?"),
    ("user", "Ana", "I always want prices quoted with VAT included, I forget to add it."),
    ("assistant", "", "Understood, VAT included from now on."),
    ("user", "Ana", "We're going with Flutter so one team can ship both apps."),
    ("user", "Ana", "Thanks, that's all for today."),
]


def _write(memory: Memory, chat: str, turns: list[tuple[str, str, str]], start: datetime) -> None:
    memory.write_turns(
        chat,
        [
            {"role": r, "speaker": s, "text": t, "created_at": start + timedelta(minutes=i)}
            for i, (r, s, t) in enumerate(turns)
        ],
    )


def materialize(
    memory: Memory, pg_dsn: str, model: ModelResource | None = None
) -> dg.ExecuteInJobResult:
    """Every asset for the memory's store (`model`: the model resource, default local)."""
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        return dg.materialize(
            ASSETS,
            partition_key=memory.store_id,
            instance=instance,
            resources={
                "store": StoreResource(dsn=pg_dsn),
                "embedder": EmbedderResource(),
                "model": model or ModelResource(),
            },
        )


def _meta(result: dg.ExecuteInJobResult, asset: str) -> dict:
    mat = result.asset_materializations_for_node(asset)[0]
    return unscoped(mat.partition or "", mat.metadata)


def test_pipeline_extracts_stable_facts_with_provenance(memory: Memory, pg_dsn: str) -> None:
    _write(memory, "c1", CHAT, T0)
    result = materialize(memory, pg_dsn)
    assert result.success
    meta = _meta(result, "memory_items")
    items = memory.items()
    contexts = " | ".join(i.context for i in items)
    assert meta["written"] == len(items) >= 2
    assert "VAT" in contexts and "Flutter" in contexts
    assert "Morning" not in contexts and "Thanks" not in contexts
    for i in items:
        assert i.confidence <= 6 and i.source == "machine"
        assert i.chat_id is not None and 1 <= i.from_seq <= i.to_seq <= len(CHAT)
        assert i.written_by == EXTRACTOR and i.origin == "derived"
    flutter = next(i for i in items if "Flutter" in i.context)
    assert flutter.category == "decision" and flutter.from_seq == 5
    assert "Ana" in flutter.context or "We" in flutter.context
    assert all(c.passed for c in result.get_asset_check_evaluations())
    with memory.db.connection() as conn:
        p = conn.execute(
            "SELECT * FROM extraction_passes WHERE store_id = %s", (memory.store_id,)
        ).fetchone()
    assert p["windows_read"] == 1 and p["written"] == len(items) and p["model_calls"] >= 1
    # Each step's table as Dagster's catalog counts it: the store's rows, not this run's.
    assert _meta(result, "conversation_windows")["dagster/row_count"] == 1
    assert _meta(result, "extracted_candidates")["dagster/row_count"] == p["candidates"] >= 2

    # a re-run over the same turns writes nothing new
    again = materialize(memory, pg_dsn)
    assert _meta(again, "memory_items")["written"] == 0
    assert len(memory.items()) == len(items)


def test_fact_said_again_confirms_and_correction_supersedes(memory: Memory, pg_dsn: str) -> None:
    _write(
        memory,
        "c1",
        [
            ("user", "Ana", "Our API gateway times out requests after 30 seconds."),
            ("assistant", "", "Good to know."),
        ],
        T0,
    )
    materialize(memory, pg_dsn)
    [first] = memory.items()
    _write(
        memory,
        "c2",
        [
            (
                "user",
                "Ana",
                "Reminder: the API gateway times out requests after 30 seconds, keep calls short.",
            ),
            ("assistant", "", "Will do."),
        ],
        T0 + timedelta(days=1),
    )
    materialize(memory, pg_dsn)
    assert memory.get(first.item_id).confirm_count >= 1
    _write(
        memory,
        "c3",
        [
            ("user", "Ana", "The API gateway timeout is now 60 seconds, we raised it yesterday."),
            ("assistant", "", "Thanks for the update."),
        ],
        T0 + timedelta(days=2),
    )
    result = materialize(memory, pg_dsn)
    assert _meta(result, "memory_items")["superseded"] == 1
    assert memory.get(first.item_id).state == "superseded"


def test_extraction_can_be_switched_off(memory: Memory, pg_dsn: str) -> None:
    memory.configure(extraction={"enabled": False})
    _write(memory, "c1", CHAT, T0)
    result = materialize(memory, pg_dsn)
    assert _meta(result, "conversation_windows")["windows_new"] == 0
    assert memory.items() == []


APPLY = """
import sys
from memory_pipelines.api.extraction import apply_extracted
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import get_embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store.db import get_database
e = get_embedder()
apply_extracted(get_database(), sys.argv[1], Models(LocalBackend(e)), e)
"""


def test_killed_run_leaves_whole_windows_and_next_run_completes(
    memory: Memory, db, embedder, pg_dsn: str
) -> None:
    from memory_pipelines.api.extraction import apply_extracted, extract_pending, plan_windows
    from memory_pipelines.api.ingest import ingest_chats
    from memory_pipelines.core.conversations import load_chats
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend
    from tests.conftest import LOCOMO

    chats, _ = load_chats(LOCOMO)
    chat = chats[0]
    chat.turns = chat.turns[:160]
    twin = Memory(memory.store_id + "-twin", db=db, embedder=embedder)
    models = Models(LocalBackend(embedder))
    for m in (memory, twin):
        m.configure(extraction={"batch_size": 8})
        ingest_chats(m, [chat])
        plan_windows(db, m.store_id)
        extract_pending(db, m.store_id, models)
    apply_extracted(db, twin.store_id, models, embedder)  # the uninterrupted reference

    proc = subprocess.Popen(
        [sys.executable, "-c", APPLY, memory.store_id], env={**os.environ, "MEMORY_PG_DSN": pg_dsn}
    )
    deadline = time.time() + 120
    applied = 0
    while time.time() < deadline and applied < 2:
        with db.connection() as conn:
            applied = conn.execute(
                "SELECT count(*) AS n FROM extraction_windows WHERE store_id"
                " = %s AND state = 'applied'",
                (memory.store_id,),
            ).fetchone()["n"]
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with db.connection() as conn:
        states = conn.execute(
            "SELECT w.state, count(c.outcome) AS decided, count(c.candidate_id) FILTER"
            " (WHERE c.valid) AS valid FROM extraction_windows w LEFT JOIN extraction_candidates c"
            " USING (window_id) WHERE w.store_id = %s GROUP BY w.window_id, w.state",
            (memory.store_id,),
        ).fetchall()
    assert any(s["state"] == "extracted" for s in states), "the kill came too late to test"
    for s in states:  # a window is either wholly applied or not at all
        assert s["decided"] == (s["valid"] if s["state"] == "applied" else 0)

    apply_extracted(db, memory.store_id, models, embedder)
    with db.connection() as conn:
        left = conn.execute(
            "SELECT count(*) AS n FROM extraction_windows WHERE store_id = %s"
            " AND state <> 'applied'",
            (memory.store_id,),
        ).fetchone()["n"]
    assert left == 0
    got = sorted(i.context for i in memory.items(state=None, limit=1000))
    want = sorted(i.context for i in twin.items(state=None, limit=1000))
    assert got == want and got


def test_two_concurrent_apply_runs_apply_each_window_once(memory: Memory) -> None:
    import threading

    from memory_pipelines.api.extraction import apply_extracted, extract_pending, plan_windows
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    for n in range(3):  # three conversations, a window each
        _write(memory, f"c{n}", CHAT, T0 + timedelta(days=n))
    plan = plan_windows(memory.db, memory.store_id, now=T0 + timedelta(days=30))
    extract_pending(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)))
    results: list[dict] = []

    def run() -> None:
        models = Models(LocalBackend(memory.embedder))  # one per thread, like two processes
        results.append(apply_extracted(memory.db, memory.store_id, models, memory.embedder))

    threads = [threading.Thread(target=run) for _ in range(2)]
    # Hold the windows' rows so both runs list them as waiting and then race for each one.
    with memory.db.transaction() as conn:
        conn.execute(
            "SELECT window_id FROM extraction_windows WHERE store_id = %s FOR UPDATE",
            (memory.store_id,),
        )
        for t in threads:
            t.start()
        time.sleep(1.0)
    for t in threads:
        t.join()
    assert plan["windows_new"] == 3
    assert sum(r["windows_applied"] for r in results) == 3  # none applied twice
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FILTER (WHERE outcome IS NULL) AS open, count(*) AS n,"
            " count(DISTINCT item_id) AS items FROM extraction_candidates WHERE store_id = %s"
            " AND valid",
            (memory.store_id,),
        ).fetchone()
        current = conn.execute(
            "SELECT count(*) AS n FROM agent_memory_items WHERE store_id = %s"
            " AND state = 'current'",
            (memory.store_id,),
        ).fetchone()
    assert row["open"] == 0 and row["n"] == 3 * 2  # two facts a conversation
    # The same two facts told three times: two items, each confirmed twice.
    assert current["n"] == 2 and row["items"] == 2


def test_a_windows_earlier_turns_come_marked_as_context(memory: Memory) -> None:
    """window_turns shows a window with the turns said just before it, marked so the
    extractor reads them and takes nothing from them (their own window did)."""
    from memory_pipelines.store.extraction import CONTEXT_TURNS, window_turns

    memory.write_turns("c", [{"text": f"Turn number {n}."} for n in range(1, 9)], embed=False)
    with memory.db.connection() as conn:
        chat_id = conn.execute(
            "SELECT chat_id FROM turns WHERE store_id = %s LIMIT 1", (memory.store_id,)
        ).fetchone()["chat_id"]
        got = window_turns(conn, chat_id, 6, 8)
    assert [t.seq for t in got] == list(range(6 - CONTEXT_TURNS, 9))
    assert [t.seq for t in got if t.context] == list(range(6 - CONTEXT_TURNS, 6))
