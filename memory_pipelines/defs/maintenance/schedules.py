"""maintenance@v1 runs daily for every store, on as shipped: the console calls maintenance a
periodic pass. A store whose Maintenance card says enabled=false is skipped by the asset."""

from memory_pipelines.core.settings import Maintenance
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.defs.partitions import per_store_schedule

# The Maintenance card's default time, for every store: one schedule, one run per store.
_DEFAULT = Maintenance()

maintenance_job, maintenance_schedule = per_store_schedule(
    "maintenance_schedule",
    maintenance,
    job="maintenance_pass",  # not "maintenance": a job may not share the asset's (op's) name
    job_description="Merge duplicates, archive faded records and flag contradictions in a store.",
    cron=_DEFAULT.cron,
    timezone=_DEFAULT.timezone,
    running=True,
    description="Daily at 03:00 UTC, after decay (02:00): one maintenance run per store.",
)
