"""The chunk pyramid per store (rollup@v1): ten turns to a level-1 chunk, ten chunks up."""

import dagster as dg

from memory_pipelines.api import pyramid
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import MODEL_POOL, stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import stores as stores_db

SHOWN_PROBLEMS = 20  # the check's metadata lists this many; the count is always whole
CONTIGUOUS = store_check(
    "pyramid_contiguous",
    "chunk_pyramid",
    "Same-level chunks of each chat of the store are contiguous from turn 1 and never overlap; "
    "each chunk's children are exactly the units it covers. Blocking: links to chunks and the "
    "boot window read the pyramid.",
    blocking=True,
)


@dg.asset(
    deps=[turn_embeddings],
    partitions_def=stores_partitions,
    pool=MODEL_POOL,
    group_name="history",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Every complete batch of 10 turns of a chat summarised into a level-1 chunk, "
    "every 10 level-1 chunks into a level-2 chunk, and so on up (level 2+ from their "
    "children's summaries only); summaries embedded for search. Incomplete batches wait.",
    check_specs=[CONTIGUOUS],
)
def chunk_pyramid(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    store_id = context.partition_key
    db = store.database()
    with db.connection() as conn:
        stores_db.require_store(conn, store_id)  # a run for no store fails here, recording nothing
    models = model.models(embedder.get())
    res = pyramid.rollup(
        db, store_id, models, embedder.get(), run_id=context.run.run_id, log=context.log.info
    )
    with db.connection() as conn:
        totals = chunks_db.level_totals(conn, store_id)
        problems = chunks_db.check_contiguity(conn, store_id)
    created = res.pop("created")
    levels = sorted(set(totals) | set(created) | {1, 2})
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": sum(totals.values()),
                "dagster/table_name": "chunks",
                **{f"created_l{lv}": created.get(lv, 0) for lv in levels},
                **{f"total_l{lv}": totals.get(lv, 0) for lv in levels},
                **res,
                "backend": models.backend.name,
                "model": models.backend.model,
            },
        ),
        check_results=[
            result(
                CONTIGUOUS,
                not problems,
                next_step=f"{len(problems)} places where the chunks of a chat do not cover its"
                " turns once, level by level (first_problems names them): the boot window and"
                " drill-down may skip or repeat turns there. No step of the pipeline writes"
                " chunks this way (a hand edit?): report it with first_problems.",
                problems=len(problems),
                first_problems="\n".join(problems[:SHOWN_PROBLEMS]),
            )
        ],
    )
