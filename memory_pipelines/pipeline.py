"""Run the Dagster pipeline for stores in this process (the demo, evaluations, benchmarks)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import contextmanager
from typing import Any

import dagster as dg

from memory_pipelines.defs.dead_runs import RUN_HOST, RUN_PID, fail_dead_runs, this_machine
from memory_pipelines.store.dagster_home import use_dagster_home


@contextmanager
def dagster_instance(dsn: str | None = None) -> Any:
    """The persistent instance under MEMORY_HOME (runs visible later in `memory-pipelines dev`)."""
    use_dagster_home(dsn)
    with dg.DagsterInstance.get() as instance:
        yield instance


def materialize_stores(
    instance: dg.DagsterInstance,
    store_ids: Sequence[str],
    assets: Sequence[Any] | None = None,
    resources: dict[str, Any] | None = None,
    raise_on_error: bool = True,
) -> list[dg.ExecuteInJobResult]:
    """Materialise the assets for each store partition, adding partitions as needed
    (`raise_on_error` False: a failed run is returned, its `success` False)."""
    from memory_pipelines.definitions import ASSETS
    from memory_pipelines.definitions import resources as default_resources

    fail_dead_runs(instance)
    known = set(instance.get_dynamic_partitions("stores"))
    missing = [s for s in store_ids if s not in known]
    if missing:
        instance.add_dynamic_partitions("stores", missing)
    results = []
    for store_id in store_ids:
        result = dg.materialize(
            list(assets or ASSETS),
            partition_key=store_id,
            instance=instance,
            resources=resources or default_resources(),
            tags={
                "memory/store": store_id,
                RUN_HOST: this_machine(),
                RUN_PID: str(os.getpid()),
            },
            # Step-level DEBUG events stay in the run log (and the UI); the console gets INFO.
            run_config={"loggers": {"console": {"config": {"log_level": "INFO"}}}},
            raise_on_error=raise_on_error,
        )
        results.append(result)
    return results


def job_def(name: str) -> dg.JobDefinition:
    """A job of the definitions by name (what a run's worker reconstructs)."""
    from memory_pipelines.definitions import defs

    return defs().resolve_job_def(name)


def reconstructable_job(name: str) -> Any:
    """The job as a launched run loads it: from this module in any process, so its steps may
    run in other processes (or machines) under the job's own executor."""
    return dg.build_reconstructable_job(
        "memory_pipelines.pipeline", "job_def", reconstructable_args=(name,)
    )
