"""The BM25 indexes stay whole (store/text_indexes.py): pg_textsearch 1.0 loses an index's
document count at VACUUM, which shows after a restart as a top-k that comes back nearly empty;
the service at its start and maintenance at each pass find the drift and rebuild the index.
A rebuilt index covers every item, and search still shows only current ones (migration 019)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import psutil
import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.maintenance import repair_text_indexes
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service import create_app
from memory_pipelines.store import maintenance as maint_db
from memory_pipelines.store import text_indexes
from memory_pipelines.store.db import Database
from memory_pipelines.store.server import embedded_dsn

TURNS = "turns_words_bm25"
TOP = (
    "SELECT count(*) AS n FROM (SELECT item_id FROM agent_memory_items"
    " ORDER BY words <@> to_bm25query('harbour', 'items_words_bm25') LIMIT 50) AS top"
)


def _bm25(db: Database) -> bool:
    with db.connection() as conn:
        return bool(text_indexes.present(conn))


def _stop(data: Path) -> None:
    """Fast shutdown of the embedded server (SIGINT), waited for."""
    pid = int((data / "postmaster.pid").read_text().split()[0])
    os.kill(pid, signal.SIGINT)
    psutil.wait_procs([psutil.Process(pid)], timeout=60)


def _start_elsewhere(data: Path) -> None:
    """Start the embedded server from another process, as a daemon or another CLI would: no
    check of this process's reads the BM25 indexes first (store.server checks only a server
    it starts itself)."""
    code = "import sys, pgserver; pgserver.get_server(sys.argv[1], cleanup_mode=None)"
    subprocess.run([sys.executable, "-c", code, str(data)], check=True, timeout=120)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    if (home / "pg" / "postmaster.pid").exists():
        _stop(home / "pg")


def test_a_count_lost_at_vacuum_is_found_and_rebuilt(home: Path, embedder: Embedder) -> None:
    # A throwaway server of its own: the drift shows only after a restart.
    db = Database(embedded_dsn(home))
    try:
        if not _bm25(db):
            pytest.skip("this server has no pg_textsearch")
        memory = Memory("drift", db=db, embedder=embedder)
        ids = [
            memory.save({"category": "fact", "context": f"Crane {n} at the harbour is red."}).id
            for n in range(60)
        ]
        with db.connection() as conn:
            conn.execute("SELECT bm25_spill_index('items_words_bm25')")  # as volume would
        for item_id in ids[:45]:
            memory.delete(item_id, actor="test")
        with db.connection() as conn:
            conn.execute("VACUUM agent_memory_items")
        _stop(home / "pg")
        _start_elsewhere(home / "pg")

        with db.connection() as conn:
            (before,) = [c for c in text_indexes.counts(conn) if c.name == "items_words_bm25"]
        assert before.drifted, before  # counts fewer documents than a word is in

        # A service started on the restarted server rebuilds it beside its work (which is
        # when the lost count shows); the check maintenance makes finds nothing left to do.
        app = create_app(db, embedder=embedder)

        async def start_and_stop() -> None:
            async with app.router.lifespan_context(app):
                pass

        # In a thread of its own: the browser tests' Playwright keeps an event loop running
        # in this one.
        starter = threading.Thread(target=anyio.run, args=(start_and_stop,))
        starter.start()
        starter.join(60)
        assert app.state.text_indexes.result(timeout=120) == ["items_words_bm25"]
        with db.connection() as conn:
            after = {c.name: c for c in text_indexes.counts(conn)}
            assert conn.execute(TOP).fetchone()["n"] == 15
        assert not any(c.drifted for c in after.values()), after
        assert repair_text_indexes(db) == []  # whole now: nothing to do
        hits = Recall("drift", db=db, embedder=embedder).search("harbour crane", ["agent"], k=20)
        assert {h.id for h in hits} == set(ids[45:])
    finally:
        db.close()


def test_a_rebuilt_index_never_brings_back_what_is_not_current(
    db: Database, memory: Memory, recall: Recall
) -> None:
    if not _bm25(db):
        pytest.skip("this server has no pg_textsearch")
    old = memory.save({"category": "fact", "context": "The office dog Biscuit sleeps upstairs."})
    kept = memory.save({"category": "fact", "context": "Biscuit the office dog eats at noon."})
    with db.transaction() as conn:
        archived = maint_db.archive(
            conn, memory.store_id, [(old.id, 0.01, 400.0)], datetime.now(UTC) + timedelta(days=1)
        )
    assert archived == [old.id]
    with db.connection() as conn:
        text_indexes.rebuild(conn, "items_words_bm25")  # builds from every row of the table
        # The plan a big table gets: the BM25 index's ordered scan (a partial index's WHERE
        # would stand in for the query's state filter there).
        conn.execute("SET enable_seqscan = off")
        conn.execute("SET enable_sort = off")
        top = conn.execute(
            "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND state = 'current'"
            " ORDER BY words <@> to_bm25query('biscuit dog', 'items_words_bm25') LIMIT 10",
            (memory.store_id,),
        ).fetchall()
        conn.execute("RESET enable_seqscan")
        conn.execute("RESET enable_sort")
    assert [r["item_id"] for r in top] == [kept.id]
    assert [h.id for h in recall.search("Biscuit office dog", ["agent"], k=10)] == [kept.id]


def test_counts_are_read_from_the_index_summary(db: Database, memory: Memory) -> None:
    if not _bm25(db):
        pytest.skip("this server has no pg_textsearch")
    memory.save({"category": "fact", "context": "The boiler was serviced in March."})
    with db.connection() as conn:
        counts = {c.name: c for c in text_indexes.counts(conn)}
        rows = conn.execute("SELECT count(*) AS n FROM agent_memory_items").fetchone()["n"]
    assert set(counts) == set(text_indexes.NAMES)
    assert counts["items_words_bm25"].documents >= rows > 0
    drifted = text_indexes.parse_summary(
        "x",
        "total_docs: 80\nMemtable:\n  terms: 5\n  documents: 3\n"
        "  Total: 2 segments, 9 pages (1MB), 70 terms, 98980 docs\n",
    )
    assert (drifted.total_docs, drifted.documents, drifted.drifted) == (80, 98983, True)
    empty = text_indexes.parse_summary("x", "total_docs: 0\nMemtable:\n  terms: 0\n")
    assert (empty.documents, empty.drifted) == (0, False)
    with pytest.raises(ValueError, match="total_docs"):
        text_indexes.parse_summary("x", "ERROR")


def test_one_rebuilder_at_a_time(db: Database) -> None:
    with db.connection() as one, db.connection() as two:
        assert text_indexes.try_lock(one)
        try:
            assert not text_indexes.try_lock(two)
        finally:
            text_indexes.unlock(one)
        assert text_indexes.try_lock(two)
        text_indexes.unlock(two)


def _long(tag: str, n: int) -> str:
    """A turn whose text no compression brings under the TOAST threshold: stored out of line."""
    return f"{tag} {n} harbour " + " ".join(uuid.uuid4().hex for _ in range(150))


def _turns_index(db: Database) -> text_indexes.IndexCount:
    with db.connection() as conn:
        (count,) = [c for c in text_indexes.counts(conn, rows=True) if c.name == TURNS]
    return count


def _recovery_docids(db: Database) -> int:
    with db.connection() as conn:
        row = conn.execute("SELECT bm25_summarize_index(%s) AS s", (TURNS,)).fetchone()
    found = re.search(r"Recovery Pages:\s*\n\s*pages: \d+\s*\n\s*docids: (\d+)", row["s"])
    assert found, row["s"]
    return int(found.group(1))


def _harbour(db: Database, store: str) -> int:
    with db.connection() as conn:
        return int(
            conn.execute(
                "SELECT count(*) AS n FROM (SELECT turn_id, store_id FROM turns"
                " ORDER BY words <@> to_bm25query('harbour', 'turns_words_bm25') LIMIT 100) AS t"
                " WHERE store_id = %s",
                (store,),
            ).fetchone()["n"]
        )


def _deleted_and_vacuumed(db: Database, embedder: Embedder) -> None:
    """Two stores' turns in a BM25 memtable not yet spilled (read again after a restart), one
    store's rows deleted and their TOASTed text vacuumed (autovacuum may take the TOAST table
    first), as any deletion would leave them."""
    Memory("gone", db=db, embedder=embedder).write_turns(
        "c", [{"text": _long("gone", n), "speaker": "Ana"} for n in range(10)]
    )
    Memory("kept", db=db, embedder=embedder).write_turns(
        "c", [{"text": _long("kept", n), "speaker": "Bo"} for n in range(10)]
    )
    assert _recovery_docids(db) == 20
    with db.connection() as conn:
        conn.execute("DELETE FROM turns WHERE store_id = 'gone'")
        toast = conn.execute(
            "SELECT reltoastrelid::regclass::text AS t FROM pg_class WHERE relname = 'turns'"
        ).fetchone()["t"]
        conn.execute(f"VACUUM {toast}")


def test_a_recovery_cut_short_by_a_vacuumed_row_is_found_and_rebuilt(
    home: Path, embedder: Embedder
) -> None:
    """pg_textsearch 1.0 reads the rows added since its last spill again at its first use after
    a restart; a deleted one whose text VACUUM removed stops it, and the index goes on without
    the live rows it had not read. The repair finds both states and rebuilds the index."""
    db = Database(embedded_dsn(home))
    try:
        if not _bm25(db):
            pytest.skip("this server has no pg_textsearch")
        _deleted_and_vacuumed(db, embedder)
        _stop(home / "pg")
        _start_elsewhere(home / "pg")

        first = _turns_index(db)
        assert first.unreadable and first.broken, first  # the recovery met the vacuumed row
        cut = _turns_index(db)  # ... and the index went on without the rows it had not read
        assert cut.lost and not cut.unreadable, cut
        assert _harbour(db, "kept") < 10

        assert repair_text_indexes(db) == [TURNS]
        whole = _turns_index(db)
        assert not whole.broken, whole
        assert _harbour(db, "kept") == 10
        assert repair_text_indexes(db) == []
    finally:
        db.close()


def test_a_server_this_process_starts_again_has_its_indexes_read_whole_first(
    home: Path, embedder: Embedder
) -> None:
    """The embedded server started again by this process (store.server.ensure_server) has
    its BM25 indexes read, and rebuilt when they cannot be, before the caller's statement: no
    INSERT of the caller's meets the failing recovery."""
    db = Database(embedded_dsn(home))
    try:
        if not _bm25(db):
            pytest.skip("this server has no pg_textsearch")
        _deleted_and_vacuumed(db, embedder)
        _stop(home / "pg")  # the next call starts it again, and reads the indexes first
        Memory("kept", db=db, embedder=embedder).write_turns(
            "c", [{"text": _long("kept", 10), "speaker": "Bo"}]
        )
        assert not _turns_index(db).broken
        assert _harbour(db, "kept") == 11
    finally:
        db.close()
