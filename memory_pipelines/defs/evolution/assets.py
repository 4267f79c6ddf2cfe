"""evolution@v1 per store: tags and entities refreshed from linked neighbours."""

import time

import dagster as dg

from memory_pipelines.api import evolution as evolution_api
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.gating import GatedJobConfig, gate
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import neighbours as neighbours_db

KEEPS_TEXT = store_check(
    "evolve_keeps_text",
    "evolution",
    "No version written by evolution changed an item's context or body (it adds tags and "
    "entities only). Not blocking: nothing runs after evolution.",
    blocking=False,
)


@dg.asset(
    deps=[link_graph],
    partitions_def=stores_partitions,
    group_name="maintenance",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Each linked current item learns from its neighbours: tags two or more of them "
    "share, and their entities its own text names. Additions only, a version row and an "
    "`evolve` event per change; no context or body is rewritten, a user's words least of all. "
    "Does nothing while evolution is inactive for the store, unless run with force: true.",
    check_specs=[KEEPS_TEXT],
)
def evolution(
    context: dg.AssetExecutionContext, config: GatedJobConfig, store: StoreResource
) -> dg.MaterializeResult:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    active, metadata = gate(context, db, "evolution", config.force)
    if metadata is None:
        res = evolution_api.evolve(db, store_id, context.run_id, log=context.log.info)
        metadata = {
            "dagster/row_count": res["items_evolved"],
            "dagster/table_name": "agent_memory_items",
            "active": active,
            "forced": not active,
            **res,
        }
    with db.connection() as conn:
        changed = neighbours_db.evolve_text_changes(conn, store_id)
    metadata["seconds"] = round(time.perf_counter() - start, 2)
    return dg.MaterializeResult(
        metadata=metadata,
        check_results=[result(KEEPS_TEXT, changed == 0, text_changes=changed)],
    )
