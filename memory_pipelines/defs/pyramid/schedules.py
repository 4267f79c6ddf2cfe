"""rollup@v1 runs every 15 minutes for every store (on, as the spec ships it)."""

from memory_pipelines.defs.partitions import per_store_schedule
from memory_pipelines.defs.pyramid.assets import chunk_pyramid

rollup_job, rollup_schedule = per_store_schedule(
    "rollup_schedule",
    chunk_pyramid,
    job="rollup",
    job_description="Summarise the complete batches of turns and chunks of a store not yet "
    "rolled up.",
    cron="*/15 * * * *",
    running=True,
    description="Every 15 minutes: one rollup run per store partition (a run with no complete "
    "batch to build writes nothing and takes a few index probes).",
)
