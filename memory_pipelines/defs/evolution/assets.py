"""evolution@v1 per store: tags and entities refreshed from linked neighbours."""

import time
from collections.abc import Iterator
from typing import Any

import dagster as dg

from memory_pipelines.api import evolution as evolution_api
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.gating import GatedJobConfig, gate, gated_outcome
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import DB_POOL, stores_partitions
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
    # After maintenance: it reads the items as the pass left them (merged, archived).
    deps=[link_graph, dg.AssetKey("maintenance")],
    partitions_def=stores_partitions,
    pool=DB_POOL,
    group_name="maintenance",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Each linked current item learns from its neighbours: tags two or more of them "
    "share, and their entities its own text names. Additions only, a version row and an "
    "`evolve` event per change; no context or body is rewritten, a user's words least of all. "
    "Does nothing while evolution is inactive for the store, unless run with force: true.",
    check_specs=[KEEPS_TEXT],
    # Inactive and not forced: no materialisation (nothing was produced), an observation.
    output_required=False,
    metadata={"dagster/table_name": "agent_memory_items"},
)
def evolution(
    context: dg.AssetExecutionContext, config: GatedJobConfig, store: StoreResource
) -> Iterator[Any]:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    active, skipped = gate(context, db, "evolution", config.force)
    if skipped is None:
        res = evolution_api.evolve(db, store_id, context.run.run_id, log=context.log.info)
    with db.connection() as conn:
        changed = neighbours_db.evolve_text_changes(conn, store_id)
    check = result(KEEPS_TEXT, changed == 0, text_changes=changed)
    yield from gated_outcome(
        context,
        skipped,
        check,
        active,
        res["items_evolved"] if skipped is None else 0,
        {}
        if skipped is not None
        else {
            **res,
        },
        time.perf_counter() - start,
    )
