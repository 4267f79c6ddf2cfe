"""The sensor over new turns: a partition per new store, and a run for each store that owes
work when its settings say it is due.

The work owed is read from the store on every tick (turns not embedded, windows not applied or
not yet planned), never from what an earlier tick requested: a failed or cancelled run leaves it
owed, so it is asked for again. Dagster re-executes a failed run first (tag
`dagster/max_retries`, `run_retries` in dagster.yaml); a store whose runs keep failing is
reported (a warning in the tick's log and in its skip reason) and asked for less often. Each
store is evaluated on its own: one store's bad value is logged with its id, the others run.
"""

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import dagster as dg

from memory_pipelines.api.extraction import work_owed
from memory_pipelines.core.due import FAILING_AFTER, cron_ticked, extraction_due, retry_wait
from memory_pipelines.defs.dead_runs import fail_dead_runs
from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.owed import in_flight, listed
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Conn

extraction_job = dg.define_asset_job(
    "extraction",
    selection=[turn_embeddings, conversation_windows, extracted_candidates, memory_items],
    description="Embed pending turns, then windows -> candidates -> deduplicated memory items.",
)
embed_job = dg.define_asset_job("embed_turns", selection=[turn_embeddings])

JOBS = (extraction_job.name, embed_job.name)
RUN_RETRIES = 2  # Dagster re-executes a failed run of ours this many times
RETRY_GRACE = timedelta(minutes=10)  # how long a failed run that Dagster will retry is waited for
HISTORY = 12  # runs of a store looked at to count its failures in a row
FAILED = {dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}


@dataclass
class Verdict:
    request: dg.RunRequest | None
    why: str
    failing: str | None = None  # set when the store's runs keep failing


def _history(instance: dg.DagsterInstance, store_id: str) -> list[dg.RunRecord]:
    """The store's latest runs of our jobs, newest first (Dagster's retries included)."""
    records = [
        r
        for job in JOBS
        for r in instance.get_run_records(
            filters=dg.RunsFilter(job_name=job, tags={"dagster/partition": store_id}),
            limit=HISTORY,
        )
    ]
    return sorted(records, key=lambda r: r.create_timestamp, reverse=True)[:HISTORY]


def _retry_pending(record: dg.RunRecord, now: datetime) -> bool:
    """A failed run Dagster has said it will re-execute, and has not yet (for a while)."""
    tags = record.dagster_run.tags
    if tags.get("dagster/will_retry") != "true" or "dagster/auto_retry_run_id" in tags:
        return False
    ended = record.end_time or record.create_timestamp.timestamp()
    return now.timestamp() - ended < RETRY_GRACE.total_seconds()


def evaluate_store(
    conn: Conn,
    instance: dg.DagsterInstance,
    store_id: str,
    prev: dict,
    now: datetime,
    running: dict[str, str],
) -> Verdict:
    """Whether to request a run for one store now, and why (or why not)."""
    settings, owed = work_owed(conn, store_id, now)
    if owed is None or not owed.any:
        return Verdict(None, "nothing owed")
    if store_id in running:
        return Verdict(None, f"run {running[store_id]} in progress")
    history = _history(instance, store_id)
    failures = next(
        (i for i, r in enumerate(history) if r.dagster_run.status not in FAILED), len(history)
    )
    failing = None
    last_request_at = datetime.fromisoformat(prev["at"]) if "at" in prev else None
    if failures:
        last = history[0]
        status = last.dagster_run.status.value.lower()
        if _retry_pending(last, now):
            return Verdict(None, f"Dagster retries run {last.dagster_run.run_id} ({status})")
        if failures >= FAILING_AFTER:
            failing = f"{failures} runs in a row failed, latest {last.dagster_run.run_id}"
        wait = retry_wait(failures)
        ended = datetime.fromtimestamp(last.end_time or last.create_timestamp.timestamp(), UTC)
        if now - ended < wait:
            return Verdict(None, f"{failing}; asked again at {ended + wait:%H:%M} UTC", failing)
        last_request_at = None  # the failed request did not do the work: not a schedule slot
    job, prefix = extraction_job.name, "extract"
    due, why = extraction_due(settings, now, owed.last_turn_at, last_request_at, cron_ticked)
    if not owed.windows or not due:
        if not owed.unembedded:
            return Verdict(None, why, failing)
        job, prefix, due = embed_job.name, "embed", True
        why = f"{owed.unembedded} turns not embedded" + ("" if not owed.windows else f"; {why}")
    if failures:
        why = f"{why}; after {failures} failed run(s), latest {history[0].dagster_run.run_id}"
    request = dg.RunRequest(
        job_name=job,
        partition_key=store_id,
        # A new key per request: the work of a failed run is asked for again.
        run_key=f"{prefix}:{store_id}:{owed.top_turn}:{now:%Y%m%dT%H%M%S.%f}",
        tags={"memory/why": why, "dagster/max_retries": str(RUN_RETRIES)},
    )
    return Verdict(request, why, failing)


@dg.sensor(
    jobs=[extraction_job, embed_job],
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Adds a partition per new store and requests a run for each store that owes "
    "work (turns not embedded or not extracted, read from the store each tick) when its "
    "settings say it is due (quiet period, schedule). A failed or cancelled run's work is asked "
    "for again; a store whose runs keep failing, or that cannot be evaluated, is named in the "
    "tick's log and skip reason while the other stores run.",
)
def new_turns_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    state = json.loads(context.cursor) if context.cursor else {}
    seen: dict = state.get("stores", {})  # store -> {"at": iso time of the last request}
    now = datetime.now(UTC)
    db = store.database()
    with db.connection() as conn:
        stores = stores_db.list_stores(conn)
    known = set(context.instance.get_dynamic_partitions("stores"))
    new_partitions = [s for s in stores if s not in known]
    for run_id in fail_dead_runs(context.instance):
        context.log.warning(f"run {run_id} failed: its process on this machine is gone")
    running = in_flight(context.instance, JOBS)
    runs, waiting, failing, broken = [], [], [], []
    for store_id in stores:
        try:
            with db.connection() as conn:
                verdict = evaluate_store(
                    conn, context.instance, store_id, seen.get(store_id, {}), now, running
                )
        except Exception as exc:  # one store's bad value (settings, dates) stops no other
            context.log.exception(f"store {store_id}: not evaluated: {exc}")
            broken.append(f"{store_id}: {exc}")
            continue
        if verdict.failing:
            context.log.warning(f"store {store_id}: {verdict.failing}")
            failing.append(f"{store_id}: {verdict.failing}")
        if verdict.request is not None:
            runs.append(verdict.request)
            seen[store_id] = {"at": now.isoformat()}
        elif verdict.why != "nothing owed":
            context.log.info(f"store {store_id} not due: {verdict.why}")
            waiting.append(f"{store_id}: {verdict.why}")
    cursor = json.dumps({"stores": {s: seen[s] for s in stores if s in seen}}, sort_keys=True)
    if not runs and not new_partitions:
        parts = [("not evaluated", broken), ("failing", failing), ("waiting", waiting)]
        detail = " | ".join(f"{name}: {listed(lines)}" for name, lines in parts if lines)
        return dg.SkipReason("nothing due" + (f" ({detail})" if detail else ""))
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=(
            [stores_partitions.build_add_request(new_partitions)] if new_partitions else []
        ),
        cursor=cursor,
    )
