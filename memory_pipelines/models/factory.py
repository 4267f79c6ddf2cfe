"""A backend by name: `local` (offline rules and the embedder) or `openai` (any
OpenAI-compatible endpoint, configured by MEMORY_LLM_BASE_URL, MEMORY_LLM_MODEL and
MEMORY_LLM_API_KEY unless given)."""

from __future__ import annotations

import os

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.models.base import Backend
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.models.openai import OpenAIBackend


def make_backend(
    name: str, embedder: Embedder, base_url: str = "", model: str = "", api_key: str = ""
) -> Backend:
    if name == "local":
        return LocalBackend(embedder)
    if name == "openai":
        return OpenAIBackend(
            base_url or os.environ.get("MEMORY_LLM_BASE_URL", ""),
            model or os.environ.get("MEMORY_LLM_MODEL", "gpt-4o-mini"),
            api_key or os.environ.get("MEMORY_LLM_API_KEY", ""),
        )
    raise ValueError(f"model backend must be local or openai, got {name!r}")


def reranker_backend(model: str, embedder: Embedder) -> Backend:
    """The Search card's reranker: `local` is the offline sentence-level reranker, any other
    name a model served by the OpenAI-compatible endpoint."""
    return make_backend("local" if model == "local" else "openai", embedder, model=model)


def unmade_call(task: str, model: str) -> ModelCall:
    """The record of a call to the OpenAI-compatible endpoint that could not be made (no
    endpoint configured): an error, in model_calls like any other failed call."""
    return ModelCall("classify", task, "openai", model, outcome="error")
