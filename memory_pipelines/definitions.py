"""Dagster definitions: every domain folder under defs/, bound to the store, embedder, models,
and the executor that runs a run's steps (executors.py)."""

from typing import Any

import dagster as dg

from memory_pipelines.defs.commitments.assets import overdue_events
from memory_pipelines.defs.commitments.sensors import overdue_commitments_sensor, overdue_job
from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.decay.schedules import decay_job, decay_schedule
from memory_pipelines.defs.evolution.assets import evolution
from memory_pipelines.defs.evolution.schedules import evolution_job, evolution_schedule
from memory_pipelines.defs.executors import PIPELINE_ENV, executor_from_env
from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.extraction.freshness import store_fresh, store_freshness_sensor
from memory_pipelines.defs.extraction.sensors import embed_job, extraction_job, new_turns_sensor
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.links.sensors import linkgen_job, linkgen_sensor
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.defs.maintenance.schedules import maintenance_job, maintenance_schedule
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.pyramid.assets import chunk_pyramid
from memory_pipelines.defs.pyramid.sensors import rollup_job, rollup_sensor
from memory_pipelines.defs.reflection.assets import reflection
from memory_pipelines.defs.reflection.schedules import reflection_job, reflection_schedule
from memory_pipelines.defs.turns.assets import turn_embeddings, turns
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

ASSETS = [turn_embeddings, conversation_windows, extracted_candidates, memory_items]
# Background jobs on their own schedules, not in the extraction path.
BACKGROUND_ASSETS = [
    chunk_pyramid,
    link_graph,
    decay_scores,
    maintenance,
    reflection,
    evolution,
    overdue_events,
]


def pipeline_job() -> Any:  # define_asset_job's class is not in dagster's public names
    """Every step a store's data goes through, in one run (a backfill of a big store, or a
    cluster spreading a run's steps over workers): dependency order, independent steps at
    once, under MEMORY_PIPELINE_EXECUTOR (default: MEMORY_EXECUTOR's)."""
    return dg.define_asset_job(
        "pipeline",
        selection=[*ASSETS, *BACKGROUND_ASSETS],
        partitions_def=stores_partitions,
        executor_def=executor_from_env(PIPELINE_ENV),
        description="The whole pipeline of a store: embeddings, extraction, pyramid, links, "
        "decay, maintenance, overdue commitments (reflection and evolution where active).",
    )


def resources() -> dict:
    return {"store": StoreResource(), "embedder": EmbedderResource(), "model": ModelResource()}


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[turns, *ASSETS, *BACKGROUND_ASSETS],
        jobs=[
            extraction_job,
            embed_job,
            rollup_job,
            linkgen_job,
            decay_job,
            maintenance_job,
            reflection_job,
            evolution_job,
            overdue_job,
            pipeline_job(),
        ],
        schedules=[
            decay_schedule,
            maintenance_schedule,
            reflection_schedule,
            evolution_schedule,
        ],
        sensors=[
            new_turns_sensor,
            rollup_sensor,
            linkgen_sensor,
            overdue_commitments_sensor,
            store_freshness_sensor,
        ],
        asset_checks=[store_fresh],
        resources=resources(),
        executor=executor_from_env(),
    )
