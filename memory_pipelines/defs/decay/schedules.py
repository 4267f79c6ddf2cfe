"""decay@v1 runs daily for every store; shipped stopped, as the spec says (turn it on in the UI,
or materialise `decay_scores` by hand at any time)."""

import dagster as dg

from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.partitions import runs_per_store, stores_partitions

decay_job = dg.define_asset_job(
    "decay",
    selection=[decay_scores],
    partitions_def=stores_partitions,
    description="Salience of every memory item of a store, into item_scores.",
)


@dg.schedule(
    job=decay_job,
    # Before the maintenance pass (03:00 UTC by default), which consumes the scores.
    cron_schedule="0 2 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.STOPPED,
    description="Daily: one decay run per store partition (ships stopped).",
)
def decay_schedule(context: dg.ScheduleEvaluationContext):
    return runs_per_store(context, "decay")
