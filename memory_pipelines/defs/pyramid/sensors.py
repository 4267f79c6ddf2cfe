"""rollup@v1: a run for each store whose pyramid owes a complete batch, checked every 15
minutes (on, as the spec ships it); a store with nothing to build gets no run."""

import dagster as dg

from memory_pipelines.defs.owed import owed_work_sensor
from memory_pipelines.defs.pyramid.assets import chunk_pyramid
from memory_pipelines.store.chunks import rollup_owed

rollup_job = dg.define_asset_job(
    "rollup",
    selection=[chunk_pyramid],
    description="Summarise the complete batches of turns and chunks of a store not yet rolled up.",
)

rollup_sensor = owed_work_sensor(
    "rollup_sensor",
    rollup_job,
    rollup_owed,
    what="chunks to build",
    interval_seconds=15 * 60,
    description="Every 15 minutes: counts, in one query, the chunks each store's pyramid owes "
    "(complete batches of 10 turns, or of 10 chunks, not built yet) and asks for a rollup run "
    "for each store owing any; none while nothing is owed, or while the store's rollup runs.",
)
