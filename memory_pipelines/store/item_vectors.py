"""Items' embeddings: the nearest to a vector among one person's items, and a store's vectors
for an in-memory pool (api/dedup_near.DedupPool), kept current from the change feed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from psycopg import sql

from memory_pipelines.core.types import Item
from memory_pipelines.store.db import Conn, as_array
from memory_pipelines.store.rows import columns

# A candidate is judged against records of its own person only (shared against shared): a
# merge or supersede across persons would show one person's words to another, or take a shared
# fact away from everybody. Never against reflection's insights: a statement merged into one
# goes when the insight goes (deleted with any record it was made from), or, a user's, turns
# it into the user's record, which then outlives the deleted records whose words it holds.
LIVE = "state IN ('current', 'archived') AND category <> 'insight'"
_REACHABLE = f"store_id = %(s)s AND {LIVE} AND person_id IS NOT DISTINCT FROM %(p)s"
_ANY = sql.SQL(
    "SELECT {}, embedding AS vector FROM agent_memory_items WHERE {} ORDER BY {} LIMIT %(k)s"
)
# A pool's choice, read by primary key before any other test: asked with the store's filters in
# one WHERE, the planner (its estimate of a young store's rows far off) scanned the store's
# index and filtered every item of the store by id, for each candidate (2.2 ms at 1.6k items,
# growing with the store).
_AMONG = sql.SQL(
    "WITH chosen AS MATERIALIZED (SELECT * FROM agent_memory_items WHERE item_id = ANY(%(ids)s))"
    " SELECT {}, embedding AS vector FROM chosen WHERE {} ORDER BY {} LIMIT %(k)s"
)
_NEAREST, _CHOSEN = (
    q.format(columns(Item), sql.SQL(_REACHABLE), sql.SQL("embedding <=> %(e)s"))
    for q in (_ANY, _AMONG)
)
_ITEM_FIELDS = tuple(Item.model_fields)
_STORE_VECTORS = sql.SQL(
    "SELECT item_id, person_id, embedding FROM agent_memory_items WHERE store_id = %s"
    " AND {} AND embedding IS NOT NULL"
).format(sql.SQL(LIVE))
_CHANGED_VECTORS = sql.SQL(
    "SELECT c.item_id, i.person_id, i.embedding, i.item_id IS NOT NULL AND {} AS live"
    " FROM (SELECT DISTINCT item_id FROM events WHERE store_id = %s AND event_id > %s"
    " AND event_id <= %s AND item_id IS NOT NULL) c"
    " LEFT JOIN agent_memory_items i USING (item_id)"
).format(sql.SQL(LIVE))


def nearest(
    conn: Conn,
    store_id: str,
    person: str | None,
    embedding: np.ndarray,
    k: int,
    among: Sequence[int] | None = None,
) -> list[tuple[Item, np.ndarray]]:
    """The k current (or archived) items closest to the embedding among the person's own (the
    shared ones for a shared candidate), closest first, each with its vector. The search is
    exact, so it needs no help from words. `among`: only these ids (a pool's choice), read to
    check they are still current and ordered by their cosine."""
    query = _NEAREST if among is None else _CHOSEN
    rows = (
        conn.cursor(binary=True)
        .execute(
            query,
            {"s": store_id, "p": person, "e": embedding, "k": k, "ids": list(among or [])},
        )
        .fetchall()
    )
    return [
        (Item.model_validate({f: r[f] for f in _ITEM_FIELDS}), as_array(r["vector"])) for r in rows
    ]


def store_vectors(conn: Conn, store_id: str) -> Iterator[tuple[int, str | None, np.ndarray]]:
    """(item_id, person_id, vector) of every item of the store a candidate is judged
    against (current or archived, no insight)."""
    for r in conn.cursor(binary=True).execute(
        _STORE_VECTORS,
        (store_id,),
    ):
        yield r["item_id"], r["person_id"], as_array(r["embedding"])


def changed_vectors(
    conn: Conn, store_id: str, after: int, upto: int
) -> Iterator[tuple[int, str | None, np.ndarray | None]]:
    """(item_id, person_id, vector) of each item an event in (after, upto] is about, with
    vector None when a candidate is no longer judged against it (superseded or deleted), or
    never is (an insight)."""
    for r in conn.cursor(binary=True).execute(
        _CHANGED_VECTORS,
        (store_id, after, upto),
    ):
        live = bool(r["live"]) and r["embedding"] is not None
        yield r["item_id"], r["person_id"], as_array(r["embedding"]) if live else None
