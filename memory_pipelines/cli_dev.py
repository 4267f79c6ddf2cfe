"""`memory-pipelines dev`: the Dagster UI (webserver + daemon) on the embedded store; `sql`,
psql on the memory database; and `stop-db`, which stops the embedded Postgres they share."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import click

from memory_pipelines.core.home import memory_home
from memory_pipelines.errors import StoreError
from memory_pipelines.store.dagster_home import dagster_env
from memory_pipelines.store.server import attached, ensure_server, resolve_dsn, stop_embedded


def _default_signals() -> None:
    # A shell that starts us in the background ignores SIGINT, and children inherit that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def dev_env() -> dict[str, str]:
    """The environment of `dagster dev`: DAGSTER_HOME and Dagster's storage URL (never written
    to a file). MEMORY_PG_DSN is passed on only when set: with the embedded server each child
    opens it on the same folder (and can start it again if it dies)."""
    return {**os.environ, **dagster_env()}


WATCH_SECONDS = 10  # how often `dev` asks whether the Postgres server still answers


def watch_server(proc: subprocess.Popen[bytes], dsn: str) -> None:
    """Wait for `dagster dev` to end, asking the server every WATCH_SECONDS whether it still
    answers: the daemon keeps its runs and ticks there and never starts it again itself. An
    embedded server that died is started again; an external one is reported once per outage."""
    down = False
    while True:
        try:
            proc.wait(timeout=WATCH_SECONDS)
            return
        except subprocess.TimeoutExpired:
            pass
        try:
            if ensure_server(dsn):
                click.echo("the embedded Postgres had stopped: started it again", err=True)
            down = False
        except StoreError as exc:
            if not down:
                click.echo(f"error: {exc}", err=True)
            down = True


def run_dev(port: int, host: str) -> None:
    dsn = resolve_dsn()
    env = dev_env()
    home = env["DAGSTER_HOME"]
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
        watch_server(proc, dsn)
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


@click.command("stop-db")
@click.option(
    "--force",
    is_flag=True,
    help="Stop it even while other processes are connected (they start it again when they "
    "next need it).",
)
def stop_db(force: bool) -> None:
    """Stop the embedded Postgres of MEMORY_HOME (it outlives every command, so the CLI, the
    Dagster daemon and its UI share one). The next command starts it again. Refused while
    other processes are connected (a `serve` or `dev` would start it again at its next call),
    unless --force."""
    if os.environ.get("MEMORY_PG_DSN"):
        raise click.ClickException(
            "MEMORY_PG_DSN is set: that Postgres is yours to stop, not ours; unset it to stop "
            "the embedded one"
        )
    data = memory_home() / "pg"
    others = attached()
    if others and not force:
        raise click.ClickException(
            f"not stopped: other processes are connected to the embedded Postgres at {data}: "
            + "; ".join(others)
            + ". Each would start it again at its next call: stop them first (Ctrl-C a "
            "`serve` or `dev`), or run `stop-db --force` to cut them off anyway."
        )
    if stop_embedded():
        click.echo(f"stopped the embedded Postgres at {data}")
        if others:
            click.echo(
                "cut off: " + "; ".join(others) + " (they start it again when they next need it)"
            )
    else:
        click.echo(f"no embedded Postgres is running at {data}")


@click.command()
@click.option("--port", "-p", default=3000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--host", "-h", default="127.0.0.1", show_default=True)
def dev(port: int, host: str) -> None:
    """Start the Dagster UI and daemon on the store (embedded by default); Ctrl-C stops both."""
    run_dev(port, host)


@click.command(context_settings={"ignore_unknown_options": True})
@click.option("--dsn", "show_dsn", is_flag=True, help="Print the database URL and exit.")
@click.argument("psql_args", nargs=-1, type=click.UNPROCESSED)
def sql(show_dsn: bool, psql_args: tuple[str, ...]) -> None:
    """Open psql on the memory database (the embedded server unless MEMORY_PG_DSN is set);
    extra arguments go to psql, e.g. `sql -c "TABLE current_memory_items LIMIT 5"`. With
    --dsn, print the URL to use from polars or any client."""
    from memory_pipelines.store.db import get_database

    dsn = get_database().dsn  # starts the embedded server and brings the schema up to date
    if show_dsn:
        click.echo(dsn)
        return
    psql = shutil.which("psql") or _bundled_psql()
    if psql is None:
        raise click.ClickException(
            "psql is not installed: install the PostgreSQL client (e.g. `apt-get install"
            f" postgresql-client`), or connect any client to {dsn}"
        )
    # psql as found on PATH (else the embedded server's own), its arguments as given (the
    # user's own shell already ran).
    os.execv(psql, [psql, dsn, *psql_args])  # noqa: S606


def _bundled_psql() -> str | None:
    """The psql that comes with the embedded server (pgserver's PostgreSQL), when no client is
    on PATH: a new machine has the one without the other."""
    from pgserver._commands import POSTGRES_BIN_PATH

    found = Path(POSTGRES_BIN_PATH) / "psql"
    return str(found) if os.access(found, os.X_OK) else None
