"""Is each store's extraction keeping up? The check `store_fresh` of memory_items, per store:
a store owing work its settings call due, with nothing done for longer than they allow, is
stale (core.freshness). store_freshness_sensor judges every store every 5 minutes, whether or
not any run happens (a stopped pipeline runs nothing that could say so), and records a verdict
for a store when it changes; the check also runs after each extraction run of the store."""

import json
from datetime import UTC, datetime

import dagster as dg

from memory_pipelines.api.extraction import work_owed
from memory_pipelines.core.due import cron_ticked, extraction_due
from memory_pipelines.core.freshness import Freshness, judge
from memory_pipelines.defs.extraction.assets import memory_items
from memory_pipelines.defs.owed import listed
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.resources import StoreResource
from memory_pipelines.store.db import Conn

CHECK = "store_fresh"
DESCRIPTION = (
    "The store's extraction keeps up: no work its settings call due (turns to embed, windows "
    "to extract) has waited longer than its quiet period + cadence + 30 minutes with nothing "
    "done. Judged every 5 minutes by store_freshness_sensor, so a store whose pipeline stopped "
    "is flagged without any run; not blocking."
)
DONE_BY = ("turn_embeddings", "memory_items")  # a materialisation of either is work done


def last_done(instance: dg.DagsterInstance, store_id: str) -> datetime | None:
    """When a run last did the store's extraction work (its latest materialisation)."""
    times = []
    for key in DONE_BY:
        records = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey(key), asset_partitions=[store_id]),
            limit=1,
        ).records
        times += [datetime.fromtimestamp(r.timestamp, UTC) for r in records]
    return max(times, default=None)


def verdict(
    conn: Conn,
    instance: dg.DagsterInstance,
    store_id: str,
    now: datetime,
    owed_since: datetime | None = None,
) -> tuple[Freshness, bool]:
    """The store's verdict, and whether it owes anything (for the sensor's cursor)."""
    settings, owed = work_owed(conn, store_id, now)
    waiting = None
    if owed is not None and owed.windows:
        due, why = extraction_due(settings, now, owed.last_turn_at, None, cron_ticked)
        waiting = None if due else why
    known = [t for t in (owed_since, last_done(instance, store_id)) if t is not None]
    since = max(known, default=None)
    owes = owed is not None and owed.any
    return judge(settings, owed, now, since, waiting), owes


def _metadata(v: Freshness) -> dict:
    return {"why": v.why, "minutes_late": v.minutes_late}


@dg.asset_check(
    asset=memory_items,
    name=CHECK,
    description=DESCRIPTION,
    partitions_def=stores_partitions,
    blocking=False,
)
def store_fresh(
    context: dg.AssetCheckExecutionContext, store: StoreResource
) -> dg.AssetCheckResult:
    store_id = context.partition_key
    with store.database().connection() as conn:
        v, _ = verdict(conn, context.instance, store_id, datetime.now(UTC))
    return dg.AssetCheckResult(passed=not v.stale, metadata=_metadata(v), description=DESCRIPTION)


@dg.sensor(
    minimum_interval_seconds=300,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Every 5 minutes: judges each store's freshness (the check store_fresh of "
    "memory_items) from the work it owes and when a run last did its work, and records a "
    "verdict for each store whose verdict changed. Launches no runs; the skip reason lists "
    "the stale stores.",
)
def store_freshness_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    state = json.loads(context.cursor) if context.cursor else {}
    owed_since: dict[str, str] = state.get("owed_since", {})
    reported: dict[str, bool] = state.get("stale", {})
    now = datetime.now(UTC)
    events, stale, broken = [], [], []
    stores = context.instance.get_dynamic_partitions("stores")
    db = store.database()
    for store_id in stores:
        # Work first seen now gets the store's whole allowance: a new store is not stale.
        first_seen = datetime.fromisoformat(owed_since.get(store_id, now.isoformat()))
        try:
            with db.connection() as conn:
                v, owes = verdict(conn, context.instance, store_id, now, first_seen)
        except Exception as exc:  # one store's bad value stops no other store
            context.log.error(f"store {store_id}: freshness not judged: {exc}")
            broken.append(f"{store_id}: {exc}")
            continue
        if owes:
            owed_since.setdefault(store_id, now.isoformat())
        else:
            owed_since.pop(store_id, None)
        if v.stale:
            stale.append(f"{store_id}: {v.why}")
        if reported.get(store_id) != v.stale:
            reported[store_id] = v.stale
            events.append(
                dg.AssetCheckEvaluation(
                    asset_key=memory_items.key,
                    check_name=CHECK,
                    passed=not v.stale,
                    partition=store_id,
                    metadata=_metadata(v),
                    description=DESCRIPTION,
                )
            )
    live = set(stores)
    cursor = {
        "owed_since": {s: t for s, t in owed_since.items() if s in live},
        "stale": {s: b for s, b in reported.items() if s in live},
    }
    summary = f"{len(stores)} stores judged, {len(stale)} stale, {len(events)} verdicts changed"
    if stale:
        summary += f" | stale: {listed(stale)}"
    if broken:
        summary += f" | not judged: {listed(broken)}"
    return dg.SensorResult(
        asset_events=events, cursor=json.dumps(cursor, sort_keys=True), skip_reason=summary
    )
