"""Connections: one pool per DSN per process, pgvector types registered on each connection."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import pq
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from memory_pipelines.errors import NotFound, StoreError
from memory_pipelines.store.migrate import migrate
from memory_pipelines.store.server import (
    describe_dsn,
    ensure_server,
    process_name,
    resolve_dsn,
)

# Every pooled connection returns rows as dicts.
Conn = psycopg.Connection[DictRow]

_migrated: set[str] = set()
_migrate_lock = threading.Lock()

log = logging.getLogger("memory_pipelines.store")


def _configure(conn: Conn) -> None:
    register_vector(conn)


def _give_back(pool: ConnectionPool[Conn], conn: Conn, failed: bool) -> None:
    """Return a connection to its pool; one whose block raised (`failed`: its transactions
    rolled back) is not reused. pg_textsearch 1.0 leaves a backend's interrupts held after a
    transaction that wrote to a BM25 index is rolled back (one more per ROLLBACK, read with
    gdb as InterruptHoldoffCount; a COMMIT or an SQL error leaves none). Such a backend
    ignores query cancel, statement_timeout, pg_terminate_backend and the barrier DROP
    DATABASE waits for, so it would hang a fast shutdown of the server or a drop. The
    connection is marked expired, as the pool retires one past its max_lifetime: closed on
    return without a warning, and replaced in the background (closing it here would log a
    warning per failed block). The expiry date is an attribute psycopg keeps for its pools,
    not public API: psycopg-pool is pinned, and tests/test_db_connections.py fails if a
    release stops honouring it. A failed block is the rare case."""
    if failed and not conn.closed:
        conn._expire_at = 0.0
    pool.putconn(conn)


def _alive(conn: Conn) -> None:
    """The pool's check of a connection it hands out: an empty query's round trip, sent with
    libpq itself (no statement of the caller's, no Python-level cursor); raises when the server
    dropped the connection, so the pool replaces it."""
    res = conn.pgconn.exec_(b"")
    if res.status != pq.ExecStatus.EMPTY_QUERY:
        message = (res.error_message or b"").decode("utf-8", "replace").strip()
        status = pq.ExecStatus(res.status).name
        raise psycopg.OperationalError(f"connection check failed: {message or status}")


FIRST_WAIT = 2.0  # seconds a checkout waits before asking whether the server is alive
WAIT = 30.0  # the wait for a connection once the server is known to answer (a busy pool)
SPARE_WAIT = 0.001  # Database.spare: a free connection or none (a pool below its size grows)


def _named(dsn: str) -> dict[str, str]:
    """This process's name on its connections (pg_stat_activity, and what `stop-db` lists),
    unless the DSN or PGAPPNAME gives one."""
    try:
        given = psycopg.conninfo.conninfo_to_dict(dsn).get("application_name")
    except psycopg.ProgrammingError:  # the pool's connect names what is wrong with it
        return {}
    return {} if given or os.environ.get("PGAPPNAME") else {"application_name": process_name()}


class Database:
    """A pool over one Postgres database with the memory schema applied.

    Every connection is checked when it is handed out, so one the server dropped is replaced.
    When no connection comes within FIRST_WAIT seconds the server is probed: an embedded server
    that died is started again and the pool renewed; an unreachable external server gives a
    StoreError naming it at once (and on every call until it answers), not a PoolTimeout."""

    def __init__(self, dsn: str, max_size: int = 8) -> None:
        self.dsn = dsn
        self.max_size = max_size
        self._down = False  # the last probe found the server down: probe before waiting
        self._revive_lock = threading.Lock()
        self._ensure_schema()
        self.pool = self._new_pool()

    def _new_pool(self) -> ConnectionPool[Conn]:
        return ConnectionPool(
            self.dsn,
            min_size=min(2, self.max_size),  # a search reads on two at once (store.search)
            max_size=self.max_size,
            configure=_configure,
            check=_alive,
            kwargs={
                "row_factory": dict_row,
                "autocommit": True,
                "connect_timeout": 10,
                **_named(self.dsn),
            },
            # A pool that cannot connect gives up its attempt within seconds, so it tries
            # afresh (not after a long backoff) once the server is back.
            reconnect_timeout=5.0,
            open=True,
        )

    def _ensure_schema(self) -> None:
        with _migrate_lock:
            if self.dsn in _migrated:
                return
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=10) as conn:
                    applied = migrate(conn)
            except psycopg.OperationalError as exc:
                hint = (
                    "Check MEMORY_PG_DSN, or unset it to use the embedded server."
                    if os.environ.get("MEMORY_PG_DSN")
                    else "The embedded server of MEMORY_HOME did not answer: run the command"
                    " again; if it fails again, `memory-pipelines stop-db`, then run it again."
                )
                raise StoreError(
                    f"cannot connect to Postgres at {describe_dsn(self.dsn)} ({exc}). {hint}"
                ) from exc
            if applied and applied[0] > 1:  # an operator should know a command upgraded it
                log.warning(
                    "migrated the schema of %s to version %d (%d migrations applied)",
                    describe_dsn(self.dsn),
                    applied[-1],
                    len(applied),
                )
            _migrated.add(self.dsn)

    def _checkout(self) -> tuple[ConnectionPool[Conn], Conn]:
        if self._down:
            self._revive(self.pool)
        pool = self.pool
        try:
            return pool, pool.getconn(timeout=FIRST_WAIT)
        except PoolTimeout:
            pass
        self._revive(pool)  # StoreError when the server stays down
        pool = self.pool
        return pool, pool.getconn(timeout=WAIT)

    def _revive(self, failed: ConnectionPool[Conn]) -> None:
        """Probe the server; restart it if it is the embedded one and died (then renew the
        pool, whose connections and reconnect attempts belong to the dead server)."""
        with self._revive_lock:
            try:
                restarted = ensure_server(self.dsn)
            except StoreError:
                self._down = True
                raise
            self._down = False
            if restarted and self.pool is failed:
                self.pool = self._new_pool()
                # Its workers may be sleeping between reconnect attempts: not waited for here.
                threading.Thread(target=failed.close, kwargs={"timeout": 10}, daemon=True).start()

    @contextmanager
    def connection(self) -> Iterator[Conn]:
        """A pooled autocommit connection; use `with conn.transaction():` to group writes.
        A connection whose block raised is not reused (_give_back)."""
        pool, conn = self._checkout()
        failed = True
        try:
            with conn:
                yield conn
            failed = False
        except psycopg.errors.ForeignKeyViolation as exc:
            # A write to a store deleted since the caller checked it (the store's row is what
            # every store_id refers to): said as the missing store it now is, nothing written.
            if 'table "stores"' not in (exc.diag.message_detail or ""):
                raise
            raise NotFound(
                "the store does not exist: it was deleted while this was written, and nothing"
                " was written"
            ) from exc
        except psycopg.OperationalError as exc:
            if not conn.closed:
                raise
            # The server went away during the call: the next call probes it first.
            self._down = True
            raise StoreError(
                f"lost the connection to Postgres at {describe_dsn(self.dsn)} during the call "
                f"({exc}); the next call reconnects"
            ) from exc
        finally:
            _give_back(pool, conn, failed)

    @contextmanager
    def spare(self) -> Iterator[Conn | None]:
        """A second connection for work beside a connection the caller holds, only when one is
        free at once (None otherwise: the caller does the work on its own). Never waited for:
        callers that each hold a connection and wait for another could take the whole pool."""
        if self._down:
            yield None
            return
        pool = self.pool
        try:
            conn = pool.getconn(timeout=SPARE_WAIT)
        except PoolTimeout:
            yield None
            return
        failed = True
        try:
            with conn:
                yield conn
            failed = False
        finally:
            _give_back(pool, conn, failed)

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """A pooled connection inside one transaction: all of it is written, or none."""
        with self.connection() as conn, conn.transaction():
            yield conn

    def close(self) -> None:
        self.pool.close()


@functools.lru_cache(maxsize=8)
def _database(dsn: str) -> Database:
    return Database(dsn)


def get_database(dsn: str | None = None) -> Database:
    """The process-wide Database for a DSN (default: MEMORY_PG_DSN or the embedded server)."""
    return _database(resolve_dsn(dsn))


def as_array(vec: Any) -> np.ndarray:
    """A pgvector value as a float32 numpy array."""
    return np.asarray(vec.to_numpy() if hasattr(vec, "to_numpy") else vec, dtype=np.float32)
