"""Staging races between writers in tests: wait until another session waits on a lock."""

from __future__ import annotations

import time

from memory_pipelines.store.db import Database


def wait_for_lock_waiter(db: Database, deadline_s: float = 30.0) -> None:
    """Until a session of this database waits on a lock (a row's or an advisory one)."""
    deadline = time.time() + deadline_s
    while time.time() < deadline:
        with db.connection() as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()
        if row["n"]:
            return
        time.sleep(0.02)
    raise AssertionError("no session came to wait on a lock")
