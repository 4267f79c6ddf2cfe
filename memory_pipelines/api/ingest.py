"""Ingest files into a store: conversations (turns written and embedded in batches) and
documents; every record of a file is checked before anything is written."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_pipelines.api.documents import write_documents
from memory_pipelines.api.memory import Memory
from memory_pipelines.core.conversations import (
    Chat,
    check_chats,
    json_lines,
    load_chats,
    read_text,
)
from memory_pipelines.core.inputs import DocumentInput, document_from_line
from memory_pipelines.errors import StoreError, ValidationError
from memory_pipelines.store.statistics import analyze_stale

BATCH = 256


@dataclass
class IngestSummary:
    chats: int
    turns_read: int
    turns_written: int
    seconds: float

    def line(self) -> str:
        rate = self.turns_read / self.seconds if self.seconds else 0.0
        shown = f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"  # 4 turns in 11.5 s: "0.35"
        return (
            f"ingested {self.chats} chats: {self.turns_written} new turns of {self.turns_read}"
            f" read in {self.seconds:.1f}s ({shown} turns/s)"
        )


# What an ingest writes (new turns bring as many sentences or more), analysed at its end when
# it grew much (store/statistics.py).
INGESTED = ("turns", "turn_sentences")


def ingest_chats(
    memory: Memory,
    chats: list[Chat],
    *,
    embed: bool = True,
    progress: Callable[[int], None] | None = None,
) -> IngestSummary:
    """Write every chat's turns in batches (one transaction and one embedding batch each).

    Every turn is checked first, so a bad one (named by its file line) writes nothing. A turn
    without an external id gets one from its position and text, so ingesting the same file
    twice writes nothing the second time; if writing fails midway (the server went away), the
    error says how many turns were written and running the same ingest again resumes.
    """
    start = time.perf_counter()
    check_chats(chats)
    for chat in chats:
        for n, turn in enumerate(chat.turns, start=1):
            if not turn.get("external_id"):
                digest = hashlib.sha1(turn["text"].encode(), usedforsecurity=False).hexdigest()[:10]
                turn["external_id"] = f"L{n}:{digest}"
    read = written = 0
    try:
        for chat in chats:
            for i in range(0, len(chat.turns), BATCH):
                batch = chat.turns[i : i + BATCH]
                rows = memory.write_turns(chat.external_id, batch, embed=embed)
                written += sum(1 for r in rows if r.new)
                read += len(batch)
                if progress:
                    progress(len(batch))
    except Exception as exc:
        if not read:
            raise
        raise StoreError(
            f"ingest stopped after {read} turns ({written} new) were written: {exc}."
            " Run the same ingest again to resume: turns already written are skipped."
        ) from exc
    if written:
        with memory.db.connection() as conn:
            analyze_stale(conn, dict.fromkeys(INGESTED, written))
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


def read_documents(path: Path, kind: str = "basic") -> list[DocumentInput]:
    """Documents or emails from JSON Lines, one per line ({"id", "text" (or "body"), "title"
    (or "subject"), "sender" (or "from"), "to": [...], "created_at" (or "sent_at"),
    "person"}), every line checked; an error names the file's line."""
    docs: list[DocumentInput] = []
    seen: dict[str, int] = {}
    for n, obj in json_lines(read_text(path).split("\n")):
        doc = document_from_line(obj, kind, f"line {n}: documents.")
        if doc.external_id in seen:
            raise ValidationError(
                f"line {n}: documents.id",
                f"{doc.external_id!r} repeats line {seen[doc.external_id]}",
            )
        seen[doc.external_id] = n
        docs.append(doc)
    return docs


def ingest_documents(memory: Memory, docs: list[DocumentInput]) -> int:
    """Add checked documents (read_documents) in one transaction: all of them, or none.
    Re-adding an id replaces it, for the same person or a shared document's (another person's
    id is a ValidationError on `external_id`, and nothing is written). Returns the
    number of passages written."""
    write_documents(memory.db, memory.embedder, memory.store_id, docs)
    with memory.db.connection() as conn:
        analyze_stale(conn, {"documents": sum(len(d.passages) for d in docs)})
    return sum(len(d.passages) for d in docs)
