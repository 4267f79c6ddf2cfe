"""Migrations: applied in order, recorded, harmless to repeat, upgrade without losing rows."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg.rows import dict_row

from memory_pipelines.store.migrate import migrate, migration_files
from tests.scratch_db import scratch_database


@pytest.fixture
def scratch_db(pg_dsn: str) -> Iterator[str]:
    with scratch_database(pg_dsn, "mig") as dsn:
        yield dsn


def test_migrate_twice_is_harmless(scratch_db: str) -> None:
    with psycopg.connect(scratch_db, autocommit=True) as conn:
        first = migrate(conn)
        second = migrate(conn)
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    assert first == [v for v, _, _ in migration_files()]
    assert second == []
    assert versions == first


def test_upgrade_keeps_rows(scratch_db: str) -> None:
    with psycopg.connect(scratch_db, autocommit=True, row_factory=dict_row) as conn:
        assert migrate(conn, upto=1) == [1]
        conn.execute("INSERT INTO stores (store_id) VALUES ('old')")
        conn.execute("INSERT INTO chats (store_id, external_id) VALUES ('old', 'c')")
        applied = migrate(conn)
        assert applied and applied[0] == 2
        assert conn.execute("SELECT count(*) AS n FROM chats").fetchone()["n"] == 1
        # the views of the later migration work over the old rows
        assert conn.execute("SELECT count(*) AS n FROM current_memory_items").fetchone()["n"] == 0


def test_store_id_is_validated(memory) -> None:  # type: ignore[no-untyped-def]
    from memory_pipelines.api import Memory
    from memory_pipelines.errors import ValidationError

    with pytest.raises(ValidationError, match="store"):
        Memory("Bad Store!", db=memory.db, embedder=memory.embedder)


def test_item_listing_follows_the_items_from_the_upgrade_on(scratch_db: str) -> None:
    """Migration 015 copies the items there were into item_listing; its trigger keeps the copy
    in step with every insert and change, and a delete takes it away."""
    item = (
        "INSERT INTO agent_memory_items (store_id, category, context, confidence, origin,"
        " trusted, metadata, embedding) VALUES ('old', 'fact', %s, 7, 'explicit', true,"
        ' \'{"team": "ops"}\', array_fill(0.1, ARRAY[384])::real[]::vector) RETURNING item_id'
    )
    listed = "SELECT state, confidence, metadata FROM item_listing WHERE item_id = %s"
    with psycopg.connect(scratch_db, autocommit=True, row_factory=dict_row) as conn:
        migrate(conn, upto=14)
        conn.execute("INSERT INTO stores (store_id) VALUES ('old')")
        before = conn.execute(item, ("written before 015",)).fetchone()["item_id"]
        migrate(conn)
        assert conn.execute(listed, (before,)).fetchone() == {
            "state": "current", "confidence": 7, "metadata": {"team": "ops"}
        }  # fmt: skip
        after = conn.execute(item, ("written after 015",)).fetchone()["item_id"]
        conn.execute(
            "UPDATE agent_memory_items SET state = 'archived', confidence = 3 WHERE item_id = %s",
            (after,),
        )
        assert conn.execute(listed, (after,)).fetchone()["state"] == "archived"
        assert conn.execute(listed, (after,)).fetchone()["confidence"] == 3
        conn.execute("DELETE FROM agent_memory_items WHERE item_id = %s", (before,))
        assert conn.execute(listed, (before,)).fetchone() is None
        assert conn.execute("SELECT count(*) AS n FROM item_listing").fetchone()["n"] == 1


def test_a_database_newer_than_the_code_is_said(
    scratch_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A database migrated by a newer release was taken as current in silence ("schema at
    version 99"; an operations audit). It is said, naming both versions, not refused: in a
    rolling upgrade old processes run on beside the schema the first new one migrated (a
    review's point)."""
    with psycopg.connect(scratch_db, autocommit=True) as conn:
        migrate(conn)
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
        with caplog.at_level("WARNING", logger="memory_pipelines.store"):
            assert migrate(conn) == []
    last = max(v for v, _, _ in migration_files())
    assert f"at version 999, newer than this memory-pipelines knows (up to {last})" in caplog.text


def test_an_upgrade_on_opening_a_database_is_said(
    scratch_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Any command opening an older database migrates it, and said nothing of it (an
    operations audit): an upgrade is a warning naming the version; a new database is not."""
    from memory_pipelines.store import db as db_module

    with psycopg.connect(scratch_db, autocommit=True) as conn:
        migrate(conn, upto=20)
    with caplog.at_level("WARNING", logger="memory_pipelines.store"):
        db_module.Database(scratch_db, max_size=2).close()
    last = max(v for v, _, _ in migration_files())
    assert f"to version {last} ({last - 20} migrations applied)" in caplog.text
