"""Dagster's own instance on the same Postgres server (its own database), under MEMORY_HOME."""

from __future__ import annotations

from pathlib import Path

import psycopg
from sqlalchemy.engine import URL

from memory_pipelines.store.server import memory_home, resolve_dsn

DAGSTER_DB = "dagster"


def dagster_url(dsn: str, dbname: str = DAGSTER_DB) -> str:
    """A psycopg2 SQLAlchemy URL: with SQLAlchemy 2.1 a plain postgresql:// URL picks psycopg 3,
    whose NOTIFY syntax dagster-postgres gets wrong (see STACK-NOTES)."""
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    query = {"host": str(info["host"])} if str(info.get("host", "")).startswith("/") else {}
    host = None if query else info.get("host")
    return URL.create(
        "postgresql+psycopg2",
        username=str(info.get("user") or "postgres"),
        password=str(info["password"]) if info.get("password") else None,
        host=str(host) if host else None,
        port=int(str(info["port"])) if info.get("port") and not query else None,
        database=dbname,
        query=query,
    ).render_as_string(hide_password=False)


def ensure_dagster_home(dsn: str | None = None, home: Path | None = None) -> Path:
    """Create Dagster's database and DAGSTER_HOME/dagster.yaml if missing; returns the folder."""
    dsn = resolve_dsn(dsn)
    folder = (home or memory_home()) / "dagster"
    folder.mkdir(parents=True, exist_ok=True)
    with psycopg.connect(dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DAGSTER_DB,))
        if exists.fetchone() is None:
            conn.execute(f'CREATE DATABASE "{DAGSTER_DB}"')
    url = dagster_url(dsn)
    (folder / "dagster.yaml").write_text(
        "# Written by memory_pipelines: Dagster's runs, events and schedules live in Postgres.\n"
        "storage:\n"
        "  postgres:\n"
        f'    postgres_url: "{url}"\n'
        "telemetry:\n"
        "  enabled: false\n",
        encoding="utf-8",
    )
    return folder
