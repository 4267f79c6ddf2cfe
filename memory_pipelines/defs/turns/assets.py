"""Turn embeddings per store."""

import time

import dagster as dg

from memory_pipelines.api.turns import embed_turns
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.resources import EmbedderResource, StoreResource
from memory_pipelines.store import turns as turns_db

BATCH = 256


@dg.asset(
    partitions_def=stores_partitions,
    group_name="history",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Every turn of the store embedded (pgvector) for recall.",
    check_specs=[dg.AssetCheckSpec("every_turn_embedded", asset="turn_embeddings")],
)
def turn_embeddings(
    context: dg.AssetExecutionContext, store: StoreResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    store_id = context.partition_key
    db = store.database()
    model = embedder.get()
    start = time.perf_counter()
    embedded = 0
    while True:
        with db.connection() as conn:
            pending = turns_db.unembedded_turns(conn, store_id, BATCH)
        if not pending:
            break
        vecs, sentences = embed_turns(model, [(t.speaker, t.text) for t in pending])
        with db.transaction() as conn:
            turns_db.set_turn_embeddings(conn, [t.turn_id for t in pending], vecs, sentences)
        embedded += len(pending)
        context.log.info(f"embedded {embedded} turns of store {store_id}")
    with db.connection() as conn:
        total, missing = turns_db.embedding_counts(conn, store_id)
    seconds = time.perf_counter() - start
    context.log.info(f"store {store_id}: embedded {embedded} turns in {seconds:.1f}s")
    return dg.MaterializeResult(
        metadata={
            "dagster/row_count": total,
            "dagster/table_name": "turns",
            "embedded_now": embedded,
            "model": model.model_name,
            "seconds": round(seconds, 2),
        },
        check_results=[
            dg.AssetCheckResult(
                check_name="every_turn_embedded",
                passed=missing == 0,
                metadata={"unembedded_turns": missing},
            )
        ],
    )
