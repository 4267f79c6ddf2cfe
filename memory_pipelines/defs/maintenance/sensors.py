"""maintenance@v1 runs each store at the time its own Maintenance card says (cron and time
zone; default daily 03:00 UTC), on as shipped: the console calls maintenance a periodic pass.
A sensor rather than one schedule, because every store has its own cron and time zone; one
store whose settings cannot be read is named in the tick's log and the others still run."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import dagster as dg

from memory_pipelines.core.due import maintenance_due
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import maintenance as maintenance_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

maintenance_job = dg.define_asset_job(
    "maintenance_pass",  # not "maintenance": a job may not share the asset's (op's) name
    selection=[maintenance],
    description="Merge duplicates, archive faded records and flag contradictions in a store.",
)


def maintenance_requests(
    db: Database,
    stores: list[str],
    seen: dict[str, str],
    now: datetime,
    log: logging.Logger | dg.DagsterLogManager,
) -> tuple[list[dg.RunRequest], dict[str, str], list[str]]:
    """The runs due now, the new cursor (store -> when it was last asked for or first seen)
    and a line per store that is waiting or could not be evaluated. A store is due when a
    tick of its own cron, read in its own time zone, fell after its last pass (or the last
    request, or the moment the sensor first saw it); the run key names that tick, so a tick
    runs a store once whatever happens to the cursor."""
    runs, lines, cursor = [], [], {}
    for store_id in stores:
        try:
            with db.connection() as conn:
                settings = stores_db.get_settings(conn, store_id).maintenance
                last = maintenance_db.last_pass_started(conn, store_id)
            marks = [datetime.fromisoformat(seen[store_id])] if store_id in seen else []
            since = max([*marks, *([last] if last else [])], default=now)
            tick, why = maintenance_due(settings, now, since)
        except Exception as exc:  # one store's bad value stops no other store
            log.exception(f"store {store_id}: not evaluated: {exc}")
            lines.append(f"{store_id}: not evaluated: {exc}")
            cursor[store_id] = seen.get(store_id, now.isoformat())
            continue
        cursor[store_id] = since.isoformat()
        if tick is None:
            lines.append(f"{store_id}: {why}")
            continue
        cursor[store_id] = now.isoformat()
        runs.append(
            dg.RunRequest(
                partition_key=store_id,
                run_key=f"maintenance:{store_id}:{tick.isoformat()}",
                tags={"memory/why": why},
            )
        )
    return runs, cursor, lines


@dg.sensor(
    job=maintenance_job,
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Runs maintenance for each store when a tick of its own Maintenance cron, in "
    "its own time zone, has passed since its last pass (default daily 03:00 UTC); a store "
    "with maintenance off gets no run.",
)
def maintenance_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    seen = json.loads(context.cursor) if context.cursor else {}
    stores = sorted(context.instance.get_dynamic_partitions("stores"))
    runs, cursor, lines = maintenance_requests(
        store.database(), stores, seen, datetime.now(UTC), context.log
    )
    context.update_cursor(json.dumps(cursor, sort_keys=True))
    if runs:
        return runs
    shown = "; ".join(lines[:10]) + (f"; and {len(lines) - 10} more" if len(lines) > 10 else "")
    return dg.SkipReason(f"no store due ({shown})" if shown else "no stores yet")
