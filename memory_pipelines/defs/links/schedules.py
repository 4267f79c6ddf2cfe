"""linkgen@v1 runs hourly for every store (on, as the spec ships it)."""

import dagster as dg

from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import runs_per_store, stores_partitions

linkgen_job = dg.define_asset_job(
    "linkgen",
    selection=[link_graph],
    partitions_def=stores_partitions,
    description="Typed links for new or changed memory items of a store.",
)


@dg.schedule(
    job=linkgen_job,
    cron_schedule="0 * * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Hourly: one linkgen run per store partition.",
)
def linkgen_schedule(context: dg.ScheduleEvaluationContext):
    return runs_per_store(context, "linkgen")
