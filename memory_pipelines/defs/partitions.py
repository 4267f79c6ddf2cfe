"""One Dagster dynamic partition per store."""

import dagster as dg

stores_partitions = dg.DynamicPartitionsDefinition(name="stores")


def runs_per_store(
    context: dg.ScheduleEvaluationContext, job: str
) -> dg.SkipReason | list[dg.RunRequest]:
    """A schedule's answer: one run per store partition (keyed by the tick, so a tick never
    runs a store twice), or a skip reason while there is no store."""
    stores = context.instance.get_dynamic_partitions("stores")
    if not stores:
        return dg.SkipReason("no stores yet")
    tick = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time else ""
    return [dg.RunRequest(partition_key=s, run_key=f"{job}:{s}:{tick}") for s in sorted(stores)]
