"""Turns: append-only, dense seqs under concurrent writers, LoCoMo ingest."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.core.conversations import load_chats
from tests.conftest import LOCOMO


def test_concurrent_writers_keep_seq_dense(memory: Memory) -> None:
    memory.write_turn("chat", "first")  # create the chat before the race
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(15):
                memory.write_turns("chat", [{"text": f"w{n} t{i}"}], embed=False)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with memory.db.connection() as conn:
        seqs = [
            r["seq"]
            for r in conn.execute(
                "SELECT seq FROM turns t JOIN chats c USING (chat_id)"
                " WHERE c.store_id = %s ORDER BY seq",
                (memory.store_id,),
            )
        ]
    assert seqs == list(range(1, 6 * 15 + 2))


def test_turns_are_append_only(memory: Memory) -> None:
    t = memory.write_turn("c", "original text")
    with memory.db.connection() as conn, pytest.raises(psycopg.errors.RaiseException):
        conn.execute("UPDATE turns SET text = 'edited' WHERE turn_id = %s", (t.turn_id,))


def test_write_turn_validates_role(memory: Memory) -> None:
    from memory_pipelines.errors import ValidationError

    with pytest.raises(ValidationError, match="role"):
        memory.write_turn("c", "hi", role="robot")
    with memory.db.connection() as conn:
        assert (
            conn.execute(
                "SELECT count(*) AS n FROM turns WHERE store_id = %s", (memory.store_id,)
            ).fetchone()["n"]
            == 0
        )


def test_an_ingest_that_stops_half_way_says_what_was_written_and_resumes(
    memory: Memory,
) -> None:
    """When a batch's write fails (here its connection is killed while it waits for the
    chat's row), the error counts the batches written before it, nothing after it is written,
    and the same ingest resumes."""
    from memory_pipelines.api.ingest import BATCH
    from memory_pipelines.core.conversations import Chat
    from memory_pipelines.errors import StoreError

    turns = [{"text": f"Turn number {n}.", "speaker": "Ana"} for n in range(1, 2 * BATCH + 51)]
    blocker = psycopg.connect(memory.db.dsn)
    done: list[int] = []

    def kill_the_waiting_write() -> None:
        with psycopg.connect(memory.db.dsn, autocommit=True) as admin:
            for _ in range(400):
                waiting = admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                    (blocker.info.backend_pid,),
                ).fetchone()
                if waiting:
                    admin.execute("SELECT pg_terminate_backend(%s)", (waiting[0],))
                    break
                time.sleep(0.05)
        blocker.rollback()

    killer = threading.Thread(target=kill_the_waiting_write)

    def progress(n: int) -> None:  # after the first batch, the chat's row is locked elsewhere
        done.append(n)
        if len(done) == 1:
            blocker.execute(
                "SELECT 1 FROM chats WHERE store_id = %s FOR UPDATE", (memory.store_id,)
            )
            killer.start()

    try:
        with pytest.raises(StoreError) as err:
            ingest_chats(memory, [Chat("c", [dict(t) for t in turns])], progress=progress)
    finally:
        killer.join()
        blocker.close()
    assert f"after {BATCH} turns ({BATCH} new) were written" in str(err.value)
    assert done == [BATCH]
    summary = ingest_chats(memory, [Chat("c", [dict(t) for t in turns])])
    assert (summary.turns_read, summary.turns_written) == (len(turns), len(turns) - BATCH)
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT seq, text, embedding IS NOT NULL AS embedded FROM turns"
            " WHERE store_id = %s ORDER BY seq",
            (memory.store_id,),
        ).fetchall()
    assert [r["text"] for r in rows] == [t["text"] for t in turns]
    assert [r["seq"] for r in rows] == list(range(1, len(turns) + 1))
    assert all(r["embedded"] for r in rows)


def test_locomo_ingest_counts_dates_and_ids(memory: Memory) -> None:
    chats, samples = load_chats(LOCOMO)
    conv = next(c for c in chats if c.external_id == "conv-30")
    sample = next(s for s in samples if s["sample_id"] == "conv-30")
    expected = sum(
        len(v)
        for k, v in sample["conversation"].items()
        if k.startswith("session_") and isinstance(v, list)
    )
    summary = ingest_chats(memory, [conv], embed=False)
    assert summary.turns_written == expected == len(conv.turns)
    again = ingest_chats(memory, [conv], embed=False)
    assert again.turns_written == 0  # re-ingest writes nothing
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT seq, external_id, created_at, speaker, text FROM turns"
            " WHERE store_id = %s ORDER BY seq",
            (memory.store_id,),
        ).fetchall()
    assert len(rows) == expected
    assert [r["seq"] for r in rows] == list(range(1, expected + 1))
    assert rows[0]["external_id"] == "D1:1"
    first_date = sample["conversation"]["session_1_date_time"]  # e.g. "4:04 pm on 20 January, 2023"
    assert rows[0]["created_at"] == datetime.strptime(first_date, "%I:%M %p on %d %B, %Y").replace(
        tzinfo=UTC
    )
    sessions = sorted(
        (int(k.split("_")[1]), v)
        for k, v in sample["conversation"].items()
        if k.startswith("session_") and isinstance(v, list)
    )
    assert [r["external_id"] for r in rows] == [t["dia_id"] for _, v in sessions for t in v]
    last_n = sessions[-1][0]
    last_date = sample["conversation"][f"session_{last_n}_date_time"]
    assert rows[-1]["created_at"] == datetime.strptime(last_date, "%I:%M %p on %d %B, %Y").replace(
        tzinfo=UTC
    )
    # captions are appended to the text
    with_caption = [t for t in conv.turns if "[image:" in t["text"]]
    assert all(any(r["text"] == t["text"] for r in rows) for t in with_caption[:5])


class _Counting:
    """The real embedder, counting the texts it is asked to embed with their parts."""

    def __init__(self, embedder: Any) -> None:
        self.inner, self.texts = embedder, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_with_parts(self, texts: Any, parts: Any, **kw: Any) -> Any:
        self.texts += len(texts)
        return self.inner.embed_with_parts(texts, parts, **kw)


def test_turns_written_again_are_not_embedded_again(memory: Memory) -> None:
    """An ingest run again after a stop embedded every turn it had written before, then
    skipped them (an operations audit: 6,000 new turns of 10,000 took 157 s, the whole
    ingest 179 s). Only the new ones are embedded; the stored ones keep their vectors."""
    counting = _Counting(memory.embedder)
    again = Memory(memory.store_id, db=memory.db, embedder=counting)  # type: ignore[arg-type]
    said = [{"text": f"Turn number {i} of the chat.", "external_id": f"t{i}"} for i in range(5)]
    memory.write_turns("c", said[:3])
    with memory.db.connection() as conn:
        before = conn.execute(
            "SELECT external_id, embedding::text AS v FROM turns WHERE store_id = %s",
            (memory.store_id,),
        ).fetchall()
    rows = again.write_turns("c", said)
    assert [r.new for r in rows] == [False, False, False, True, True]
    assert counting.texts == 2
    with memory.db.connection() as conn:
        after = {
            r["external_id"]: r["v"]
            for r in conn.execute(
                "SELECT external_id, embedding::text AS v FROM turns WHERE store_id = %s",
                (memory.store_id,),
            )
        }
    assert all(after[r["external_id"]] == r["v"] for r in before)
    assert after["t3"] and after["t4"] and "0,0,0" not in after["t4"]


def test_json_lines_in_a_file_not_named_jsonl_are_read_as_json_lines(tmp_path: Any) -> None:
    """`ingest turns.txt` (JSON Lines) was read as LoCoMo JSON and refused as "line 2: not
    valid JSON" (a fresh-machine run); a LoCoMo file and a broken one are read as before."""
    from memory_pipelines.errors import ValidationError

    lines = tmp_path / "turns.txt"
    lines.write_text(
        '{"chat": "c", "speaker": "Ana", "text": "I moved to Porto."}\n'
        '{"chat": "c", "speaker": "Ben", "text": "Congratulations!"}\n'
    )
    chats, samples = load_chats(lines)
    assert [t["text"] for t in chats[0].turns] == ["I moved to Porto.", "Congratulations!"]
    assert samples == []
    one = tmp_path / "one.txt"  # one line of JSON Lines is one JSON document (a review)
    one.write_text('{"chat": "c", "speaker": "Ana", "text": "I moved to Porto."}\n')
    chats, _ = load_chats(one)
    assert [t["text"] for t in chats[0].turns] == ["I moved to Porto."]
    broken = tmp_path / "broken.json"
    broken.write_text('[{"conversation": {"speaker_a": "Ana",\n')
    with pytest.raises(ValidationError, match="not valid JSON"):
        load_chats(broken)
    chats, samples = load_chats(LOCOMO)
    assert samples and chats
