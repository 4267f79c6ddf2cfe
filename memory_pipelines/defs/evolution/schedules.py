"""evolution@v1 runs daily for the stores where it is active; shipped stopped, as the spec
says. Materialise `evolution` by hand (config force: true) to see what it would change."""

from memory_pipelines.defs.evolution.assets import evolution
from memory_pipelines.defs.partitions import per_store_schedule

evolution_job, evolution_schedule = per_store_schedule(
    "evolution_schedule",
    evolution,
    job="evolve",
    job_description="Tags and entities of memory items refreshed from their linked neighbours.",
    # After the hourly linkgen has had its say, before the maintenance pass (03:00 UTC).
    cron="30 2 * * *",
    running=False,
    description="Daily 02:30 UTC: one evolution run per store where it is active (ships stopped).",
    gated="evolution",
)
