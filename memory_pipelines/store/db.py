"""Connections: one pool per DSN per process, pgvector types registered on each connection."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool

from memory_pipelines.errors import StoreError
from memory_pipelines.store.migrate import migrate
from memory_pipelines.store.server import resolve_dsn

# Every pooled connection returns rows as dicts.
Conn = psycopg.Connection[DictRow]

_migrated: set[str] = set()
_migrate_lock = threading.Lock()


def _configure(conn: Conn) -> None:
    register_vector(conn)


class Database:
    """A pool over one Postgres database with the memory schema applied."""

    def __init__(self, dsn: str, max_size: int = 8) -> None:
        self.dsn = dsn
        self._ensure_schema()
        self.pool: ConnectionPool[Conn] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            configure=_configure,
            kwargs={"row_factory": dict_row, "autocommit": True},
            open=True,
        )

    def _ensure_schema(self) -> None:
        with _migrate_lock:
            if self.dsn in _migrated:
                return
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    migrate(conn)
            except psycopg.OperationalError as exc:
                raise StoreError(
                    f"cannot connect to Postgres ({exc}). Check MEMORY_PG_DSN, or unset it to "
                    "use the embedded server."
                ) from exc
            _migrated.add(self.dsn)

    @contextmanager
    def connection(self) -> Iterator[Conn]:
        """A pooled autocommit connection; use `with conn.transaction():` to group writes."""
        with self.pool.connection() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """A pooled connection inside one transaction: all of it is written, or none."""
        with self.pool.connection() as conn, conn.transaction():
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
