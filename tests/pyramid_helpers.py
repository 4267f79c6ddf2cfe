"""Synthetic chats for the pyramid and boot-window tests: turns with stored embeddings that cost
no model time (deterministic unit vectors), so only the summaries are embedded for real."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np

from memory_pipelines.api import Memory
from memory_pipelines.api.pyramid import rollup
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import turns as turns_db

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
SPEAKERS = ("Caroline", "Melanie")
TOPICS = ("the pottery class", "a charity race", "the adoption agency", "a camping trip")


def turn(n: int) -> dict:
    who = SPEAKERS[n % 2]
    text = (
        f"{who} talked about {TOPICS[n // 10 % len(TOPICS)]} with Jon in Boston on visit {n}, "
        f"it cost {n * 3} dollars."
    )
    return {"speaker": who, "text": text, "created_at": T0 + timedelta(hours=n)}


def vector(text: str) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha1(text.encode(), usedforsecurity=False).digest()[:4], "big")
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def write(memory: Memory, chat: str, first: int, last: int, embedded: bool = True) -> None:
    """Turns first..last (1-based numbers in the chat), with stored embeddings unless asked."""
    rows = memory.write_turns(chat, [turn(n) for n in range(first, last + 1)], embed=False)
    if embedded:
        texts = [turn(n)["text"] for n in range(first, last + 1)]
        with memory.db.transaction() as conn:
            turns_db.set_turn_embeddings(
                conn,
                [r.turn_id for r in rows],
                np.stack([vector(t) for t in texts]),
                [[] for _ in texts],
            )


def roll(memory: Memory, **kw) -> dict:
    models = kw.pop("models", None) or Models(LocalBackend(memory.embedder))
    return rollup(memory.db, memory.store_id, models, memory.embedder, **kw)


def chunk_rows(memory: Memory) -> list[dict]:
    with memory.db.connection() as conn:
        return conn.execute(
            "SELECT chunk_id, xmin::text AS xmin, chat_id, level, seq, from_seq, to_seq, summary,"
            " period_start, period_end, units_covered, children, model,"
            " embedding IS NOT NULL AS embedded FROM chunks WHERE store_id = %s"
            " ORDER BY chat_id, level, seq",
            (memory.store_id,),
        ).fetchall()
