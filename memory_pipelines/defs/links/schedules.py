"""linkgen@v1 runs hourly for every store (on, as the spec ships it)."""

from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.partitions import per_store_schedule

linkgen_job, linkgen_schedule = per_store_schedule(
    "linkgen_schedule",
    link_graph,
    job="linkgen",
    job_description="Typed links for new or changed memory items of a store.",
    cron="0 * * * *",
    running=True,
    description="Hourly: one linkgen run per store partition.",
)
