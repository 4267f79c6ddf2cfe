"""`memory-pipelines dev`: the Dagster UI (webserver + daemon) on the embedded store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import click

from memory_pipelines.store.dagster_home import ensure_dagster_home
from memory_pipelines.store.server import resolve_dsn


def _default_signals() -> None:
    # A shell that starts us in the background ignores SIGINT, and children inherit that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_dev(port: int, host: str) -> None:
    dsn = resolve_dsn()
    home = ensure_dagster_home(dsn)
    env = {**os.environ, "DAGSTER_HOME": str(home), "MEMORY_PG_DSN": dsn}
    cmd = [
        sys.executable,
        "-m",
        "dagster",
        "dev",
        "-m",
        "memory_pipelines.definitions",
        "-p",
        str(port),
        "-h",
        host,
    ]
    click.echo(f"Dagster UI on http://{host}:{port} (instance in {home}); Ctrl-C stops it")
    # Its own process group, so Ctrl-C reaches the webserver and the daemon together.
    # Our own interpreter with a fixed argv (no shell): the port is an int, the host one argument.
    proc = subprocess.Popen(  # noqa: S603
        cmd, env=env, start_new_session=True, preexec_fn=_default_signals
    )

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # Ctrl-C, or a TERM from a supervisor; both also work when started in the background,
    # where a shell ignores SIGINT for us.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        proc.wait()
    except KeyboardInterrupt:
        click.echo("stopping Dagster ...")
        # SIGINT is what `dagster dev` treats as Ctrl-C: it stops the webserver and daemon.
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    click.echo(f"Dagster stopped (exit {proc.returncode})")
