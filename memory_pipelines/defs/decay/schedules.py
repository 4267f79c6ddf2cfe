"""decay@v1 runs daily for every store; shipped stopped, as the spec says (turn it on in the UI,
or materialise `decay_scores` by hand at any time)."""

from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.partitions import per_store_schedule

decay_job, decay_schedule = per_store_schedule(
    "decay_schedule",
    decay_scores,
    job="decay",
    job_description="Salience of every memory item of a store, into item_scores.",
    # Before the maintenance pass (03:00 UTC by default), which consumes the scores.
    cron="0 2 * * *",
    running=False,
    description="Daily: one decay run per store partition (ships stopped).",
)
