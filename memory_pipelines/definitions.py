"""Dagster definitions: every domain folder under defs/ (walked, not listed: a new asset,
check, job, schedule or sensor in a defs/<domain>/ module is loaded by being there), bound to
the store, the embedder and the models."""

from pathlib import Path

import dagster as dg

from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

PROJECT = Path(__file__).resolve().parent
# The extraction path (what `demo` and the extraction job run), in order.
ASSETS = [turn_embeddings, conversation_windows, extracted_candidates, memory_items]


def resources() -> dict:
    return {"store": StoreResource(), "embedder": EmbedderResource(), "model": ModelResource()}


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions.merge(
        dg.load_from_defs_folder(path_within_project=PROJECT),
        dg.Definitions(resources=resources()),
    )


def every_asset() -> list[dg.AssetsDefinition]:
    """Every asset of the project once (the folder walk meets an asset in each module that
    imports it): the whole pipeline, for the evaluations."""
    unique = {id(a): a for a in defs().assets or [] if isinstance(a, dg.AssetsDefinition)}
    return list(unique.values())
