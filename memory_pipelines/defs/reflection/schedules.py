"""reflection@v1 runs weekly for the stores where it is active; shipped stopped, as the spec
says. Materialise `reflection` by hand (config force: true) to see what it would write."""

from memory_pipelines.defs.partitions import per_store_schedule
from memory_pipelines.defs.reflection.assets import reflection

reflection_job, reflection_schedule = per_store_schedule(
    "reflection_schedule",
    reflection,
    job="reflect",
    job_description="Insights from clusters of never-recalled memory items of a store.",
    cron="0 5 * * 0",
    running=False,
    description="Weekly, Sunday 05:00 UTC: one reflection run per store where it is active "
    "(ships stopped).",
    gated="reflection",
)
