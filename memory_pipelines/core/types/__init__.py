"""The record types every layer passes around, one per kind of record (pydantic models, so the
HTTP API serves the same types it is handed). The store reads rows into them and derives its
column lists from their fields; no vector ever travels in one."""

from memory_pipelines.core.types.base import Record, Result
from memory_pipelines.core.types.history import (
    BootRecord,
    BootWindow,
    Chat,
    Chunk,
    Turn,
    TurnWritten,
)
from memory_pipelines.core.types.items import (
    Commitment,
    Edge,
    Event,
    Item,
    ItemSnapshot,
    ItemVersion,
    SaveResult,
)
from memory_pipelines.core.types.recall import (
    AddedDocument,
    AutoRecall,
    DrillDown,
    Hit,
    Neighbor,
    Passage,
    PeriodPage,
    PeriodRecord,
)

__all__ = [
    "AddedDocument",
    "AutoRecall",
    "BootRecord",
    "BootWindow",
    "Chat",
    "Chunk",
    "Commitment",
    "DrillDown",
    "Edge",
    "Event",
    "Hit",
    "Item",
    "ItemSnapshot",
    "ItemVersion",
    "Neighbor",
    "Passage",
    "PeriodPage",
    "PeriodRecord",
    "Record",
    "Result",
    "SaveResult",
    "Turn",
    "TurnWritten",
]
