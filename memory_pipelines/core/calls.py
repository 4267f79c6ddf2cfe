"""A call to a model, as the model_calls table records it (every call is metered)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ModelCall:
    tier: str  # classify (cheap) or generate
    task: str  # judge, extract, summarise, link, contradiction, reflect
    backend: str
    model: str
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    outcome: str = "ok"  # ok, invalid (dropped after a retry), error, fallback
