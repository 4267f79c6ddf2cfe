"""reflection@v1 per store: never-recalled clusters synthesised into insight items."""

import time

import dagster as dg

from memory_pipelines.api import reflection as reflection_api
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.gating import GatedJobConfig, gate
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import neighbours as neighbours_db

DERIVED_TRUST = store_check(
    "insights_derived_trust",
    "reflection",
    "Every insight of the store lists what fed it, and is trusted only if all of it is. Not "
    "blocking: nothing runs after reflection.",
    blocking=False,
)


@dg.asset(
    deps=[link_graph],
    partitions_def=stores_partitions,
    group_name="maintenance",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Insight items (category insight) synthesised from clusters of current items "
    "nobody recalled: communities over the link graph plus similarity edges, 3 or more "
    "members, summarised by the model resource. Derived, machine-sourced, confidence <= 6, as "
    "trusted as the least trusted member, fed_by every member, part_of links from each. Does "
    "nothing while reflection is inactive for the store, unless run with force: true.",
    check_specs=[DERIVED_TRUST],
)
def reflection(
    context: dg.AssetExecutionContext,
    config: GatedJobConfig,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    active, metadata = gate(context, db, "reflection", config.force)
    if metadata is None:
        models = model.models(embedder.get())
        res = reflection_api.reflect(
            db, store_id, models, embedder.get(), context.run_id, log=context.log.info
        )
        metadata = {
            "dagster/row_count": res["insights_created"],
            "dagster/table_name": "agent_memory_items",
            "active": active,
            "forced": not active,
            **res,
            "backend": models.backend.name,
            "model": models.backend.model,
        }
    with db.connection() as conn:
        bad = neighbours_db.insight_trust_violations(conn, store_id)
    metadata["seconds"] = round(time.perf_counter() - start, 2)
    return dg.MaterializeResult(
        metadata=metadata,
        check_results=[result(DERIVED_TRUST, bad == 0, violations=bad)],
    )
