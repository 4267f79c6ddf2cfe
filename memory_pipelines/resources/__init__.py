"""Dagster resources: thin ConfigurableResources over store/ and models/."""

from memory_pipelines.resources.embedder import EmbedderResource
from memory_pipelines.resources.models import ModelResource
from memory_pipelines.resources.store import StoreResource

__all__ = ["EmbedderResource", "ModelResource", "StoreResource"]
