"""The specs' call shapes: `c = use("agent:any@v1")`, `r = use("agent:recall@v1").recall(c,
space)`, `m = use("agent:memory@v1").memory(c, space)`, and for the start of every turn
`start = use("agent:autorecall@v1").autorecall(c, space)`, `start(chat, user_message, ...)`.
They give the same Recall, Memory and auto-recall as their constructors, bound to the space (a
store) with the context's database and embedder. It is the call auto-recall's injected code
names (core/injection.RECALL_IDIOM), so an agent that runs that code reaches this store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Literal, overload

from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.recall import Recall
from memory_pipelines.core.types import AutoRecall
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database


@dataclass(frozen=True)
class Context:
    """`agent:any@v1`: what a capability is used with. The database and embedder to share
    (None: the process's own, as Recall and Memory would take)."""

    db: Database | None = None
    embedder: Embedder | None = None


class RecallCapability:
    """`agent:recall@v1`."""

    def recall(self, c: Context, space: str) -> Recall:
        return Recall(space, db=c.db, embedder=c.embedder)


class MemoryCapability:
    """`agent:memory@v1`."""

    def memory(self, c: Context, space: str) -> Memory:
        return Memory(space, db=c.db, embedder=c.embedder)


class AutoRecallCapability:
    """`agent:autorecall@v1`: what to inject before the model answers a turn, run by the
    harness at the start of every turn (api/autorecall.autorecall, its keywords as there)."""

    def autorecall(self, c: Context, space: str) -> Callable[..., AutoRecall]:
        return partial(autorecall, Recall(space, db=c.db, embedder=c.embedder))


NAMES = ("agent:any@v1", "agent:recall@v1", "agent:memory@v1", "agent:autorecall@v1")


@overload
def use(name: Literal["agent:any@v1"]) -> Context: ...
@overload
def use(name: Literal["agent:recall@v1"]) -> RecallCapability: ...
@overload
def use(name: Literal["agent:memory@v1"]) -> MemoryCapability: ...
@overload
def use(name: Literal["agent:autorecall@v1"]) -> AutoRecallCapability: ...
def use(name: str) -> Context | RecallCapability | MemoryCapability | AutoRecallCapability:
    """A capability by its name (one of NAMES); a ValidationError names the others."""
    if name == "agent:any@v1":
        return Context()
    if name == "agent:recall@v1":
        return RecallCapability()
    if name == "agent:memory@v1":
        return MemoryCapability()
    if name == "agent:autorecall@v1":
        return AutoRecallCapability()
    raise ValidationError("name", f"must be one of {', '.join(NAMES)}, got {name!r}")
