"""Dagster definitions: every domain folder under defs/, bound to the store, embedder, models."""

import dagster as dg

from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.decay.schedules import decay_job, decay_schedule
from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.extraction.sensors import embed_job, extraction_job, new_turns_sensor
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.links.schedules import linkgen_job, linkgen_schedule
from memory_pipelines.defs.pyramid.assets import chunk_pyramid
from memory_pipelines.defs.pyramid.schedules import rollup_job, rollup_schedule
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

ASSETS = [turn_embeddings, conversation_windows, extracted_candidates, memory_items]
# Background jobs on their own schedules, not in the extraction path.
BACKGROUND_ASSETS = [chunk_pyramid, link_graph, decay_scores]


def resources() -> dict:
    return {"store": StoreResource(), "embedder": EmbedderResource(), "model": ModelResource()}


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[*ASSETS, *BACKGROUND_ASSETS],
        jobs=[extraction_job, embed_job, rollup_job, linkgen_job, decay_job],
        schedules=[rollup_schedule, linkgen_schedule, decay_schedule],
        sensors=[new_turns_sensor],
        resources=resources(),
    )
