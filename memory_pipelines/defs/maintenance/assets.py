"""The maintenance pass per store: merge duplicates, archive what faded, flag contradictions
(maintenance@v1). Never deletes."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import dagster as dg

from memory_pipelines.api.maintenance import maintain
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.extraction.assets import memory_items
from memory_pipelines.defs.gating import nothing_done
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import MODEL_POOL, stores_partitions
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import maintenance as maint_db

ACYCLIC = store_check(
    "supersede_chains_acyclic",
    "maintenance",
    "No superseded_by chain of the store runs in a circle (history would never end). Not "
    "blocking: nothing in the pipeline runs after maintenance.",
    blocking=False,
)
# The columns of agent_memory_items a pass rewrites, each from the same column as extraction
# left it: Dagster shows the edge in the asset's column lineage.
REWRITTEN = ("state", "superseded_by", "tags", "entities", "keywords", "contested", "valid_until")
LINEAGE = dg.TableColumnLineage(
    deps_by_column={
        c: [dg.TableColumnDep(asset_key=memory_items.key, column_name=c)] for c in REWRITTEN
    }
)
COUNTS = ("merged", "archived", "restored", "contested", "judged", "items_scanned")


@dg.asset(
    # link_graph by key: its module need not be imported for the lineage edge.
    deps=[memory_items, decay_scores, dg.AssetKey("link_graph")],
    partitions_def=stores_partitions,
    pool=MODEL_POOL,
    group_name="maintenance",
    kinds={"postgres", "numpy"},
    owners=["team:memory"],
    description="The store's Maintenance card as a periodic pass over agent_memory_items: "
    "records of one person and type at the duplicate threshold are merged (the weaker is "
    "superseded by the stronger, which keeps the union of tags, entities, keywords and edges); "
    "records whose salience (decay_scores) fell under archive_below and that nobody used for "
    "archive_idle_days are archived; with check_contradictions on, the model judges near "
    "records and both sides of a contradiction are flagged contested. Nothing is deleted.",
    check_specs=[ACYCLIC],
    # It rewrites rows of memory_items' table in place (merges, archives, contested flags).
    metadata={"dagster/table_name": "agent_memory_items", "dagster/column_lineage": LINEAGE},
    # Daily for every store by default (maintenance_sensor, on): a day and a bit without a pass
    # of any store means the sensor or its runs stopped.
    freshness_policy=dg.FreshnessPolicy.time_window(
        fail_window=timedelta(hours=26), warn_window=timedelta(hours=25)
    ),
    # A store with maintenance off: no materialisation (nothing was done), an observation.
    output_required=False,
)
def maintenance(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> Iterator[Any]:
    store_id = context.partition_key
    db = store.database()
    res = maintain(
        db,
        store_id,
        lambda: model.models(embedder.get()),
        run_id=context.run.run_id,
        log=context.log.info,
    )
    with db.connection() as conn:
        cycles = maint_db.supersede_cycles(conn, store_id)
    check = result(
        ACYCLIC,
        not cycles,
        ids=cycles,
        next_step=f"{len(cycles)} items replace each other in a circle, so none of them is"
        " current for recall: a hand edit of superseded_by? Read each one's history"
        " (memory-pipelines history ITEM) and set superseded_by right in SQL (memory-pipelines"
        " sql), or delete the ones wrongly replaced (memory-pipelines delete ITEM).",
        items_in_cycles=len(cycles),
    )
    if "skipped" in res:
        # Nothing was done: an observation says so; a materialisation would claim new data.
        context.log.info(f"store {store_id}: {res['skipped']} (Maintenance card enabled=false)")
        yield nothing_done(context, {"skipped": res["skipped"]})
        yield check
        return
    yield dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": res["current_items"],
                "dagster/table_name": "agent_memory_items",
                **{k: res[k] for k in COUNTS},
                "duplicate_clusters": res["clusters"],
                "judgements_pending": res["judgements_pending"],
                "answers_invalid": res["answers_invalid"],
                # Shared by every store: the pass that found them drifted rebuilt them.
                "text_indexes_rebuilt": ", ".join(res["text_indexes_rebuilt"]) or "none",
                "seconds": res["seconds"],
            },
        ),
        check_results=[check],
    )
