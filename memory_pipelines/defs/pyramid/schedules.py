"""rollup@v1 runs every 15 minutes for every store (on, as the spec ships it)."""

import dagster as dg

from memory_pipelines.defs.partitions import runs_per_store, stores_partitions
from memory_pipelines.defs.pyramid.assets import chunk_pyramid

rollup_job = dg.define_asset_job(
    "rollup",
    selection=[chunk_pyramid],
    partitions_def=stores_partitions,
    description="Summarise the complete batches of turns and chunks of a store not yet rolled up.",
)


@dg.schedule(
    job=rollup_job,
    cron_schedule="*/15 * * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every 15 minutes: one rollup run per store partition (a run with no complete "
    "batch to build writes nothing and takes a few index probes).",
)
def rollup_schedule(context: dg.ScheduleEvaluationContext):
    return runs_per_store(context, "rollup")
