"""Dagster definitions: every domain folder under defs/ (walked, not listed: a new asset,
check, job, schedule or sensor in a defs/<domain>/ module is loaded by being there), bound to
the store, the embedder and the models, with the executor that runs a run's steps
(defs/executors.py)."""

from pathlib import Path
from typing import Any

import dagster as dg

from memory_pipelines.defs.executors import PIPELINE_ENV, executor_from_env
from memory_pipelines.defs.extraction.assets import (
    conversation_windows,
    extracted_candidates,
    memory_items,
)
from memory_pipelines.defs.turns.assets import turn_embeddings, turns
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

PROJECT = Path(__file__).resolve().parent
# The extraction path (what `demo` and the extraction job run), in order.
ASSETS = [turn_embeddings, conversation_windows, extracted_candidates, memory_items]


def resources() -> dict:
    return {"store": StoreResource(), "embedder": EmbedderResource(), "model": ModelResource()}


def pipeline_job() -> Any:  # define_asset_job's class is not in dagster's public names
    """Every step a store's data goes through, in one run (a backfill of a big store, or a
    cluster spreading a run's steps over workers): dependency order, independent steps at
    once, under MEMORY_PIPELINE_EXECUTOR (default: MEMORY_EXECUTOR's)."""
    return dg.define_asset_job(
        "pipeline",
        selection=dg.AssetSelection.all() - dg.AssetSelection.assets(turns.key),
        executor_def=executor_from_env(PIPELINE_ENV),
        description="The whole pipeline of a store: embeddings, extraction, pyramid, links, "
        "decay, maintenance, overdue commitments (reflection and evolution where active).",
    )


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions.merge(
        dg.load_from_defs_folder(path_within_project=PROJECT),
        dg.Definitions(jobs=[pipeline_job()], resources=resources(), executor=executor_from_env()),
    )


def every_asset() -> list[dg.AssetsDefinition]:
    """Every asset of the project once (the folder walk meets an asset in each module that
    imports it): the whole pipeline, for the evaluations."""
    unique = {id(a): a for a in defs().assets or [] if isinstance(a, dg.AssetsDefinition)}
    return list(unique.values())
