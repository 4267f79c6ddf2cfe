"""Dagster definitions: every domain folder under defs/, bound to the store, embedder, models."""

import dagster as dg

from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.extraction.sensors import embed_job, extraction_job, new_turns_sensor
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

ASSETS = [turn_embeddings, conversation_windows, extracted_candidates, memory_items]


def resources() -> dict:
    return {"store": StoreResource(), "embedder": EmbedderResource(), "model": ModelResource()}


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=ASSETS,
        jobs=[extraction_job, embed_job],
        sensors=[new_turns_sensor],
        resources=resources(),
    )
