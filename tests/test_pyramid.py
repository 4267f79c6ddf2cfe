"""The chunk pyramid over a real store: shape, idempotence, incremental growth, children-only
upper levels, whole batches after a failure, the contiguity check, drill-down."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.pyramid import BRANCH
from memory_pipelines.errors import NotFound
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import chunks as chunks_db
from tests.pyramid_helpers import chunk_rows, roll, turn, write


def _problems(memory: Memory) -> list[str]:
    with memory.db.connection() as conn:
        return chunks_db.check_contiguity(conn, memory.store_id)


def test_101_turns_make_ten_l1_and_one_l2_and_a_rerun_adds_nothing(memory: Memory) -> None:
    write(memory, "c", 1, 101)
    write(memory, "short", 1, 9)  # an incomplete batch waits
    res = roll(memory, run_id="run-1")
    assert res["created"] == {1: 10, 2: 1} and res["chunks_created"] == 11
    assert res["turns_covered"] == 100 and res["turns_waiting"] == 1 + 9
    rows = chunk_rows(memory)
    l1 = [r for r in rows if r["level"] == 1]
    [l2] = [r for r in rows if r["level"] == 2]
    assert [(r["seq"], r["from_seq"], r["to_seq"]) for r in l1] == [
        (s, (s - 1) * 10 + 1, s * 10) for s in range(1, 11)
    ]
    assert (l2["seq"], l2["from_seq"], l2["to_seq"]) == (1, 1, 100)
    assert l2["children"] == [r["chunk_id"] for r in l1]
    assert l2["period_start"] == l1[0]["period_start"] and l2["period_end"] == l1[-1]["period_end"]
    with memory.db.connection() as conn:
        turns = conn.execute(
            "SELECT t.turn_id, t.created_at FROM turns t JOIN chats c USING (chat_id)"
            " WHERE c.store_id = %s AND c.external_id = 'c' AND seq <= 10 ORDER BY seq",
            (memory.store_id,),
        ).fetchall()
        calls = conn.execute(
            "SELECT task, tier, run_id FROM model_calls WHERE store_id = %s", (memory.store_id,)
        ).fetchall()
    assert l1[0]["children"] == [t["turn_id"] for t in turns]
    assert l1[0]["period_start"] == turns[0]["created_at"]
    for r in rows:
        assert r["units_covered"] == BRANCH and r["embedded"] and r["model"] == "local-rules-v1"
        assert "Caroline" in r["summary"] or "Melanie" in r["summary"]
        assert len(r["summary"].split()) <= (60 if r["level"] == 1 else 80)
    assert len(calls) == 11 and {(c["task"], c["tier"], c["run_id"]) for c in calls} == {
        ("summarise", "generate", "run-1")
    }
    assert _problems(memory) == []

    again = roll(memory)
    assert again["chunks_created"] == 0 and again["model_calls"] == 0
    assert chunk_rows(memory) == rows


def test_new_turns_extend_the_pyramid_without_touching_what_exists(memory: Memory) -> None:
    write(memory, "c", 1, 25)
    assert roll(memory)["created"] == {1: 2}
    before = chunk_rows(memory)
    write(memory, "c", 26, 105)
    res = roll(memory)
    assert res["created"] == {1: 8, 2: 1} and res["model_calls"] == 9  # only the new chunks
    after = chunk_rows(memory)
    # the same rows, never rewritten (xmin is the writing transaction)
    assert after[:2] == before
    assert [(r["level"], r["seq"]) for r in after] == [(1, s) for s in range(1, 11)] + [(2, 1)]
    assert _problems(memory) == []


class _Recording(LocalBackend):
    """The local summariser, remembering what each call was given."""

    def __init__(self, embedder) -> None:
        super().__init__(embedder)
        self.seen: list[list[str]] = []

    def summarise(self, texts, call, vectors=None, max_words=60):
        self.seen.append(list(texts))
        assert vectors is not None  # stored embeddings are reused, nothing re-embedded
        return super().summarise(texts, call, vectors, max_words)


def test_upper_levels_read_child_summaries_only(memory: Memory) -> None:
    write(memory, "c", 1, 100)
    backend = _Recording(memory.embedder)
    roll(memory, models=Models(backend))
    rows = chunk_rows(memory)
    l1 = [r["summary"] for r in rows if r["level"] == 1]
    [l2] = [r for r in rows if r["level"] == 2]
    assert backend.seen[-1] == l1  # the level-2 call was given the children's summaries
    turn_texts = {turn(n)["text"] for n in range(1, 101)}
    assert not turn_texts & set(backend.seen[-1])

    # Without a single turn left, the level-2 chunk is rebuilt the same from its children.
    with memory.db.transaction() as conn:
        conn.execute("DELETE FROM chunks WHERE chunk_id = %s", (l2["chunk_id"],))
        conn.execute("DELETE FROM turns WHERE store_id = %s", (memory.store_id,))
    assert roll(memory)["created"] == {2: 1}
    [rebuilt] = [r for r in chunk_rows(memory) if r["level"] == 2]
    assert rebuilt["summary"] == l2["summary"] and rebuilt["children"] == l2["children"]


class _Failing(LocalBackend):
    def __init__(self, embedder, after: int) -> None:
        super().__init__(embedder)
        self.left = after

    def summarise(self, texts, call, vectors=None, max_words=60):
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("model went away")
        return super().summarise(texts, call, vectors, max_words)


def test_a_failed_run_leaves_whole_batches_and_the_next_run_finishes(
    memory: Memory, db, embedder
) -> None:
    twin = Memory(memory.store_id + "-twin", db=db, embedder=embedder)
    for m in (memory, twin):
        write(m, "a", 1, 60)
        write(m, "b", 1, 30, embedded=False)  # summarised from freshly embedded turns
    with pytest.raises(RuntimeError, match="model went away"):
        roll(memory, models=Models(_Failing(embedder, after=6)), batch_size=4)
    assert len(chunk_rows(memory)) == 4  # the first batch; the second died half-way
    assert _problems(memory) == []
    res = roll(memory, batch_size=4)
    assert res["created"] == {1: 5} and res["turns_embedded"] == 30
    roll(twin)
    strip = ("chunk_id", "xmin", "chat_id", "children")
    got = [{k: v for k, v in r.items() if k not in strip} for r in chunk_rows(memory)]
    want = [{k: v for k, v in r.items() if k not in strip} for r in chunk_rows(twin)]
    assert got == want


def test_contiguity_check_catches_planted_gaps_and_wrong_children(memory: Memory) -> None:
    write(memory, "c", 1, 40)
    roll(memory)
    rows = chunk_rows(memory)
    assert _problems(memory) == []
    with memory.db.transaction() as conn:
        conn.execute("DELETE FROM chunks WHERE chunk_id = %s", (rows[2]["chunk_id"],))
    problems = _problems(memory)
    assert any("L1 seq 4" in p and "(gap)" in p for p in problems), problems
    with memory.db.transaction() as conn:
        conn.execute(
            "UPDATE chunks SET children = children[1:9] WHERE chunk_id = %s",
            (rows[0]["chunk_id"],),
        )
    assert any("L1 seq 1" in p and "not the covered units" in p for p in _problems(memory))


def test_children_of_drills_down_to_turns(memory: Memory) -> None:
    write(memory, "c", 1, 100)
    roll(memory)
    rows = chunk_rows(memory)
    [l2] = [r for r in rows if r["level"] == 2]
    with memory.db.connection() as conn:
        kids = chunks_db.children_of(conn, l2["chunk_id"], memory.store_id)
        assert [k.kind for k in kids] == ["chunk"] * 10
        leaves = chunks_db.children_of(conn, kids[-1].id)
        with pytest.raises(NotFound, match="chunk 0 does not exist"):
            chunks_db.children_of(conn, 0)
    assert [(k.kind, k.seq) for k in leaves] == [("turn", s) for s in range(91, 101)]
    assert leaves[0].text == turn(91)["text"]
