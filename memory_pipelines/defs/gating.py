"""What the gated background jobs (reflection, evolution) share in Dagster: the `force` flag
of a hand-made materialisation and the refusal while the job is inactive (their schedules ask
for runs only of the stores where the job is active: partitions.per_store_schedule). A refused
run records an observation saying nothing was done, not a materialisation."""

from collections.abc import Iterator
from typing import Any

import dagster as dg
from pydantic import Field

from memory_pipelines.defs.metadata import per_store
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store.db import Database


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


def nothing_done(context: dg.AssetExecutionContext, metadata: dict) -> dg.AssetObservation:
    """What a run that did nothing records: an observation of the asset for the run's store
    (shown in its history as such), never a materialisation that would claim new data."""
    return dg.AssetObservation(
        asset_key=context.asset_key, partition=context.partition_key, metadata=metadata
    )


def gated_outcome(
    context: dg.AssetExecutionContext,
    skipped: dict | None,
    check: dg.AssetCheckResult,
    active: bool,
    rows: int,
    figures: dict,
    seconds: float,
) -> Iterator[Any]:
    """What a gated asset yields: an observation that nothing was done (and its check) while
    inactive and not forced, else the materialisation of agent_memory_items with its figures."""
    if skipped is not None:
        yield nothing_done(context, skipped)
        yield check
        return
    metadata = {
        "dagster/row_count": rows,
        "dagster/table_name": "agent_memory_items",
        "active": active,
        "forced": not active,
        **figures,
        "seconds": round(seconds, 2),
    }
    yield dg.MaterializeResult(
        metadata=per_store(context.partition_key, metadata), check_results=[check]
    )


def gate(
    context: dg.AssetExecutionContext, db: Database, job: str, force: bool
) -> tuple[bool, dict | None]:
    """Whether the job is active for the run's store, and the metadata of a run that does
    nothing (logged) when it is neither active nor forced, else None."""
    store_id = context.partition_key
    with db.connection() as conn:
        active = jobs_db.is_active(conn, store_id, job)
    skipped = refusal(job, store_id, active, force)
    if skipped is not None:
        context.log.info(skipped["skipped"].value)
    return active, skipped
