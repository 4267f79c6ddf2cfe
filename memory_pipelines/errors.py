"""Errors the API raises. Each names the field and what is allowed."""

from __future__ import annotations


class MemoryPipelinesError(Exception):
    """Base of every error memory_pipelines raises on purpose."""


class ValidationError(MemoryPipelinesError, ValueError):
    """A field of a request is missing or not allowed. Nothing was written."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFound(MemoryPipelinesError, LookupError):
    """The record does not exist in this store."""


class StoreError(MemoryPipelinesError, RuntimeError):
    """The database cannot serve the request (missing extension, unreachable server, ...)."""


class ModelUnavailable(MemoryPipelinesError, RuntimeError):
    """A model endpoint did not answer (refused, timed out, or an HTTP error status)."""
