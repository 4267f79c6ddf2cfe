"""Decay scores per store: the salience of every item, never changing the item (decay@v1)."""

import time

import dagster as dg

from memory_pipelines.api.decay import score_store
from memory_pipelines.core.decay import histogram_markdown
from memory_pipelines.defs.extraction.assets import memory_items
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import DB_POOL, stores_partitions
from memory_pipelines.resources import StoreResource


@dg.asset(
    deps=[memory_items],
    partitions_def=stores_partitions,
    pool=DB_POOL,
    group_name="maintenance",
    kinds={"postgres", "polars"},
    owners=["team:memory"],
    description="item_scores: salience per item from confidence, importance and idle time; it "
    "halves per idle half-life of the item's type (the store's decay per type; a type not "
    "listed never decays). Never deletes, never changes an item's stored confidence.",
)
def decay_scores(context: dg.AssetExecutionContext, store: StoreResource) -> dg.MaterializeResult:
    start = time.perf_counter()
    res = score_store(store.database(), context.partition_key, run_id=context.run.run_id)
    context.log.info(
        f"store {context.partition_key}: scored {res['rows_written']} items,"
        f" {res['below_archive_threshold']} current below {res['archive_below']}"
    )
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": res["rows_written"],
                "dagster/table_name": "item_scores",
                "current_items": res["current_items"],
                "mean_salience": res["mean_salience"],
                "below_archive_threshold": res["below_archive_threshold"],
                "archive_below": res["archive_below"],
                "never_decaying": res["never_decaying"],
                "salience_histogram": dg.MetadataValue.md(histogram_markdown(res["histogram"])),
                "salience_counts": dg.MetadataValue.json(res["histogram"]),
                "seconds": round(time.perf_counter() - start, 2),
            },
        )
    )
