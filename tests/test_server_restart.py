"""The service comes back (issue 10, point 14): after the embedded server is killed, the next
call starts it again on the same folder and the pool reconnects; a server we did not start
(MEMORY_PG_DSN) that stays down gives a StoreError naming it, never a PoolTimeout, and the pool
reconnects once it is back. Each test kills a throwaway server of its own, never the session's."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pgserver
import psutil
import psycopg
import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.errors import StoreError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from memory_pipelines.store.server import embedded_dsn, probe


def _postmaster(data: Path) -> int:
    return int((data / "postmaster.pid").read_text().split()[0])


def _kill(data: Path) -> None:
    """kill -9 the postmaster, then wait until its backends noticed and exited too."""
    master = psutil.Process(_postmaster(data))
    children = master.children()
    os.kill(master.pid, signal.SIGKILL)
    gone, alive = psutil.wait_procs([master, *children], timeout=60)
    assert not alive, alive


def _stop(data: Path) -> None:
    if (data / "postmaster.pid").exists():
        pid = _postmaster(data)
        if psutil.pid_exists(pid):
            os.kill(pid, signal.SIGINT)  # fast shutdown
            psutil.wait_procs([psutil.Process(pid)], timeout=60)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    _stop(home / "pg")


def test_killed_embedded_server_is_started_again(home: Path, embedder: Embedder) -> None:
    dsn = embedded_dsn(home)
    db = Database(dsn)
    try:
        memory = Memory("restart", db=db, embedder=embedder)
        saved = memory.save({"category": "fact", "context": "The offsite moved to Porto."})
        before = _postmaster(home / "pg")
        _kill(home / "pg")
        assert probe(dsn) is not None  # really down

        # The next calls reconnect to a server started again on the same folder.
        again = memory.save({"category": "fact", "context": "The budget is 4000 euros."})
        hits = Recall("restart", db=db, embedder=embedder).search("Where is the offsite?")
        assert again.saved and saved.id != again.id
        assert any("Porto" in h.text for h in hits)
        assert _postmaster(home / "pg") != before
    finally:
        db.close()


def test_a_server_we_did_not_start_fails_fast_and_is_reconnected(
    tmp_path: Path, embedder: Embedder
) -> None:
    data = tmp_path / "external"
    server = pgserver.get_server(data, cleanup_mode=None)  # as if given by MEMORY_PG_DSN
    dsn = str(server.get_uri())
    db = Database(dsn)
    try:
        memory = Memory("external", db=db, embedder=embedder)
        memory.save({"category": "fact", "context": "The offsite moved to Porto."})
        _kill(data)
        for _ in range(2):  # each call says so at once, never a PoolTimeout
            with pytest.raises(StoreError) as err:
                memory.items(limit=5)
            msg = str(err.value)
            assert f"Postgres at host {data}" in msg and "does not answer" in msg
            assert "MEMORY_PG_DSN" in msg
        # Nobody restarts a server it did not start; once its owner does, calls work again.
        assert probe(dsn) is not None
        with server._lock:
            server.ensure_postgres_running()
        assert [i.context for i in memory.items(limit=5)] == ["The offsite moved to Porto."]
    finally:
        db.close()
        _stop(data)


def test_the_error_names_the_host_never_the_password(embedder: Embedder) -> None:
    with pytest.raises(StoreError) as err:
        Database("postgresql://app:s3cret-pw@127.0.0.1:9/memory?connect_timeout=3")
    assert "host 127.0.0.1, port 9, dbname memory, user app" in str(err.value)
    assert "s3cret-pw" not in str(err.value)


def test_embedded_memory_settings_follow_the_machine() -> None:
    from memory_pipelines.store.server import memory_settings

    gib = 1 << 30
    assert memory_settings(24 * gib) == {
        "shared_buffers": "6144MB",
        "effective_cache_size": "12288MB",
    }
    assert memory_settings(256 * 1 << 20)["shared_buffers"] == "128MB"  # never below the default
    assert memory_settings(128 * gib)["shared_buffers"] == "8192MB"  # nor above 8 GB


def test_a_new_embedded_server_runs_with_them(tmp_path: Path) -> None:
    from memory_pipelines.store.server import embedded_dsn, memory_settings

    dsn = embedded_dsn(tmp_path / "home")
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute(
                "SELECT pg_size_bytes(current_setting('shared_buffers')) = pg_size_bytes(%s)",
                (memory_settings()["shared_buffers"],),
            ).fetchone()
        assert row is not None and row[0], "the server was not restarted with its settings"
    finally:
        _stop(tmp_path / "home" / "pg")


def test_stop_db_stops_the_embedded_server_of_its_home(home: Path) -> None:
    """`memory-pipelines stop-db` stops the server of MEMORY_HOME (as root pgserver runs it as
    its own user: a plain `pg_ctl stop` fails there), says so when none runs, and refuses a
    server given by MEMORY_PG_DSN."""
    from click.testing import CliRunner

    from memory_pipelines.cli import main

    embedded_dsn(home)
    pid = _postmaster(home / "pg")
    runner = CliRunner()
    env = {"MEMORY_HOME": str(home), "MEMORY_PG_DSN": None}
    out = runner.invoke(main, ["stop-db"], env=env)
    assert out.exit_code == 0 and "stopped the embedded Postgres" in out.output, out.output
    # the postmaster was this process's child: stopped, it is at most a zombie here
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    out = runner.invoke(main, ["stop-db"], env=env)
    assert out.exit_code == 0 and "no embedded Postgres is running" in out.output, out.output
    out = runner.invoke(main, ["stop-db"], env={**env, "MEMORY_PG_DSN": "postgresql://x/y"})
    assert out.exit_code != 0 and "MEMORY_PG_DSN is set" in out.output, out.output


def test_stop_db_refuses_while_another_process_is_connected(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A `serve` attached to the server started it again right after `stop-db`, and nobody was
    told (operations audit, stop 71). Now `stop-db` names the connected processes and stops
    nothing unless --force; a process that starts it again says so in its log."""
    from click.testing import CliRunner

    from memory_pipelines.cli import main

    dsn = embedded_dsn(home)
    db = Database(dsn)  # this process, as a `serve` would be: its pool holds connections
    try:
        with db.connection() as conn:
            conn.execute("SELECT 1")
        pid = _postmaster(home / "pg")
        runner = CliRunner()
        env = {"MEMORY_HOME": str(home), "MEMORY_PG_DSN": None}
        out = runner.invoke(main, ["stop-db"], env=env)
        assert out.exit_code != 0, out.output
        assert f"(pid {os.getpid()})" in out.output and "--force" in out.output, out.output
        assert psutil.pid_exists(pid) and probe(dsn) is None, "refused, yet stopped"

        out = runner.invoke(main, ["stop-db", "--force"], env=env)
        assert out.exit_code == 0 and "stopped the embedded Postgres" in out.output, out.output
        assert "cut off: " in out.output and f"(pid {os.getpid()})" in out.output, out.output
        assert probe(dsn) is not None

        # the next call starts it again, and says so
        with caplog.at_level("WARNING", logger="memory_pipelines.store"), db.connection() as c:
            c.execute("SELECT 1")
        assert any("started it again" in r.getMessage() for r in caplog.records), caplog.text
    finally:
        db.close()


def test_two_commands_on_a_new_home_start_one_server_between_them(home: Path) -> None:
    """Two commands at once on a new MEMORY_HOME each took its server for new and restarted it
    under the other: one failed, "the database system is shutting down" (an operations audit,
    2 homes in 5). One process at a time creates or starts it now."""
    import subprocess
    import sys

    env = {**os.environ, "MEMORY_HOME": str(home)}
    env.pop("MEMORY_PG_DSN", None)
    both = [
        subprocess.Popen(
            [sys.executable, "-m", "memory_pipelines.cli", "init", "--store", name],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    outs = [p.communicate(timeout=180) for p in both]
    assert [p.returncode for p in both] == [0, 0], outs
    with psycopg.connect(embedded_dsn(home)) as conn:
        stores = conn.execute("SELECT store_id FROM stores ORDER BY 1").fetchall()
    assert [r[0] for r in stores] == ["a", "b"]


def test_no_runtime_folder_warning_on_every_command() -> None:
    """Every command printed platformdirs' "XDG_RUNTIME_DIR is not set" to stderr where the
    variable is unset (a root shell): pgserver's lock folder falls back and serves (an
    operations audit)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    code = "import memory_pipelines.store.server, pgserver"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and "XDG_RUNTIME_DIR" not in out.stderr, out.stderr
