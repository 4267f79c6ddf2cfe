"""A bulk ingest leaves the planner's statistics current (store/statistics.py)."""

from memory_pipelines.api import Memory
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.core.conversations import Chat
from memory_pipelines.store.db import Database
from memory_pipelines.store.statistics import analyze_stale


def _analysed(db: Database) -> int:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT analyze_count + autoanalyze_count AS n FROM pg_stat_user_tables"
            " WHERE relname = 'turns'"
        ).fetchone()
    assert row is not None
    return int(row["n"])


def test_a_large_ingest_is_analysed_a_small_write_is_left_to_autovacuum(
    memory: Memory, db: Database
) -> None:
    with db.connection() as conn:
        conn.execute("ANALYZE turns")
        believed = conn.execute(
            "SELECT reltuples AS n FROM pg_class WHERE relname = 'turns'"
        ).fetchone()
        assert believed is not None
        assert analyze_stale(conn, {"turns": 3}) == []  # under autovacuum's threshold
    before = _analysed(db)
    many = int(50 + 0.1 * max(believed["n"], 0)) + 50  # past it
    turns = [{"text": f"turn number {i} of a long chat"} for i in range(many)]
    summary = ingest_chats(memory, [Chat("c1", turns)], embed=False)
    assert summary.turns_written == many
    with db.connection() as conn:
        conn.execute("SELECT pg_stat_force_next_flush()")
    assert _analysed(db) > before, "the ingest analysed the turns it wrote"
    again = ingest_chats(memory, [Chat("c1", turns)], embed=False)
    assert again.turns_written == 0  # nothing new, nothing analysed
