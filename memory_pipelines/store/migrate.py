"""Apply the numbered SQL files in order, once each, recorded in schema_migrations."""

from __future__ import annotations

import logging
import re
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from memory_pipelines.store.server import ensure_pgvector

log = logging.getLogger("memory_pipelines.store")
_LOCK_KEY = 0x6D656D6F  # any constant: serialises concurrent `init`s on one database


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every file in memory_pipelines/sql, in order."""
    out = []
    for entry in resources.files("memory_pipelines.sql").iterdir():
        m = re.fullmatch(r"(\d{3})_(\w+)\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    return sorted(out)


def migrate(conn: psycopg.Connection[Any], upto: int | None = None) -> list[int]:
    """Bring the schema up to date (or up to version `upto`); returns the versions applied
    now, empty when the schema was already current."""
    ensure_pgvector(conn)
    applied_now: list[int] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {
            r[0]
            for r in conn.cursor(row_factory=tuple_row).execute(
                "SELECT version FROM schema_migrations"
            )
        }
        files = migration_files()
        known = max(v for v, _, _ in files)
        if done and max(done) > known:
            # Said, not refused: in a rolling upgrade the old processes run on beside a
            # schema the first new one migrated (each migration adds, never takes away).
            log.warning(
                "the database's schema is at version %d, newer than this memory-pipelines"
                " knows (up to %d): upgrade memory-pipelines to the release that migrated it",
                max(done),
                known,
            )
        for version, name, sql in files:
            if version in done or (upto is not None and version > upto):
                continue
            # One transaction for all pending files: a failed upgrade leaves the old schema.
            conn.execute(sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name)
            )
            applied_now.append(version)
    return applied_now


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The newest migration applied to the database (0 when none is)."""
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
        .fetchone()
    )
    return int(row[0]) if row else 0
