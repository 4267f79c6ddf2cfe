"""linkgen@v1: a run for each store with items linkgen has not read, checked hourly (on, as
the spec ships it); a store with nothing new gets no run."""

import dagster as dg

from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.owed import owed_work_sensor
from memory_pipelines.store.links import pending_counts

linkgen_job = dg.define_asset_job(
    "linkgen",
    selection=[link_graph],
    description="Typed links for new or changed memory items of a store.",
)

linkgen_sensor = owed_work_sensor(
    "linkgen_sensor",
    linkgen_job,
    pending_counts,
    what="items to link",
    interval_seconds=60 * 60,
    description="Hourly: counts, in one query, the current items of each store whose present "
    "version linkgen has not read (or whose turns a new level-1 chunk covers) and asks for a "
    "linkgen run for each store owing any; none while nothing is owed, or while it runs.",
)
