"""A search reads its own store's rows only, in a small table too: a new install's few stores
(and the LoCoMo evaluation's six) hold a few thousand turns in all, where the planner, left to
itself, joined a store's turns to its chats by walking every turn of the table in chat order.

The stores are written into a database of their own (the planner reads the table's size and
statistics, which other tests' rows would move), with words and vectors made in SQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from memory_pipelines.core.conversations import load_chats
from memory_pipelines.store import search as search_db
from memory_pipelines.store.db import Database
from memory_pipelines.store.search_sql import statement
from tests.conftest import LOCOMO
from tests.scratch_db import scratch_database

QUESTION = "What did Melanie paint by the lake at sunrise?"


@pytest.fixture(scope="module")
def small_table(pg_dsn: str) -> Iterator[tuple[Database, dict[str, int]]]:
    """The LoCoMo dev conversations, a store each, their turns as the store writes them (words
    from speaker and text); the vectors are of no account to a plan, and alike."""
    chats, _ = load_chats(LOCOMO, "locomo")
    sizes = {}
    with scratch_database(pg_dsn, "plans") as dsn:
        db = Database(dsn)
        try:
            with db.connection() as conn:
                # Written twice, as an evaluation run again writes them: the chats' statistics
                # are those of the first writing (autovacuum analyses a table only after 50
                # changes and a tenth of its rows), which name chats that are gone.
                for rewrite in (False, True):
                    if rewrite:
                        conn.execute("ANALYZE chats")
                        conn.execute("DELETE FROM stores")
                    for i, chat in enumerate(chats):
                        sizes[f"conv{i}"] = len(chat.turns)
                        _write(conn, f"conv{i}", chat.turns)
                    conn.execute("ANALYZE turns")
            yield db, sizes
        finally:
            db.close()


def _write(conn: Any, store: str, turns: list[dict[str, Any]]) -> None:
    conn.execute("INSERT INTO stores (store_id) VALUES (%s)", (store,))
    chat_id = conn.execute(
        "INSERT INTO chats (store_id, external_id, next_seq) VALUES (%s, 'c', %s)"
        " RETURNING chat_id",
        (store, len(turns) + 1),
    ).fetchone()["chat_id"]
    conn.execute(
        "INSERT INTO turns (store_id, chat_id, seq, role, speaker, text, embedding, tsv, doc_len)"
        " SELECT %s, %s, n, 'user', sp, tx,"
        " array_fill(1 + n %% 7, ARRAY[384])::real[]::vector,"
        " to_tsvector('english', sp || ' ' || tx), 20"
        " FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS t(sp, tx, n)",
        (store, chat_id, [t["speaker"] for t in turns], [t["text"] for t in turns]),
    )


def _turns_read(plan: dict[str, Any]) -> list[tuple[str, float]]:
    """Per scan of the turns table in a plan: (its node, the rows it read: those it returned
    and those its filter removed, over all its loops)."""
    found = []
    if plan.get("Relation Name") == "turns":
        rows = plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)
        found.append((plan["Node Type"], rows * plan.get("Actual Loops", 1)))
    for child in plan.get("Plans", []):
        found += _turns_read(child)
    return found


@pytest.mark.parametrize("graph", [False, True])
def test_a_search_in_a_small_table_reads_no_other_stores_turns(
    small_table: tuple[Database, dict[str, int]], graph: bool
) -> None:
    db, sizes = small_table
    store = "conv3"
    rng = np.random.default_rng(3)
    qvec = rng.standard_normal(384).astype(np.float32)
    qvec /= np.linalg.norm(qvec)
    params = search_db._params(store, QUESTION, qvec, None, 30, ["Melanie"] if graph else [], None)
    with db.connection() as conn, conn.transaction():
        caps = search_db.capabilities(conn)
        conn.execute(f"SELECT {search_db.scan_settings(caps)}", params)
        # Each store holds fewer turns than EXACT_ROWS, so words are ranked in SQL over the
        # store's rows, as in the LoCoMo evaluation.
        sql = statement("turn", False, graph)
        row = conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params).fetchone()
        rows = conn.execute(sql, params).fetchall()
    plan = next(iter(row.values()))[0]["Plan"]
    scans = _turns_read(plan)
    assert scans, plan
    # Each scan reads at most the store's own turns (the exact scan, the rows matching a word,
    # their statistics) or a row a lookup (a candidate's neighbours); a walk of the table in
    # chat order reads every store's.
    assert max(n for _, n in scans) <= sizes[store] < sum(sizes.values()) / 2, scans
    assert len(rows) >= 30  # and the search still finds its candidates
