"""Migrations: applied in order, recorded, harmless to repeat, upgrade without losing rows."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.rows import dict_row

from memory_pipelines.store.migrate import migrate, migration_files


@pytest.fixture
def scratch_db(pg_dsn: str) -> Iterator[str]:
    name = f"mig_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    dsn = psycopg.conninfo.make_conninfo(pg_dsn, dbname=name)
    try:
        yield dsn
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


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
