"""reflection@v1 runs weekly for the stores where it is active; shipped stopped, as the spec
says. Materialise `reflection` by hand (config force: true) to see what it would write."""

import dagster as dg

from memory_pipelines.defs.gating import active_store_runs
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.reflection.assets import reflection
from memory_pipelines.resources import StoreResource

reflection_job = dg.define_asset_job(
    "reflect",
    selection=[reflection],
    partitions_def=stores_partitions,
    description="Insights from clusters of never-recalled memory items of a store.",
)


@dg.schedule(
    job=reflection_job,
    cron_schedule="0 5 * * 0",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.STOPPED,
    description="Weekly, Sunday 05:00 UTC: one reflection run per store where it is active "
    "(ships stopped).",
)
def reflection_schedule(context: dg.ScheduleEvaluationContext, store: StoreResource):
    return active_store_runs(context, store, "reflection")
