"""Extraction's writes: nothing of one window, chat or person reaches another's records, when
another run gets to a window first or when an extractor's answer names a record."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory_pipelines.api import Memory
from tests.race_helpers import wait_for_lock_waiter

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
FACTS = {
    "c0": "I'm allergic to penicillin, it gives me hives.",
    "c1": "We moved the team offsite to Lisbon for the first week of June.",
    "c2": "My daughter Ines starts violin lessons every Thursday after school.",
}


def _write(memory: Memory, chat: str, fact: str) -> None:
    memory.write_turns(
        chat,
        [
            {"role": "user", "speaker": "Ana", "text": fact, "created_at": T0},
            {"role": "assistant", "text": "Noted.", "created_at": T0 + timedelta(minutes=1)},
        ],
    )


def test_a_window_applied_meanwhile_keeps_its_vectors_from_the_next_windows(
    memory: Memory,
) -> None:
    """Candidates without a vector (a model's JSON answer carries none) are embedded many
    windows at a time. A window another run applied meanwhile is skipped; the windows after it
    must still get their own candidates' vectors, not the skipped window's (another chat's,
    maybe another person's)."""
    from memory_pipelines.api.extraction import apply_extracted, extract_pending, plan_windows
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    for chat, fact in FACTS.items():
        _write(memory, chat, fact)
    plan_windows(memory.db, memory.store_id, now=T0 + timedelta(days=30))
    extract_pending(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)))
    with memory.db.transaction() as conn:
        conn.execute(
            "UPDATE extraction_candidates SET embedding = NULL WHERE store_id = %s",
            (memory.store_id,),
        )
        windows = conn.execute(
            "SELECT w.window_id FROM extraction_windows w JOIN extraction_candidates c"
            " USING (window_id) WHERE w.store_id = %s AND c.valid GROUP BY w.window_id"
            " ORDER BY min(w.chat_id)",
            (memory.store_id,),
        ).fetchall()
    assert len(windows) == 3, "each chat's fact should be a candidate"
    first = windows[0]["window_id"]
    results: list[dict] = []

    def run() -> None:
        models = Models(LocalBackend(memory.embedder))
        results.append(apply_extracted(memory.db, memory.store_id, models, memory.embedder))

    thread = threading.Thread(target=run)
    # Another run holds the first window and applies it while this run waits for it.
    with memory.db.transaction() as conn:
        conn.execute("SELECT 1 FROM extraction_windows WHERE window_id = %s FOR UPDATE", (first,))
        thread.start()
        wait_for_lock_waiter(memory.db)
        conn.execute(
            "UPDATE extraction_windows SET state = 'applied' WHERE window_id = %s", (first,)
        )
    thread.join(timeout=120)
    assert results and results[0]["windows_applied"] == 2
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT context, embedding FROM agent_memory_items WHERE store_id = %s",
            (memory.store_id,),
        ).fetchall()
    assert len(rows) >= 2
    for row in rows:
        own = memory.embedder.embed([row["context"]])[0]
        assert float(np.dot(row["embedding"].to_numpy(), own)) > 0.999, row["context"]


def test_a_window_read_meanwhile_by_another_run_is_not_read_again(memory: Memory) -> None:
    """Two extract runs list the same pending window; the one that stores second must not set
    a window the other already moved on (here: applied) back to extracted, or it would be
    applied twice, its facts confirmed again by themselves."""
    from memory_pipelines.api.extraction import extract_pending, plan_windows
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    _write(memory, "c0", FACTS["c0"])
    plan_windows(memory.db, memory.store_id, now=T0 + timedelta(days=30))
    results: list[dict] = []

    def run() -> None:
        models = Models(LocalBackend(memory.embedder))
        results.append(extract_pending(memory.db, memory.store_id, models))

    thread = threading.Thread(target=run)
    with memory.db.transaction() as conn:
        window = conn.execute(
            "SELECT window_id FROM extraction_windows WHERE store_id = %s FOR UPDATE",
            (memory.store_id,),
        ).fetchone()["window_id"]
        thread.start()
        wait_for_lock_waiter(memory.db)
        # the other run: it read the window and applied it while this one read it too
        conn.execute(
            "UPDATE extraction_windows SET state = 'applied' WHERE window_id = %s", (window,)
        )
    thread.join(timeout=120)
    with memory.db.connection() as conn:
        state = conn.execute(
            "SELECT state FROM extraction_windows WHERE window_id = %s", (window,)
        ).fetchone()["state"]
        stored = conn.execute(
            "SELECT count(*) AS n FROM extraction_candidates WHERE window_id = %s", (window,)
        ).fetchone()["n"]
    assert state == "applied"
    assert stored == 0  # the late run wrote nothing of its own
    assert results and results[0]["windows_read"] == 0 and results[0]["candidates"] == 0


def test_an_extractors_links_are_not_saved(memory: Memory, pg_dsn: str) -> None:
    """A model's extraction answer that links its item to a record (here another person's) is
    saved without the link: an extractor never sees a record's id."""
    import json

    from memory_pipelines.resources import ModelResource
    from tests.fake_openai import FakeOpenAI
    from tests.test_extraction import materialize

    for person in ("ana", "ben"):
        memory.add_person(person)
    ben = memory.save({"category": "fact", "context": "Ben's PIN is 4471", "person": "ben"})
    assert ben.item is not None
    memory.configure(extraction={"backend": "openai", "model": "x"})
    memory.write_turns(
        "ana-chat",
        [
            {"role": "user", "speaker": "Ana", "text": FACTS["c0"], "created_at": T0},
            {"role": "assistant", "text": "Noted.", "created_at": T0 + timedelta(minutes=1)},
        ],
        person="ana",
    )
    edge = {"type": "relates_to", "kind": "item", "target": ben.item.id}
    answer = {
        "items": [
            {"category": "fact", "context": "Ana is allergic to penicillin", "confidence": 8,
             "from_seq": 1, "to_seq": 1, "edges": [edge]},
        ]
    }  # fmt: skip
    with FakeOpenAI([json.dumps(answer)]) as fake:
        assert materialize(memory, pg_dsn, ModelResource(base_url=fake.url)).success
    [ana] = memory.items(person="ana", state=None)
    assert ana.context == "Ana is allergic to penicillin"
    assert ana.edges == []
    with memory.db.connection() as conn:
        links = conn.execute(
            "SELECT count(*) AS n FROM links WHERE src_id = %s OR dst_id = %s",
            (ben.item.id, ben.item.id),
        ).fetchone()["n"]
    assert links == 0


def test_two_runs_planning_at_once_leave_no_turn_out_of_a_window(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run A has read a chat of 15 turns and will plan [1-15]; 15 more turns arrive and run B
    plans beside it. B plans from A's windows once A has written them: before, B read no
    window and 30 turns, planned [1-20] and [21-30], lost [1-20] on the conflict with A's
    [1-15], and turns 16-20 were in no window, never to be extracted."""
    from memory_pipelines.api import extraction as extraction_api
    from memory_pipelines.store import extraction as ex_db

    turns = [{"text": f"Turn {i}: the tomatoes went out to the balcony"} for i in range(1, 31)]
    memory.write_turns("c1", turns[:15], embed=False)
    read = {"A": threading.Event(), "B": threading.Event()}
    go, a_done = threading.Event(), threading.Event()
    insert = ex_db.insert_windows

    def paused(conn, store_id, chat_id, windows):  # type: ignore[no-untyped-def]
        me = threading.current_thread().name
        if me in read:  # this run has read the chat; its windows are not written yet
            read[me].set()
            assert (go if me == "A" else a_done).wait(60)
        return insert(conn, store_id, chat_id, windows)

    monkeypatch.setattr(ex_db, "insert_windows", paused)
    errors: list[BaseException] = []

    def plan() -> None:
        try:
            extraction_api.plan_windows(memory.db, memory.store_id)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            if threading.current_thread().name == "A":
                a_done.set()

    a = threading.Thread(target=plan, name="A")
    a.start()
    assert read["A"].wait(60)
    memory.write_turns("c1", turns[15:], embed=False)
    b = threading.Thread(target=plan, name="B")
    b.start()
    deadline = time.time() + 30
    while not read["B"].is_set():  # B read before A wrote (the race), or it waits for A
        try:
            wait_for_lock_waiter(memory.db, 0.05)
            break
        except AssertionError:
            assert time.time() < deadline, "run B neither read nor waited"
    go.set()
    a.join(60)
    b.join(60)
    assert not errors, errors
    extraction_api.plan_windows(memory.db, memory.store_id)
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT from_seq, to_seq FROM extraction_windows WHERE store_id = %s ORDER BY from_seq",
            (memory.store_id,),
        ).fetchall()
    windows = [(r["from_seq"], r["to_seq"]) for r in rows]
    covered = sorted(s for f, t in windows for s in range(f, t + 1))
    assert covered == list(range(1, 31)), windows  # every turn in one window exactly
