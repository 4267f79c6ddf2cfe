"""evolution@v1 runs daily for the stores where it is active; shipped stopped, as the spec
says. Materialise `evolution` by hand (config force: true) to see what it would change."""

import dagster as dg

from memory_pipelines.defs.evolution.assets import evolution
from memory_pipelines.defs.gating import active_store_runs
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.resources import StoreResource

evolution_job = dg.define_asset_job(
    "evolve",
    selection=[evolution],
    partitions_def=stores_partitions,
    description="Tags and entities of memory items refreshed from their linked neighbours.",
)


@dg.schedule(
    job=evolution_job,
    # After the hourly linkgen has had its say, before the maintenance pass (03:00 UTC).
    cron_schedule="30 2 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.STOPPED,
    description="Daily 02:30 UTC: one evolution run per store where it is active (ships stopped).",
)
def evolution_schedule(context: dg.ScheduleEvaluationContext, store: StoreResource):
    return active_store_runs(context, store, "evolution")
