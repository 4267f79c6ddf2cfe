"""One Dagster dynamic partition per store, and the per-store job + schedule every background
job uses: a tick asks for one run per store (or per store where a gated job is active). Each
store is checked on its own: one whose settings cannot be read is logged with its id and gets
no run, the others get theirs."""

from collections.abc import Iterable
from functools import partial

import dagster as dg

from memory_pipelines.resources import StoreResource
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store import stores as stores_db

stores_partitions = dg.DynamicPartitionsDefinition(name="stores")
# Dagster pools (limits in dagster.yaml, store/dagster_home.py): steps running the embedding
# model or the LLM, and steps that only read and write Postgres.
MODEL_POOL = "model"
DB_POOL = "postgres"


def _runs(
    context: dg.ScheduleEvaluationContext, key: str, stores: Iterable[str]
) -> list[dg.RunRequest]:
    """One run per store, keyed by the tick, so a tick never runs a store twice."""
    tick = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time else ""
    return [dg.RunRequest(partition_key=s, run_key=f"{key}:{s}:{tick}") for s in sorted(stores)]


def runnable_stores(
    context: dg.ScheduleEvaluationContext | dg.SensorEvaluationContext,
    store: StoreResource,
    stores: Iterable[str],
) -> tuple[list[str], list[str]]:
    """The stores whose settings can be read, each checked on its own, and a line for each that
    cannot (logged with its id): a partition of a dropped store, a settings row written by an
    older version. Their runs would only fail; the other stores still get theirs."""
    ok, bad = [], []
    db = store.database()
    for store_id in sorted(stores):
        try:
            with db.connection() as conn:
                stores_db.get_settings(conn, store_id)
        except Exception as exc:  # one store's bad value stops no other store
            context.log.error(f"store {store_id}: no run requested: {exc}")
            bad.append(f"{store_id}: {exc}")
            continue
        ok.append(store_id)
    return ok, bad


def _answer(
    context: dg.ScheduleEvaluationContext, job: str, ok: list[str], bad: list[str], why: str
) -> dg.SkipReason | list[dg.RunRequest]:
    if ok:
        return _runs(context, job, ok)
    return dg.SkipReason(why + (f"; not runnable: {'; '.join(bad)}" if bad else ""))


def runs_per_store(
    context: dg.ScheduleEvaluationContext, store: StoreResource, job: str
) -> dg.SkipReason | list[dg.RunRequest]:
    """A schedule's answer: one run per store partition whose settings can be read, or a skip
    reason while there is none (naming the stores that cannot run)."""
    stores = context.instance.get_dynamic_partitions("stores")
    if not stores:
        return dg.SkipReason("no stores yet")
    ok, bad = runnable_stores(context, store, stores)
    return _answer(context, job, ok, bad, "no store can run")


def active_store_runs(
    context: dg.ScheduleEvaluationContext, store: StoreResource, job: str
) -> dg.SkipReason | list[dg.RunRequest]:
    """One run per store partition where the gated job is active, else a skip reason; an
    inactive store's run would only say it did nothing."""
    stores = context.instance.get_dynamic_partitions("stores")
    if not stores:
        return dg.SkipReason("no stores yet")
    with store.database().connection() as conn:
        on = jobs_db.active_stores(conn, job)
    active = [s for s in stores if s in on]
    if not active:
        return dg.SkipReason(f"{job} is active for no store (memory-pipelines jobs activate)")
    ok, bad = runnable_stores(context, store, active)
    return _answer(context, job, ok, bad, f"{job} is active for no store that can run")


def per_store_schedule(
    name: str,
    asset: dg.AssetsDefinition,
    *,
    job: str,
    job_description: str,
    cron: str,
    running: bool,
    description: str,
    timezone: str = "UTC",
    gated: str | None = None,
) -> tuple["dg.UnresolvedAssetJobDefinition", dg.ScheduleDefinition]:
    """The job materialising one asset for a store partition, and the schedule `name` that asks
    for it per store at `cron` (only where the gated job `gated` is active, when given)."""
    job_def = dg.define_asset_job(job, selection=[asset], description=job_description)
    status = dg.DefaultScheduleStatus.RUNNING if running else dg.DefaultScheduleStatus.STOPPED
    schedule = partial(
        dg.schedule,
        name=name,
        job=job_def,
        cron_schedule=cron,
        execution_timezone=timezone,
        default_status=status,
        description=description,
    )
    if gated is None:

        @schedule()
        def every_store(context: dg.ScheduleEvaluationContext, store: StoreResource):
            return runs_per_store(context, store, job)

        return job_def, every_store

    gate = gated

    @schedule()
    def active_stores(context: dg.ScheduleEvaluationContext, store: StoreResource):
        return active_store_runs(context, store, gate)

    return job_def, active_stores
