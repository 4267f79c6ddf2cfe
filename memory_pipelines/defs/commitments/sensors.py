"""Overdue commitments: a run for each store with an open commitment newly past its due time;
the run writes the `overdue` events, so the tick shows the run it asked for (and the run what
it wrote), and a tick with nothing newly overdue says so and launches nothing."""

import dagster as dg

from memory_pipelines.defs.commitments.assets import overdue_events
from memory_pipelines.defs.owed import in_flight, listed
from memory_pipelines.defs.partitions import runnable_stores
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import commitments as commitments_db

RUN_RETRIES = 2

overdue_job = dg.define_asset_job(
    "announce_overdue",
    selection=[overdue_events],
    description="Record an `overdue` event for each newly overdue commitment of a store.",
)


@dg.sensor(
    job=overdue_job,
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Every minute: counts, in one query, the open commitments of each store past "
    "their due_at with no `overdue` event yet, and asks for an announce_overdue run for each "
    "store with any (the run writes the events; a unique index makes each once). The run key "
    "names the newest such commitment, so a failed run is not asked for again until another "
    "commitment falls due (Dagster retries it first); a store that cannot run is named in the "
    "tick's log and skip reason while the others get theirs.",
)
def overdue_commitments_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    stores = context.instance.get_dynamic_partitions("stores")
    if not stores:
        return dg.SkipReason("no stores yet")
    with store.database().connection() as conn:
        owed = commitments_db.unannounced_counts(conn, stores)
    if not owed:
        return dg.SkipReason(f"no commitment newly overdue ({len(stores)} stores checked)")
    busy = in_flight(context.instance, {overdue_job.name})
    ok, bad = runnable_stores(context, store, [s for s in owed if s not in busy])
    runs = [
        dg.RunRequest(
            partition_key=s,
            run_key=f"overdue:{s}:{owed[s][1]}:{owed[s][0]}",
            tags={
                "memory/why": f"{owed[s][0]} commitments newly overdue",
                "dagster/max_retries": str(RUN_RETRIES),
            },
        )
        for s in ok
    ]
    if runs:
        return runs
    waiting = [f"{s}: run {busy[s]} in progress" for s in sorted(owed) if s in busy]
    parts = [("running", waiting), ("not runnable", bad)]
    return dg.SkipReason(
        "nothing to ask for ("
        + " | ".join(f"{n}: {listed(lines)}" for n, lines in parts if lines)
        + ")"
    )
