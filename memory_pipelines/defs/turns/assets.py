"""Turn embeddings per store."""

import time

import dagster as dg

from memory_pipelines.api.turns import embed_turns
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import MODEL_POOL, stores_partitions
from memory_pipelines.resources import EmbedderResource, StoreResource
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db

BATCH = 256
# Written by agents (the API, the HTTP service, ingest), never by the pipeline: an external
# asset, so the lineage starts where the data does.
turns = dg.AssetSpec(
    "turns",
    group_name="history",
    kinds={"postgres"},
    owners=["team:memory"],
    partitions_def=stores_partitions,
    description="Conversation turns written by agents (Memory.write_turn(s), POST /v1/.../turns, "
    "ingest): append-only, dense seq per chat. Not materialised by the pipeline; "
    "new_turns_sensor reads them.",
    metadata={"dagster/table_name": "turns"},
)
EVERY_TURN_EMBEDDED = store_check(
    "every_turn_embedded",
    "turn_embeddings",
    "Every turn of the store written before the step started has an embedding (a turn written "
    "while it ran waits for the next run). Blocking: windows and extraction read the vectors.",
    blocking=True,
)


@dg.asset(
    deps=[turns],
    partitions_def=stores_partitions,
    pool=MODEL_POOL,
    group_name="history",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Every turn of the store embedded (pgvector) for recall.",
    check_specs=[EVERY_TURN_EMBEDDED],
)
def turn_embeddings(
    context: dg.AssetExecutionContext, store: StoreResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    store_id = context.partition_key
    db = store.database()
    model = embedder.get()
    start = time.perf_counter()
    with db.connection() as conn:
        stores_db.require_store(conn, store_id)  # a run for no store fails here, recording nothing
        upto = turns_db.top_turn_id(conn, store_id)
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
        total, missing = turns_db.embedding_counts(conn, store_id, upto)
    seconds = time.perf_counter() - start
    context.log.info(f"store {store_id}: embedded {embedded} turns in {seconds:.1f}s")
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": total,
                "dagster/table_name": "turns",
                "embedded_now": embedded,
                "model": model.model_name,
                "seconds": round(seconds, 2),
            },
        ),
        check_results=[result(EVERY_TURN_EMBEDDED, missing == 0, unembedded_turns=missing)],
    )
