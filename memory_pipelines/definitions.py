"""Dagster definitions: every domain folder under defs/, bound to the store and embedder."""

from __future__ import annotations

import dagster as dg

from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.defs.turns.sensors import embed_job, store_partitions_sensor
from memory_pipelines.resources import EmbedderResource, StoreResource


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[turn_embeddings],
        jobs=[embed_job],
        sensors=[store_partitions_sensor],
        resources={"store": StoreResource(), "embedder": EmbedderResource()},
    )
