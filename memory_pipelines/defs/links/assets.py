"""The link graph per store: typed links between memory items and chunks (linkgen@v1)."""

import time

import dagster as dg

from memory_pipelines.api import links
from memory_pipelines.core.vocabulary import LINK_TYPES
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.extraction.assets import memory_items
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import MODEL_POOL, stores_partitions
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

IN_VOCABULARY = store_check(
    "links_in_vocabulary",
    "link_graph",
    "Every link of the store has a type from the curated vocabulary. Blocking: reflection and "
    "evolution walk the links.",
    blocking=True,
)


def _by_type_table(created: dict[str, int], total: dict[str, int]) -> str:
    rows = [
        f"| {t} | {created.get(t, 0)} | {total.get(t, 0)} |"
        for t in sorted(set(LINK_TYPES) | set(total))
    ]
    return "\n".join(["| type | created now | total |", "|---|---|---|", *rows])


@dg.asset(
    # By key: the pyramid's module need not be imported for the lineage edge.
    deps=[memory_items, dg.AssetKey("chunk_pyramid")],
    partitions_def=stores_partitions,
    pool=MODEL_POOL,
    group_name="graph",
    kinds={"postgres", "python"},
    owners=["team:memory"],
    description="Typed links (relates_to, caused_by, supersedes, decided_in, part_of, owned_by, "
    "discussed_in) from each new or changed current item to its neighbours among items and "
    "chunks, proposed by the model resource; proposals outside the vocabulary are dropped.",
    check_specs=[IN_VOCABULARY],
)
def link_graph(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    models = model.models(embedder.get())
    res = links.link_pending(db, store_id, models, context.run.run_id, log=context.log.info)
    graph = links.graph_summary(db, store_id)
    created, total, bad = res.pop("created"), graph["total"], graph["out_of_vocabulary"]
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": sum(total.values()),
                "dagster/table_name": "links",
                "links_created": sum(created.values()),
                **{f"created_{t}": created.get(t, 0) for t in LINK_TYPES},
                **{f"total_{t}": total.get(t, 0) for t in LINK_TYPES},
                "links_by_type": dg.MetadataValue.md(_by_type_table(created, total)),
                "nodes": graph["nodes"],
                "edges": graph["edges"],
                "components": graph["components"],
                "largest_component": graph["largest_component"],
                **res,
                "backend": models.backend.name,
                "model": models.backend.model,
                "seconds": round(time.perf_counter() - start, 2),
            },
        ),
        check_results=[
            result(
                IN_VOCABULARY, not bad, out_of_vocabulary=sum(bad.values()), types=", ".join(bad)
            )
        ],
    )
