"""Decay scores in Postgres: items as a polars frame in, item_scores rows out."""

from __future__ import annotations

from datetime import datetime

import polars as pl
from psycopg import sql

from memory_pipelines.core.decay import SCORE_COLUMNS, TIME_COLUMNS
from memory_pipelines.store.db import Conn

ITEM_SCHEMA: dict[str, pl.DataType] = {
    "item_id": pl.Int64(),
    "state": pl.String(),
    "category": pl.String(),
    "confidence": pl.Int64(),
    "importance": pl.Int64(),
    **{c: pl.Datetime("us", "UTC") for c in TIME_COLUMNS},
}


def items_frame(conn: Conn, store_id: str) -> pl.DataFrame:
    """Every item of the store (any state) with the columns decay reads."""
    rows = conn.execute(
        sql.SQL("SELECT {} FROM agent_memory_items WHERE store_id = %s ORDER BY item_id").format(
            sql.SQL(", ").join(map(sql.Identifier, ITEM_SCHEMA))
        ),
        (store_id,),
    ).fetchall()
    return pl.DataFrame(rows, schema=ITEM_SCHEMA, orient="row")


def write_scores(
    conn: Conn, store_id: str, scores: pl.DataFrame, computed_at: datetime, run_id: str
) -> int:
    """Replace the store's scores with these (one row per item); an item deleted since it was
    read is skipped. Returns the rows written. Call inside a transaction."""
    conn.execute(
        "CREATE TEMP TABLE new_scores (item_id bigint, salience float8, base float8,"
        " idle_since timestamptz, idle_days float8, half_life_days float8) ON COMMIT DROP"
    )
    with (
        conn.cursor() as cur,
        cur.copy(
            sql.SQL("COPY new_scores ({}) FROM STDIN").format(
                sql.SQL(", ").join(map(sql.Identifier, SCORE_COLUMNS))
            )
        ) as cp,
    ):
        for row in scores.select(SCORE_COLUMNS).iter_rows():
            cp.write_row(row)
    written = conn.execute(
        "INSERT INTO item_scores (item_id, store_id, salience, base, idle_since, idle_days,"
        " half_life_days, computed_at, run_id)"
        " SELECT n.item_id, i.store_id, n.salience, n.base, n.idle_since, n.idle_days,"
        " n.half_life_days, %s, %s FROM new_scores n"
        " JOIN agent_memory_items i ON i.item_id = n.item_id AND i.store_id = %s"
        " ON CONFLICT (item_id) DO UPDATE SET salience = excluded.salience,"
        " base = excluded.base, idle_since = excluded.idle_since,"
        " idle_days = excluded.idle_days, half_life_days = excluded.half_life_days,"
        " computed_at = excluded.computed_at, run_id = excluded.run_id",
        (computed_at, run_id, store_id),
    ).rowcount
    return int(written)
