"""Dagster's own instance on the same Postgres server (its own database), under MEMORY_HOME.

dagster.yaml names no URL: Dagster reads it from the environment variable MEMORY_DAGSTER_PG_URL
(`dagster_env` gives both variables a process needs), so a password in MEMORY_PG_DSN is never
written to a file. The instance retries a failed run when its tags ask for it and marks runs
that stopped without saying so (a killed process) failed, so they free the run queue."""

from __future__ import annotations

import os
from pathlib import Path

import psycopg
from sqlalchemy.engine import URL

from memory_pipelines.core.home import memory_home
from memory_pipelines.store.server import resolve_dsn, secure_home, write_private

DAGSTER_DB = "dagster"
URL_ENV = "MEMORY_DAGSTER_PG_URL"

MAX_RUNS = 4  # runs at once on one machine (2 cores here: each run is a process with torch)
POOL_LIMIT = 2  # steps at once per pool (model, postgres) across all runs

INSTANCE_YAML = f"""\
# Written by memory_pipelines: Dagster's runs, events and schedules live in Postgres. The URL
# (with any password) comes from the environment, never from this file.
storage:
  postgres:
    postgres_url:
      env: {URL_ENV}
# A run tagged dagster/max_retries (the new-turns sensor's are) is re-executed when it fails.
run_retries:
  enabled: true
  max_retries: 0
# A run whose process was killed stays STARTED; the daemon marks it failed after
# max_runtime_seconds, so it frees the run queue and its store's work is asked for again.
run_monitoring:
  enabled: true
  start_timeout_seconds: 180
  cancel_timeout_seconds: 180
  max_runtime_seconds: 14400
  max_resume_run_attempts: 0
  poll_interval_seconds: 60
# Runs wait in Dagster's queue: at most one run per store at a time (every run of ours is
# partitioned by store, so it carries the store as dagster/partition; two runs of one store
# would only contend for the same rows), and at most {MAX_RUNS} at once on this machine, each a
# process loading the embedding model. Pools bound what every run shares: the assets that run
# the embedding model or the LLM are in pool `model`, the others in pool `postgres`; a run is
# dequeued only while its pools have a free slot (granularity run: with in-process steps no
# run is started only to wait for a slot).
concurrency:
  runs:
    max_concurrent_runs: {MAX_RUNS}
    tag_concurrency_limits:
      - key: dagster/partition
        value:
          applyLimitPerUniqueValue: true
        limit: 1
  pools:
    granularity: run
    default_limit: {POOL_LIMIT}
telemetry:
  enabled: false
"""


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
    """Create Dagster's database and DAGSTER_HOME/dagster.yaml (0600, in a 0700 folder) if
    missing; returns the folder."""
    dsn = resolve_dsn(dsn)
    folder = secure_home(home or memory_home()) / "dagster"
    folder.mkdir(mode=0o700, exist_ok=True)
    folder.chmod(0o700)
    with psycopg.connect(dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DAGSTER_DB,))
        if exists.fetchone() is None:
            conn.execute(f'CREATE DATABASE "{DAGSTER_DB}"')
    write_private(folder / "dagster.yaml", INSTANCE_YAML)
    return folder


def dagster_env(dsn: str | None = None, home: Path | None = None) -> dict[str, str]:
    """What a process opening the Dagster instance needs in its environment: DAGSTER_HOME and
    the storage URL (MEMORY_DAGSTER_PG_URL)."""
    dsn = resolve_dsn(dsn)
    return {"DAGSTER_HOME": str(ensure_dagster_home(dsn, home)), URL_ENV: dagster_url(dsn)}


def use_dagster_home(dsn: str | None = None, home: Path | None = None) -> Path:
    """Set this process's environment for the Dagster instance; returns DAGSTER_HOME."""
    env = dagster_env(dsn, home)
    os.environ.update(env)
    return Path(env["DAGSTER_HOME"])
