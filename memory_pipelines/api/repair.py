"""Putting right what a check of memory_items found and no pipeline step writes: current items
whose vector is not the model's (a zero or placeholder vector set outside the pipeline) are
embedded again from their words, as a save embeds them (the context)."""

from __future__ import annotations

from collections.abc import Callable

from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import item_reads
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Database

BATCH = 64
Log = Callable[[str], None]


def reembed_items(
    db: Database, store_id: str, embedder: Embedder, log: Log | None = None
) -> list[int]:
    """Embed again every current item of the store whose vector is not a unit vector of the
    model; their ids. Each batch is re-read under lock, so an item put right meanwhile (or
    changed) is left as it is."""
    with db.connection() as conn:
        ids = item_reads.unembedded_current(conn, store_id)
    done: list[int] = []
    for at in range(0, len(ids), BATCH):
        with db.transaction() as conn:
            # their persons first, as every writer of several records locks them
            items_db.lock_persons_of(conn, store_id, ids[at : at + BATCH])
            rows = item_reads.misembedded_for_update(conn, store_id, ids[at : at + BATCH])
            for r in rows:  # as a save embeds its context
                item_reads.set_embedding(conn, r["item_id"], embedder.embed_one(r["context"]))
            done += [int(r["item_id"]) for r in rows]
        if log:
            log(f"store {store_id}: {len(done)}/{len(ids)} items embedded again")
    return done
