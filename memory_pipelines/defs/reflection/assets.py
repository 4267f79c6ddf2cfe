"""reflection@v1 per store: never-recalled clusters synthesised into insight items."""

import time
from collections.abc import Iterator
from typing import Any

import dagster as dg

from memory_pipelines.api import reflection as reflection_api
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.gating import GatedJobConfig, gate, gated_outcome
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import MODEL_POOL, stores_partitions
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
    # After maintenance: it reads the items as the pass left them (merged, archived).
    deps=[link_graph, dg.AssetKey("maintenance")],
    partitions_def=stores_partitions,
    pool=MODEL_POOL,
    group_name="maintenance",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Insight items (category insight) synthesised from clusters of current items "
    "nobody recalled: communities over the link graph plus similarity edges, 3 or more "
    "members, summarised by the model resource. Derived, machine-sourced, confidence <= 6, as "
    "trusted as the least trusted member, fed_by every member, part_of links from each. Does "
    "nothing while reflection is inactive for the store, unless run with force: true.",
    check_specs=[DERIVED_TRUST],
    # Inactive and not forced: no materialisation (nothing was produced), an observation.
    output_required=False,
    metadata={"dagster/table_name": "agent_memory_items"},
)
def reflection(
    context: dg.AssetExecutionContext,
    config: GatedJobConfig,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> Iterator[Any]:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    active, skipped = gate(context, db, "reflection", config.force)
    if skipped is None:
        models = model.models(embedder.get())
        res = reflection_api.reflect(
            db, store_id, models, embedder.get(), context.run.run_id, log=context.log.info
        )
    with db.connection() as conn:
        bad = neighbours_db.insight_trust_violations(conn, store_id)
    check = result(DERIVED_TRUST, bad == 0, violations=bad)
    yield from gated_outcome(
        context,
        skipped,
        check,
        active,
        res["insights_created"] if skipped is None else 0,
        {}
        if skipped is not None
        else {
            **res,
            "backend": models.backend.name,
            "model": models.backend.model,
        },
        time.perf_counter() - start,
    )
