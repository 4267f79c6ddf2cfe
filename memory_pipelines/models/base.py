"""One model interface for the judge, the extractor and (later) summariser, link proposer and
reflector; every call is measured and recorded."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.contradiction import Contradiction
from memory_pipelines.core.extract import WindowTurn
from memory_pipelines.core.judge import JudgeDecision, JudgeItem
from memory_pipelines.core.links import LinkNode, LinkProposal

__all__ = ["Backend", "Invalid", "ModelCall", "Models", "WindowTurn"]

T = TypeVar("T")


class Invalid(Exception):
    """A model answer failed its schema (after the retry); it is dropped and counted."""


class Backend(Protocol):
    name: str
    model: str

    def judge(
        self,
        candidate: JudgeItem,
        existing: Sequence[JudgeItem],
        cand_vec: np.ndarray,
        existing_vecs: np.ndarray,
        call: ModelCall,
    ) -> JudgeDecision: ...

    def extract(
        self, window: Sequence[WindowTurn], instructions: str, types: Sequence[str], call: ModelCall
    ) -> list[dict[str, Any]]: ...

    def propose_links(
        self, source: LinkNode, candidates: Sequence[LinkNode], call: ModelCall
    ) -> list[LinkProposal]: ...

    def summarise(
        self,
        texts: Sequence[str],
        call: ModelCall,
        vectors: np.ndarray | None = None,
        max_words: int = 60,
    ) -> str: ...

    def contradicts(self, a: str, b: str, call: ModelCall) -> Contradiction: ...

    def rerank(self, query: str, texts: Sequence[str], call: ModelCall) -> list[int]: ...


@dataclass
class Models:
    """A backend plus the log of every call made through it (flushed to model_calls)."""

    backend: Backend
    calls: list[ModelCall] = field(default_factory=list)

    def _run(self, tier: str, task: str, fn: Callable[[ModelCall], T]) -> T:
        call = ModelCall(tier, task, self.backend.name, self.backend.model)
        start = time.perf_counter()
        try:
            return fn(call)
        except Invalid:
            call.outcome = "invalid"
            raise
        except Exception:
            call.outcome = "error"
            raise
        finally:
            call.latency_ms = (time.perf_counter() - start) * 1000
            self.calls.append(call)

    def judge(
        self,
        candidate: JudgeItem,
        existing: Sequence[JudgeItem],
        cand_vec: np.ndarray,
        existing_vecs: np.ndarray,
    ) -> JudgeDecision:
        return self._run(
            "classify",
            "judge",
            lambda call: self.backend.judge(candidate, existing, cand_vec, existing_vecs, call),
        )

    def extract(
        self, window: Sequence[WindowTurn], instructions: str = "", types: Sequence[str] = ()
    ) -> list[dict[str, Any]]:
        return self._run(
            "generate",
            "extract",
            lambda call: self.backend.extract(window, instructions, types, call),
        )

    def propose_links(self, source: LinkNode, candidates: Sequence[LinkNode]) -> list[LinkProposal]:
        """Typed links from source to candidates, unchecked (core.links.check_proposals)."""
        return self._run(
            "classify",
            "link",
            lambda call: self.backend.propose_links(source, candidates, call),
        )

    def summarise(
        self, texts: Sequence[str], vectors: np.ndarray | None = None, max_words: int = 60
    ) -> str:
        """One summary of texts (turns as `Speaker (date): text`, or child summaries), about
        max_words long. `vectors` are the texts' stored embeddings, when the caller has them."""
        return self._run(
            "generate",
            "summarise",
            lambda call: self.backend.summarise(texts, call, vectors, max_words),
        )

    def contradicts(self, a: str, b: str) -> Contradiction:
        """Whether records `a` and `b` cannot both be true, and why; only a judgement (the
        caller flags both records, and nothing picks a winner)."""
        return self._run(
            "classify", "contradiction", lambda call: self.backend.contradicts(a, b, call)
        )

    def rerank(self, query: str, texts: Sequence[str]) -> list[int]:
        """The order of texts (indices, best first) for the query: the Search card's optional
        reranker, a metered call per search."""
        return self._run("classify", "rerank", lambda call: self.backend.rerank(query, texts, call))

    def drain(self) -> list[ModelCall]:
        """The calls recorded since the last drain."""
        out, self.calls = self.calls, []
        return out
