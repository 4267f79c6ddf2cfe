"""maintenance@v1 runs daily for every store, on as shipped: the console calls maintenance a
periodic pass. A store whose Maintenance card says enabled=false is skipped by the asset."""

import dagster as dg

from memory_pipelines.core.settings import Maintenance
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.defs.partitions import runs_per_store, stores_partitions

# Not "maintenance": a job may not share the asset's (op's) name.
maintenance_job = dg.define_asset_job(
    "maintenance_pass",
    selection=[maintenance],
    partitions_def=stores_partitions,
    description="Merge duplicates, archive faded records and flag contradictions in a store.",
)

# The Maintenance card's default time, for every store: one schedule, one run per store.
_DEFAULT = Maintenance()


@dg.schedule(
    job=maintenance_job,
    cron_schedule=_DEFAULT.cron,
    execution_timezone=_DEFAULT.timezone,
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Daily at 03:00 UTC, after decay (02:00): one maintenance run per store.",
)
def maintenance_schedule(context: dg.ScheduleEvaluationContext):
    return runs_per_store(context, "maintenance_pass")
