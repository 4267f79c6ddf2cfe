"""The Python API agents call."""

from memory_pipelines.api.capabilities import use
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.recall import Hit, Recall

__all__ = ["Hit", "Memory", "Recall", "use"]
