"""Sensors that ask for a run only where a store owes work, read from the store on each tick.

A tick costs one query over the stores' tables and launches nothing while no store owes
anything: a run (a process, imports, the model) is paid only for work. A store with a run of
the job queued or running gets no second one; the work of a failed run is still owed, so the
next tick asks for it again (under a new run key)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import Any

import dagster as dg

from memory_pipelines.defs.partitions import runnable_stores
from memory_pipelines.resources import StoreResource
from memory_pipelines.store.db import Conn

IN_FLIGHT = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
]
SHOWN = 20  # stores named at most in a skip reason
Owed = Callable[[Conn, Sequence[str]], dict[str, int]]


def in_flight(instance: dg.DagsterInstance, jobs: Collection[str]) -> dict[str, str]:
    """store -> id of a run of one of `jobs` not finished yet (queued, starting, running)."""
    records = instance.get_run_records(filters=dg.RunsFilter(statuses=IN_FLIGHT))
    return {
        r.dagster_run.tags["dagster/partition"]: r.dagster_run.run_id
        for r in records
        if r.dagster_run.job_name in jobs and "dagster/partition" in r.dagster_run.tags
    }


def listed(lines: Sequence[str]) -> str:
    more = len(lines) - SHOWN
    return "; ".join(lines[:SHOWN]) + (f"; and {more} more" if more > 0 else "")


def owed_work_sensor(
    name: str,
    job: Any,  # define_asset_job's result (its class is not in dagster's public names)
    owed: Owed,
    *,
    what: str,
    interval_seconds: int,
    description: str,
) -> dg.SensorDefinition:
    """A sensor (on as shipped) asking for one run of `job` per store partition that `owed`
    says owes work (`what`: the unit it counts, for the run's memory/why tag)."""

    @dg.sensor(
        name=name,
        job=job,
        minimum_interval_seconds=interval_seconds,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description=description,
    )
    def _sensor(context: dg.SensorEvaluationContext, store: StoreResource):
        stores = context.instance.get_dynamic_partitions("stores")
        if not stores:
            return dg.SkipReason("no stores yet")
        with store.database().connection() as conn:
            owing = owed(conn, stores)
        busy = in_flight(context.instance, {job.name})
        waiting = [f"{s}: run {busy[s]} in progress" for s in sorted(owing) if s in busy]
        ok, bad = runnable_stores(context, store, [s for s in owing if s not in busy])
        now = datetime.now(UTC)
        runs = [
            dg.RunRequest(
                partition_key=s,
                # A new key per tick: the work of a failed run is asked for again.
                run_key=f"{job.name}:{s}:{now:%Y%m%dT%H%M%S.%f}",
                tags={"memory/why": f"{owing[s]} {what}"},
            )
            for s in ok
        ]
        if runs:
            return runs
        parts = [("running", waiting), ("not runnable", bad)]
        detail = " | ".join(f"{n}: {listed(lines)}" for n, lines in parts if lines)
        return dg.SkipReason(
            f"no store owes {what} ({len(stores)} checked)"
            if not owing
            else f"nothing to ask for ({detail})"
        )

    return _sensor
