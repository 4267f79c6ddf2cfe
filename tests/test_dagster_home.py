"""Secrets and files (issue 10, point 15): a password in the DSN never reaches dagster.yaml,
Dagster reads its storage URL from the environment, MEMORY_HOME is 0700 and the files we write
0600; the instance retries tagged runs and monitors runs (issue 10, point 13)."""

from __future__ import annotations

import stat
from pathlib import Path

import dagster as dg
import psycopg
import pytest

from memory_pipelines.cli_dev import dev_env
from memory_pipelines.pipeline import dagster_instance
from memory_pipelines.store.dagster_home import URL_ENV, dagster_env
from memory_pipelines.store.server import secure_home

PASSWORD = "s3cret-pw"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _with_password(dsn: str) -> str:
    # The test server trusts local connections, so any password is accepted and ignored.
    return psycopg.conninfo.make_conninfo(dsn, password=PASSWORD)


def test_no_password_in_dagster_yaml_and_private_files(pg_dsn: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    old = home / "dagster" / "dagster.yaml"  # as an older version left it: 0644, URL inside
    old.parent.mkdir(parents=True)
    old.write_text(f'storage:\n  postgres:\n    postgres_url: "postgresql://u:{PASSWORD}@h/d"\n')
    old.chmod(0o644)
    home.chmod(0o755)

    env = dagster_env(_with_password(pg_dsn), home)

    folder = Path(env["DAGSTER_HOME"])
    yaml = folder / "dagster.yaml"
    assert folder == home / "dagster"
    assert PASSWORD not in yaml.read_text() and f"env: {URL_ENV}" in yaml.read_text()
    assert PASSWORD in env[URL_ENV]  # the URL travels in the environment only
    assert (_mode(home), _mode(folder), _mode(yaml)) == (0o700, 0o700, 0o600)
    assert [p.name for p in folder.iterdir()] == ["dagster.yaml"]  # no temporary file left


def test_dagster_reads_the_url_from_the_environment(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = dagster_env(_with_password(pg_dsn), tmp_path / "home")
    monkeypatch.setenv(URL_ENV, env[URL_ENV])
    instance = dg.DagsterInstance.from_config(env["DAGSTER_HOME"])
    try:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert instance.get_runs(limit=1) is not None  # it really talks to Postgres
        assert instance.run_retries_enabled
        assert instance.run_monitoring_enabled
        assert 0 < instance.run_monitoring_max_runtime_seconds <= 6 * 3600
    finally:
        instance.dispose()


def test_everything_that_starts_dagster_sets_the_variable(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(URL_ENV, raising=False)
    monkeypatch.setenv("DAGSTER_HOME", "unset")  # restored after the test
    env = dev_env()  # the environment `memory-pipelines dev` gives `dagster dev`
    assert env["DAGSTER_HOME"] == str(tmp_path / "home" / "dagster")
    assert env[URL_ENV].startswith("postgresql+psycopg2://")
    with dagster_instance() as instance:  # the demo, evaluations and benchmarks
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"


def test_a_shared_folder_keeps_its_mode(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "someone-elses-file").mkdir(parents=True)
    shared.chmod(0o755)
    secure_home(shared)
    assert _mode(shared) == 0o755  # MEMORY_HOME=/tmp must not lock everybody out of /tmp
