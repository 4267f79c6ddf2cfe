"""Keep one partition per store and embed what is pending."""

import dagster as dg

from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import StoreResource

embed_job = dg.define_asset_job(
    "embed_turns", selection=[turn_embeddings], partitions_def=stores_partitions
)


@dg.sensor(
    job=embed_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING
)
def store_partitions_sensor(
    context: dg.SensorEvaluationContext, store: StoreResource
) -> dg.SensorResult | dg.SkipReason:
    """Adds a partition per new store; asks for an embedding run where turns wait unembedded.

    The cursor is the highest turn id seen, so a run is requested once per batch of new turns.
    """
    last = int(context.cursor or 0)
    with store.database().connection() as conn:
        stores = [r["store_id"] for r in conn.execute("SELECT store_id FROM stores ORDER BY 1")]
        rows = conn.execute(
            "SELECT store_id, max(turn_id) AS top FROM turns"
            " WHERE turn_id > %s AND embedding IS NULL GROUP BY store_id",
            (last,),
        ).fetchall()
        top = conn.execute("SELECT coalesce(max(turn_id), 0) AS t FROM turns").fetchone()
    known = set(context.instance.get_dynamic_partitions(stores_partitions.name or "stores"))
    new = [s for s in stores if s not in known]
    runs = [
        dg.RunRequest(partition_key=r["store_id"], run_key=f"embed:{r['store_id']}:{r['top']}")
        for r in rows
    ]
    if not new and not runs:
        return dg.SkipReason(f"no new store and no unembedded turn after turn {last}")
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=[stores_partitions.build_add_request(new)] if new else [],
        cursor=str(top["t"] if top else last),
    )
