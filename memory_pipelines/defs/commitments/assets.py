"""Overdue commitments per store: each open commitment past its due time announced on the
event feed once (an `overdue` event)."""

from collections.abc import Iterator
from typing import Any

import dagster as dg

from memory_pipelines.api.commitments import announce_store_overdue
from memory_pipelines.defs.extraction.assets import memory_items
from memory_pipelines.defs.gating import nothing_done
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import DB_POOL, stores_partitions
from memory_pipelines.resources import StoreResource


@dg.asset(
    deps=[memory_items],
    partitions_def=stores_partitions,
    group_name="commitments",
    kinds={"postgres"},
    owners=["team:memory"],
    pool=DB_POOL,
    description="events (kind overdue): one per open, current commitment of the store past its "
    "due_at, once (a unique index makes it once however often it runs). Asked for by "
    "overdue_commitments_sensor only for stores with a commitment newly overdue.",
    output_required=False,
)
def overdue_events(context: dg.AssetExecutionContext, store: StoreResource) -> Iterator[Any]:
    store_id = context.partition_key
    res = announce_store_overdue(store.database(), store_id)
    context.log.info(
        f"store {store_id}: announced {res['announced']} overdue commitments"
        f" ({res['already']} already announced)"
    )
    if not res["announced"]:
        # Another caller got there first: nothing written, so nothing materialised.
        yield nothing_done(context, {"announced": 0, "already": res["already"]})
        return
    yield dg.MaterializeResult(
        metadata=per_store(
            store_id,
            {"dagster/table_name": "events", "announced": res["announced"], **res},
        )
    )
