"""The sensor over new turns: a partition per new store, extraction runs when a store is due."""

import json
from datetime import UTC, datetime

import dagster as dg

from memory_pipelines.core.due import cron_ticked, extraction_due
from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db

extraction_job = dg.define_asset_job(
    "extraction",
    selection=[turn_embeddings, conversation_windows, extracted_candidates, memory_items],
    partitions_def=stores_partitions,
    description="Embed pending turns, then windows -> candidates -> deduplicated memory items.",
)
embed_job = dg.define_asset_job(
    "embed_turns", selection=[turn_embeddings], partitions_def=stores_partitions
)


@dg.sensor(
    jobs=[extraction_job, embed_job],
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Cursor over new turns: adds a partition per new store and requests an "
    "extraction run for each store whose settings say it is due (quiet period, schedule).",
)
def new_turns_sensor(context: dg.SensorEvaluationContext, store: StoreResource):
    state = json.loads(context.cursor) if context.cursor else {"stores": {}}
    seen: dict = state["stores"]  # store -> {"turn": last turn id requested, "at": iso time}
    now = datetime.now(UTC)
    with store.database().connection() as conn:
        stores = stores_db.list_stores(conn)
        tops = turns_db.turns_by_store(conn)
        settings = {s: stores_db.get_settings(conn, s).extraction for s in tops}
    known = set(context.instance.get_dynamic_partitions("stores"))
    new_partitions = [s for s in stores if s not in known]
    runs, waiting = [], []
    for store_id, top in tops.items():
        prev = seen.get(store_id, {})
        if top.top <= prev.get("turn", 0):
            continue
        last_at = datetime.fromisoformat(prev["at"]) if "at" in prev else None
        due, why = extraction_due(settings[store_id], now, top.last_at, last_at, cron_ticked)
        if due:
            runs.append(
                dg.RunRequest(
                    job_name="extraction",
                    partition_key=store_id,
                    run_key=f"extract:{store_id}:{top.top}",
                    tags={"memory/why": why},
                )
            )
            seen[store_id] = {"turn": top.top, "at": now.isoformat()}
        elif top.unembedded and not settings[store_id].enabled:
            runs.append(
                dg.RunRequest(
                    job_name="embed_turns",
                    partition_key=store_id,
                    run_key=f"embed:{store_id}:{top.top}",
                )
            )
            seen[store_id] = {**prev, "turn": top.top}
        else:
            waiting.append(f"{store_id}: {why}")
    for line in waiting:
        context.log.info(f"not due: {line}")
    cursor = json.dumps({"stores": seen}, sort_keys=True)
    if not runs and not new_partitions:
        return dg.SkipReason("nothing due" + (f" ({'; '.join(waiting)})" if waiting else ""))
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=(
            [stores_partitions.build_add_request(new_partitions)] if new_partitions else []
        ),
        cursor=cursor,
    )
