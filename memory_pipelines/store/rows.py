"""Rows read straight into the record types of core/types, and the column lists derived from
them: a type's fields are the columns the store reads, so each list is written once."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import numpy as np
from psycopg import sql
from psycopg.abc import Params
from psycopg.rows import class_row
from pydantic import BaseModel

from memory_pipelines.errors import StoreError
from memory_pipelines.store.db import Conn, as_array

M = TypeVar("M", bound=BaseModel)
_PLAIN = re.compile(r"[a-z_][a-z0-9_]*")
Query = str | sql.SQL | sql.Composed


def columns(model: type[BaseModel], table: str | None = None) -> sql.SQL:
    """The model's fields as a SELECT list (qualified by a table alias when given). Written out
    once as one piece of SQL: a list of Identifiers is escaped again at every execution (about
    40 for an item, a tenth of a millisecond per statement). Field and alias names are plain
    identifiers ([a-z_][a-z0-9_]*), so double quotes are all their quoting needs."""
    names = [*model.model_fields, *([table] if table else [])]
    bad = [n for n in names if not _PLAIN.fullmatch(n)]
    if bad:
        raise ValueError(f"columns: {bad} are not plain identifiers ([a-z_][a-z0-9_]*)")
    prefix = f'"{table}".' if table else ""
    return sql.SQL(", ".join(f'{prefix}"{name}"' for name in model.model_fields))


def fetch_all(conn: Conn, model: type[M], query: Query, params: Params | None = None) -> list[M]:
    """Every row of the query as a `model` (each checked against the type)."""
    with conn.cursor(row_factory=class_row(model)) as cur:
        return cur.execute(query, params).fetchall()


def fetch_one(conn: Conn, model: type[M], query: Query, params: Params | None = None) -> M | None:
    """The first row of the query as a `model`, or None."""
    with conn.cursor(row_factory=class_row(model)) as cur:
        return cur.execute(query, params).fetchone()


def one(row: Any, what: str) -> Any:
    """The row a statement that always returns one returned (INSERT ... RETURNING, an
    aggregate); a missing one is a broken invariant, reported as such rather than asserted."""
    if row is None:
        raise StoreError(f"{what} returned no row")
    return row


def with_vector(
    model: type[M], row: dict[str, Any], column: str = "vector"
) -> tuple[M, np.ndarray | None]:
    """A row read with its embedding (as `column`): the record, kept apart from its vector
    (None when it has none yet), since no vector travels in a record."""
    vec = row.pop(column)
    return model.model_validate(row), None if vec is None else as_array(vec)
