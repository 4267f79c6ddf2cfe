"""Extraction: conversation windows -> candidates -> deduplicated memory items, per store."""

import time
from typing import Any

import dagster as dg

from memory_pipelines.api import extraction
from memory_pipelines.defs.checks import result, store_check
from memory_pipelines.defs.metadata import per_store
from memory_pipelines.defs.partitions import DB_POOL, MODEL_POOL, stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import extraction as ex_db
from memory_pipelines.store import item_reads
from memory_pipelines.store import stores as stores_db

COMMON: dict[str, Any] = {
    "partitions_def": stores_partitions,
    "group_name": "extraction",
    "owners": ["team:memory"],
}


CAPPED = store_check(
    "extracted_items_capped_with_provenance",
    "memory_items",
    "Items the extractor wrote have confidence at most 6 and their chat + seq provenance. "
    "Blocking: links, decay and maintenance must not build on an unsourced or overconfident "
    "machine-made item.",
    blocking=True,
)
EMBEDDED = store_check(
    "every_item_embedded",
    "memory_items",
    "Every current item of the store has its embedding, a unit vector of the model (no zero or "
    "placeholder vector). Blocking: recall, dedup and linkgen read items by their vectors.",
    blocking=True,
)


def _models(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
    store_id: str,
):
    """The store's Extraction card picks the backend and model of its extraction (and of the
    judge saving what it extracted); the model resource's serve the other steps."""
    with store.database().connection() as conn:
        s = stores_db.get_settings(conn, store_id).extraction
    if s.backend != model.backend:
        context.log.info(
            f"store {store_id}: extraction uses its Extraction card's backend {s.backend!r}, not"
            f" the model resource's {model.backend!r} (which serves the other steps); change"
            " it on the card (console or store settings)"
        )
    return model.models(
        embedder.get(), backend=s.backend, model=s.model if s.backend == "openai" else ""
    )


@dg.asset(
    pool=DB_POOL,
    deps=[turn_embeddings],
    kinds={"postgres"},
    description="Turns not yet extracted, grouped into windows by the store's extraction "
    "settings (batch size, minimum messages, quiet period, how far back, which keys).",
    **COMMON,
)
def conversation_windows(
    context: dg.AssetExecutionContext, store: StoreResource
) -> dg.MaterializeResult:
    start = time.perf_counter()
    res = extraction.plan_windows(store.database(), context.partition_key, log=context.log.info)
    with store.database().connection() as conn:
        ex_db.record_pass(
            conn, context.partition_key, context.run.run_id, windows_new=res["windows_new"]
        )
        rows = ex_db.table_rows(conn, context.partition_key)
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": rows["windows"],
                "dagster/table_name": "extraction_windows",
                "windows_new": res["windows_new"],
                "windows_pending": res.get("windows_pending", 0),
                "extraction_enabled": res["enabled"],
                "seconds": round(time.perf_counter() - start, 2),
            },
        )
    )


@dg.asset(
    pool=MODEL_POOL,
    deps=[conversation_windows],
    kinds={"postgres", "python"},
    description="Stable-fact candidates read from each pending window (preferences, decisions "
    "with why, durable facts, lessons, commitments), confidence capped at 6, with provenance; "
    "invalid ones are dropped and counted.",
    **COMMON,
)
def extracted_candidates(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    start = time.perf_counter()
    models = _models(context, store, model, embedder, context.partition_key)
    res = extraction.extract_pending(
        store.database(),
        context.partition_key,
        models,
        log=context.log.info,
        run_id=context.run.run_id,
    )
    with store.database().connection() as conn:
        ex_db.record_pass(
            conn,
            context.partition_key,
            context.run.run_id,
            windows_read=res["windows_read"],
            candidates=res["candidates"],
            dropped_invalid=res["dropped_invalid"],
            model_calls=res["model_calls"],
        )
        rows = ex_db.table_rows(conn, context.partition_key)
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": rows["candidates"],
                "dagster/table_name": "extraction_candidates",
                **res,
                "backend": models.backend.name,
                "seconds": round(time.perf_counter() - start, 2),
            },
        )
    )


@dg.asset(
    pool=MODEL_POOL,
    deps=[extracted_candidates],
    kinds={"postgres", "python"},
    description="Candidates saved through the dedup judge into agent_memory_items: a fact said "
    "again confirms its item, a correction supersedes it (the old one stays in history).",
    check_specs=[CAPPED, EMBEDDED],
    metadata={"dagster/table_name": "agent_memory_items"},
    **COMMON,
)
def memory_items(
    context: dg.AssetExecutionContext,
    store: StoreResource,
    model: ModelResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    start = time.perf_counter()
    store_id = context.partition_key
    db = store.database()
    with db.connection() as conn:  # what this step writes is changed at or after this
        began = item_reads.clock(conn)
    models = _models(context, store, model, embedder, store_id)
    res = extraction.apply_extracted(
        db, store_id, models, embedder.get(), context.log.info, context.run.run_id
    )
    seconds = time.perf_counter() - start
    with db.connection() as conn:
        ex_db.record_pass(
            conn,
            store_id,
            context.run.run_id,
            windows_applied=res["windows_applied"],
            written=res["written"],
            confirmed=res["confirmed"],
            superseded=res["superseded"],
            model_calls=res["model_calls"],
            duration_s=seconds,
        )
        pass_row = ex_db.last_pass(conn, store_id, context.run.run_id) or {}
        total = item_reads.count_current(conn, store_id)
        bad = ex_db.uncapped_items(conn, store_id, extraction.EXTRACTOR)
        unembedded = item_reads.unembedded_current(conn, store_id)
        now = (
            item_reads.changed_since(conn, store_id, began, extraction.EXTRACTOR)
            if bad or unembedded
            else set()
        )
    return dg.MaterializeResult(
        metadata=per_store(
            context.partition_key,
            {
                "dagster/row_count": total,
                "dagster/table_name": "agent_memory_items",
                **res,
                "pass_windows_read": int(pass_row.get("windows_read", 0)),
                "pass_dropped_invalid": int(pass_row.get("dropped_invalid", 0)),
                "seconds": round(seconds, 2),
            },
        ),
        check_results=[_capped(store_id, bad, now), _embedded(store_id, unembedded, now)],
    )


def _capped(store_id: str, bad: list[int], now: set[int]) -> dg.AssetCheckResult:
    return _items_check(
        CAPPED,
        bad,
        now,
        "extracted items above confidence 6 or without their chat and turns: a bug of the"
        " extractor's write path; report it with their ids",
        f"extracted items of store {store_id!r}, older than this run, are above confidence 6"
        " or lack their chat and turns, which no pipeline step writes: a hand edit? Read each"
        f" one's history (memory-pipelines history ITEM -s {store_id}) and delete the ones"
        " that cannot be put right (memory-pipelines delete ITEM)",
        violations=len(bad),
    )


def _embedded(store_id: str, bad: list[int], now: set[int]) -> dg.AssetCheckResult:
    return _items_check(
        EMBEDDED,
        bad,
        now,
        "items without a unit vector of the model: recall, dedup and links would misread"
        f" them. Embed them again (memory-pipelines reembed -s {store_id}) and report it",
        f"current items of store {store_id!r}, older than this run, have a vector that is not"
        " the model's (set outside the pipeline?). Embed them again from their words:"
        f" memory-pipelines reembed -s {store_id}",
        unembedded_items=len(bad),
    )


def _items_check(
    spec: dg.AssetCheckSpec, bad: list[int], now: set[int], if_mine: str, if_older: str, **md: Any
) -> dg.AssetCheckResult:
    """Failed on any such item of the store (they block what reads items), saying whether
    this step wrote them (a bug to report) or not (something outside to put right)."""
    mine = [i for i in bad if i in now]
    why = f"this step wrote {len(mine)} {if_mine}" if mine else f"{len(bad)} {if_older}"
    return result(spec, not bad, ids=mine or bad, next_step=why, **md)
