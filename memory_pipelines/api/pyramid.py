"""The chunk pyramid, rolled up (rollup@v1): ten turns to a level-1 chunk, ten chunks to one a
level up, summarised by the model resource and embedded for search.

Only complete batches are built, and only those not built yet: the plan comes from each chat's
turn count and chunks per level (core.pyramid), so a run costs what the new turns call for.
Levels are built in order; a level-2+ chunk reads its children's summaries and embeddings,
never a turn. Each batch of chunks is one transaction with its model calls, so a run killed
half-way leaves whole batches and the next run goes on from there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memory_pipelines.core import pyramid
from memory_pipelines.core.summarise import summarise as summarise_extractive
from memory_pipelines.core.summarise import turn_text
from memory_pipelines.core.types import Chunk, Turn
from memory_pipelines.errors import StoreError, ValidationError
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database

BATCH = 32  # chunks per transaction (and per embedding call for their summaries)
# Words per summary: a level-1 chunk reads ~10 turns (~260 words in LoCoMo), so 60 words is a
# real summary; higher levels cover ten times more each and get a little more room.
L1_WORDS = 60
UPPER_WORDS = 80
FALLBACK_MODEL = "local-extractive (fallback)"
Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def words_for(level: int) -> int:
    return L1_WORDS if level == 1 else UPPER_WORDS


def rollup(
    db: Database,
    store_id: str,
    models: Models,
    embedder: Embedder,
    *,
    batch_size: int = BATCH,
    run_id: str = "",
    log: Log = _quiet,
) -> dict[str, Any]:
    """Build every complete, not yet built chunk of the store's chats; returns counts.

    Counts: `created` per level, `chunks_created`, `turns_covered` (by level-1 chunks),
    `turns_waiting` (in incomplete batches), `model_calls`, `summaries_fallback` (a model
    answer failed validation twice: the local extractive summary stands in), `turns_embedded`
    (turns without a stored embedding, embedded to summarise them), `seconds`, and of those
    `summarise_seconds` and `embed_seconds` (embedding the summaries).
    """
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValidationError("batch_size", f"must be a positive integer, got {batch_size!r}")
    start = time.perf_counter()
    with db.connection() as conn:
        states = chunks_db.pyramid_states(conn, store_id)
    # Level by level (a level reads the one below), then chat by chat in seq order: whatever a
    # killed run committed is a prefix of each chat's chunks per level, never a hole.
    plan = sorted(
        ((p, s.chat_id) for s in states for p in pyramid.new_chunks(s.turns, s.built)),
        key=lambda pc: (pc[0].level, pc[1], pc[0].seq),
    )
    counts: dict[str, Any] = {
        "created": {},
        "chunks_created": 0,
        "model_calls": 0,
        "summaries_fallback": 0,
        "turns_embedded": 0,
        "summarise_seconds": 0.0,
        "embed_seconds": 0.0,
    }
    for i in range(0, len(plan), batch_size):
        # Batches never straddle levels: a level is only read once the one below is written.
        batch = plan[i : i + batch_size]
        for level in sorted({p.level for p, _ in batch}):
            part = [(p, chat) for p, chat in batch if p.level == level]
            _build(db, store_id, part, models, embedder, counts, run_id)
        log(f"store {store_id}: {min(i + batch_size, len(plan))}/{len(plan)} chunks built")
    covered = sum(s.turns // pyramid.BRANCH * pyramid.BRANCH for s in states)
    counts["turns_covered"] = covered
    counts["turns_waiting"] = sum(s.turns for s in states) - covered
    counts["seconds"] = round(time.perf_counter() - start, 3)
    for key in ("summarise_seconds", "embed_seconds"):
        counts[key] = round(counts[key], 3)
    log(
        f"store {store_id}: rolled up {counts['chunks_created']} chunks "
        f"({', '.join(f'L{lv}: {n}' for lv, n in sorted(counts['created'].items())) or 'none'})"
        f" in {counts['seconds']:.1f}s; {counts['turns_waiting']} turns wait for a full batch"
    )
    return counts


def _build(
    db: Database,
    store_id: str,
    part: Sequence[tuple[pyramid.Planned, int]],
    models: Models,
    embedder: Embedder,
    counts: dict[str, Any],
    run_id: str,
) -> None:
    """Summarise one batch of same-level chunks and write them, with their calls, at once."""
    with db.connection() as conn:
        inputs = [_inputs(conn, store_id, p, chat) for p, chat in part]
    missing = [
        (n, j) for n, inp in enumerate(inputs) for j, v in enumerate(inp["vectors"]) if v is None
    ]
    if missing:  # turns written with embed=False and not yet embedded by turn_embeddings
        fresh = embedder.embed([inputs[n]["raw"][j] for n, j in missing])
        for (n, j), vec in zip(missing, fresh, strict=True):
            inputs[n]["vectors"][j] = vec
        counts["turns_embedded"] += len(missing)
    summaries, model_names = [], []
    t0 = time.perf_counter()
    for (p, _), inp in zip(part, inputs, strict=True):
        vecs = np.stack(inp["vectors"])
        try:
            summaries.append(models.summarise(inp["texts"], vecs, words_for(p.level)))
            model_names.append(models.backend.model)
        except Invalid:
            summaries.append(summarise_extractive(inp["texts"], vecs, words_for(p.level)))
            model_names.append(FALLBACK_MODEL)
            counts["summaries_fallback"] += 1
    t1 = time.perf_counter()
    vectors = embedder.embed(summaries)
    counts["summarise_seconds"] += t1 - t0
    counts["embed_seconds"] += time.perf_counter() - t1
    rows = [
        chunks_db.NewChunk(
            chat_id=chat,
            level=p.level,
            seq=p.seq,
            from_seq=inp["from_seq"],
            to_seq=inp["to_seq"],
            summary=summary,
            period_start=inp["period_start"],
            period_end=inp["period_end"],
            children=inp["children"],
            model=model,
            embedding=vec,
        )
        for (p, chat), inp, summary, model, vec in zip(
            part, inputs, summaries, model_names, vectors, strict=True
        )
    ]
    calls = models.drain()
    with db.transaction() as conn:
        new = chunks_db.insert_chunks(conn, store_id, rows)
        record_calls(conn, store_id, calls, run_id)
    level = part[0][0].level
    counts["created"][level] = counts["created"].get(level, 0) + new
    counts["chunks_created"] += new
    counts["model_calls"] += len(calls)


def _inputs(conn: Conn, store_id: str, p: pyramid.Planned, chat_id: int) -> dict[str, Any]:
    """What summarising one planned chunk reads: turns for level 1, child chunks above."""
    if p.level == 1:
        turns = turns_db.turns_with_vectors(conn, chat_id, p.first_child, p.last_child)
        rows: Sequence[tuple[Turn | Chunk, np.ndarray | None]] = turns
    else:
        chunks = chunks_db.chunks_with_vectors(
            conn, chat_id, p.level - 1, p.first_child, p.last_child
        )
        rows = chunks
    if len(rows) != pyramid.BRANCH:
        what = "turns" if p.level == 1 else f"level-{p.level - 1} chunks"
        raise StoreError(
            f"store {store_id} chat {chat_id}: L{p.level} chunk {p.seq} needs {what} "
            f"{p.first_child}-{p.last_child}, found {len(rows)}"
        )
    if p.level == 1:
        return {
            "texts": [turn_text(t.speaker, t.role, t.created_at, t.text) for t, _ in turns],
            "raw": [t.text for t, _ in turns],
            "vectors": [v for _, v in turns],
            "children": [t.turn_id for t, _ in turns],
            "from_seq": turns[0][0].seq,
            "to_seq": turns[-1][0].seq,
            "period_start": min(t.created_at for t, _ in turns),
            "period_end": max(t.created_at for t, _ in turns),
        }
    return {
        "texts": [c.summary for c, _ in chunks],
        "raw": [c.summary for c, _ in chunks],
        "vectors": [v for _, v in chunks],
        "children": [c.chunk_id for c, _ in chunks],
        "from_seq": chunks[0][0].from_seq,
        "to_seq": chunks[-1][0].to_seq,
        "period_start": min(c.period_start for c, _ in chunks),
        "period_end": max(c.period_end for c, _ in chunks),
    }
