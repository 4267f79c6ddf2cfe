"""How an item row is stored (migration 020): counting a recall changes no indexed column, so the
new row version stays on its page (a HOT update: no entry in any index). The table leaves room
on each page and keeps rows uncompressed up to 8160 bytes, so the words and tsv an update
computes again compare equal to the stored ones."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from memory_pipelines.store.item_reads import touch_items
from tests.scratch_db import scratch_database

WORDS = [
    "helmets",
    "ropes",
    "lamps",
    "maps",
    "radios",
    "flares",
    "stoves",
    "tents",
    "boots",
    "gloves",
    "compasses",
]


@pytest.fixture
def own_db(pg_dsn: str) -> Iterator[Database]:
    """A database of its own: the table's update counts and pages are this test's alone."""
    with scratch_database(pg_dsn, "storage") as dsn:
        db = Database(dsn)
        try:
            yield db
        finally:
            db.close()


def _counts(conn: Any) -> tuple[int, int]:
    row = conn.execute(
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
        " WHERE relname = 'agent_memory_items'"
    ).fetchone()
    return int(row["n_tup_upd"]), int(row["n_tup_hot_upd"])


def test_a_recall_count_stays_on_its_page(own_db: Database, embedder: Embedder) -> None:
    # Rows of the usual size (about 2.1 KB with the vector): a fact with a paragraph of body.
    memory = Memory("storage", db=own_db, embedder=embedder)
    body = ", ".join(f"{x} checked on day {i} by the warden" for i, x in enumerate(WORDS))
    ids = [
        memory.save(
            {
                "category": "fact",
                "context": f"Locker {n} in the north hut holds the spare {w}",
                "body": f"Inventory of locker {n}: {body}.",
            }
        ).id
        for n, w in enumerate(WORDS)
    ]
    with own_db.connection() as conn:
        # A checkpoint writing a page pins it, and a page pinned by another process is not
        # pruned, so its next version has no room (seen: 22 of 33 HOT with checkpoints running
        # alongside, 33 of 33 without). Earlier tests' writes can start one at any time: run
        # it now, so that none runs during the updates counted here.
        conn.execute("CHECKPOINT")
        updates, hot = _counts(conn)
        # One item per count: the room on a page is for one new version at a time (rows of
        # one statement that share a page take turns across statements).
        for _ in range(3):
            for item in ids:
                touch_items(conn, [item])
        conn.execute("SELECT pg_stat_force_next_flush()")  # flushed once the backend idles
        deadline = time.monotonic() + 10
        while _counts(conn)[0] - updates < 3 * len(ids) and time.monotonic() < deadline:
            time.sleep(0.2)
        more, more_hot = (n - m for n, m in zip(_counts(conn), (updates, hot), strict=True))
    assert more == 3 * len(ids)
    assert more_hot >= 0.8 * more, (more_hot, more)
