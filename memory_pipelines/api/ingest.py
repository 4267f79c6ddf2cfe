"""Ingest conversation files into a store: turns written and embedded in batches."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_pipelines.api.memory import Memory
from memory_pipelines.core.conversations import Chat, load_chats

BATCH = 256


@dataclass
class IngestSummary:
    chats: int
    turns_read: int
    turns_written: int
    seconds: float

    def line(self) -> str:
        rate = self.turns_read / self.seconds if self.seconds else 0.0
        return (
            f"ingested {self.chats} chats: {self.turns_written} new turns of {self.turns_read}"
            f" read in {self.seconds:.1f}s ({rate:.0f} turns/s)"
        )


def ingest_chats(
    memory: Memory,
    chats: list[Chat],
    *,
    embed: bool = True,
    progress: Callable[[int], None] | None = None,
) -> IngestSummary:
    """Write every chat's turns in batches (one transaction and one embedding batch each).

    A turn without an external id gets one from its position and text, so ingesting the same
    file twice writes nothing the second time.
    """
    start = time.perf_counter()
    read = written = 0
    for chat in chats:
        for n, turn in enumerate(chat.turns, start=1):
            if not turn.get("external_id"):
                digest = hashlib.sha1(str(turn.get("text", "")).encode()).hexdigest()[:10]
                turn["external_id"] = f"L{n}:{digest}"
        for i in range(0, len(chat.turns), BATCH):
            batch = chat.turns[i : i + BATCH]
            rows = memory.write_turns(chat.external_id, batch, embed=embed)
            written += sum(1 for r in rows if r["new"])
            read += len(batch)
            if progress:
                progress(len(batch))
    return IngestSummary(len(chats), read, written, time.perf_counter() - start)


def ingest_file(
    memory: Memory,
    path: Path,
    fmt: str = "auto",
    *,
    embed: bool = True,
    progress: Callable[[int], None] | None = None,
) -> IngestSummary:
    """Ingest a LoCoMo JSON file or JSON Lines of turns (see core/conversations.py)."""
    chats, _ = load_chats(path, fmt)
    return ingest_chats(memory, chats, embed=embed, progress=progress)
