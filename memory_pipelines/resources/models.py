"""The model resource: one interface over the `local` and `openai` backends."""

from __future__ import annotations

from typing import Literal

import dagster as dg

from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.factory import make_backend


class ModelResource(dg.ConfigurableResource):
    """Serves the judge, extractor and summariser. `local` (default) is offline and
    deterministic; `openai` talks to any OpenAI-compatible endpoint. `api_key` is best given as
    EnvVar("MEMORY_LLM_API_KEY"); left empty, that variable is read when a run starts."""

    # Checked when the resource is made (a run's config included): a misspelt backend fails
    # the run at its start, not silently where a store's Extraction card picks its own.
    backend: Literal["local", "openai"] = "local"
    base_url: str = ""
    model: str = ""
    api_key: str = ""

    def models(self, embedder: Embedder, backend: str | None = None, model: str = "") -> Models:
        """A fresh call log over the chosen backend (a store's setting may pick the backend)."""
        return Models(
            make_backend(
                backend or self.backend, embedder, self.base_url, model or self.model, self.api_key
            )
        )
