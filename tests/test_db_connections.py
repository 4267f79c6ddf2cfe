"""Pooled connections: one whose block raised is not reused (store/db.py _give_back)."""

from __future__ import annotations

import logging
import time

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.records import validate_item
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from memory_pipelines.store.items import insert_item


class _Undo(Exception):
    pass


def _alive(db: Database, pid: int) -> bool:
    with db.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = %s", (pid,))
        return bool(row.fetchone()["n"])  # type: ignore[index]


def test_a_connection_whose_block_raised_is_retired_quietly(
    db: Database, memory: Memory, embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    """A write rolled back by an exception (as `eval judge` rolls back each case's scratch
    store) leaves pg_textsearch 1.0's backend with its interrupts held; the pool must not
    hand that backend out again. A block that ends well keeps its connection."""
    vec = embedder.embed(["undone"])[0]
    with db.connection() as conn:
        kept = conn.execute("SELECT pg_backend_pid() AS p").fetchone()["p"]  # type: ignore[index]
    assert _alive(db, kept)
    caplog.set_level(logging.INFO, logger="psycopg.pool")
    with pytest.raises(_Undo), db.transaction() as conn:
        failed = conn.execute("SELECT pg_backend_pid() AS p").fetchone()["p"]  # type: ignore[index]
        item = validate_item({"category": "fact", "context": "undone", "confidence": 7})
        insert_item(conn, memory.store_id, item, vec, origin="explicit", trusted=True)
        raise _Undo
    deadline = time.monotonic() + 10
    while _alive(db, failed) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(db, failed)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    with db.connection() as conn:
        undone = conn.execute(
            "SELECT count(*) AS n FROM agent_memory_items WHERE store_id = %s",
            (memory.store_id,),
        ).fetchone()
    assert undone == {"n": 0}  # nothing half-written
    with db.connection() as conn:
        after = conn.execute("SELECT pg_backend_pid() AS p").fetchone()["p"]  # type: ignore[index]
    assert after != failed and _alive(db, after)
