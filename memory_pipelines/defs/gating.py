"""What the gated background jobs (reflection, evolution) share in Dagster: the `force` flag
of a hand-made materialisation, the refusal while the job is inactive, and schedules that ask
for runs only of the stores where the job is active."""

import dagster as dg
from pydantic import Field

from memory_pipelines.resources import StoreResource
from memory_pipelines.store import jobs as jobs_db


class GatedJobConfig(dg.Config):
    force: bool = Field(
        default=False,
        description="Do the work although the job is not active for this store (by hand, e.g. "
        "to look at what it would write before activating it behind an evaluation).",
    )


def refusal(job: str, store_id: str, active: bool, force: bool) -> dict | None:
    """The metadata of a run that does nothing (the job is inactive, not forced), else None."""
    if active or force:
        return None
    return {
        "active": False,
        "forced": False,
        "skipped": dg.MetadataValue.text(
            f"{job} is not active for store {store_id!r}: nothing done. Activate it behind an "
            f"evaluation (memory-pipelines jobs evaluate {job}, then jobs activate {job}), or "
            "materialise by hand with config force: true."
        ),
    }


def active_store_runs(
    context: dg.ScheduleEvaluationContext, store: StoreResource, job: str
) -> dg.SkipReason | list[dg.RunRequest]:
    """One run per store partition where the job is active (keyed by the tick), else a skip
    reason; an inactive store's run would only say it did nothing."""
    stores = context.instance.get_dynamic_partitions("stores")
    if not stores:
        return dg.SkipReason("no stores yet")
    with store.database().connection() as conn:
        on = jobs_db.active_stores(conn, job)
    active = [s for s in sorted(stores) if s in on]
    if not active:
        return dg.SkipReason(f"{job} is active for no store (memory-pipelines jobs activate)")
    tick = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time else ""
    return [dg.RunRequest(partition_key=s, run_key=f"{job}:{s}:{tick}") for s in active]
