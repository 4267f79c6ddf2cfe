"""A database of its own for a test (its own tables' statistics, migrations from nothing, a
big store), on the session's server, dropped afterwards."""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import make_conninfo

# DROP DATABASE waits until every backend of the server has acknowledged it (a
# ProcSignalBarrier). A backend whose interrupts are held never does: seen once here, an idle
# pooled connection with InterruptHoldoffCount 8 (left held by an extension's code path, most
# likely pg_textsearch 1.0's), and the whole run hung in a fixture's teardown. The drop gives
# up after this long and leaves the database to the throwaway server.
DROP_WAIT = "30s"


@contextmanager
def scratch_database(pg_dsn: str, prefix: str) -> Iterator[str]:
    """Create a database named `prefix`_<random> and yield its DSN; drop it afterwards,
    waiting at most DROP_WAIT."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_conninfo(pg_dsn, dbname=name)
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute(f"SET statement_timeout = '{DROP_WAIT}'")
            try:
                admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            except psycopg.errors.QueryCanceled:
                warnings.warn(
                    f"database {name} left on the server: a backend did not acknowledge"
                    f" its drop within {DROP_WAIT}",
                    stacklevel=2,
                )
