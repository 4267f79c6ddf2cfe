"""The embedder as a Dagster resource: loaded once per process, whatever the run."""

from __future__ import annotations

import dagster as dg

from memory_pipelines.models.embedder import DEFAULT_MODEL, Embedder, get_embedder


class EmbedderResource(dg.ConfigurableResource):
    """A sentence-transformers model by name or path (default all-MiniLM-L6-v2, offline)."""

    model_name: str = DEFAULT_MODEL

    def get(self) -> Embedder:
        return get_embedder(self.model_name)
