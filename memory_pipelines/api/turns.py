"""Turn embeddings: what a turn's vector is computed from, and its sentences' vectors from the
same pass of the model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory_pipelines.core.inputs import TurnInput
from memory_pipelines.core.sentence_kinds import sentence_spans
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Database
from memory_pipelines.store.turns import Sentence


def embedding_text(speaker: str, text: str) -> str:
    """What a turn's embedding is computed from: who said it and what."""
    return f"{speaker}: {text}" if speaker else text


def embed_turns(
    embedder: Embedder, turns: Sequence[tuple[str, str]]
) -> tuple[np.ndarray, list[list[Sentence]]]:
    """Vectors of (speaker, text) turns, and of each turn's sentences (as the save policy
    splits them) from the same pass of the model (Embedder.embed_with_parts)."""
    texts = [embedding_text(speaker, text) for speaker, text in turns]
    spans = [sentence_spans(text) for _, text in turns]
    shifts = [len(full) - len(text) for full, (_, text) in zip(texts, turns, strict=True)]
    parts = [[(a + d, z + d) for a, z in sp] for sp, d in zip(spans, shifts, strict=True)]
    vecs, part_vecs = embedder.embed_with_parts(texts, parts)
    sentences = [
        [(j, a, z, pv[j]) for j, (a, z) in enumerate(sp)]
        for sp, pv in zip(spans, part_vecs, strict=True)
    ]
    return vecs, sentences


def embed_new_turns(
    db: Database, embedder: Embedder, store_id: str, chat: str, turns: Sequence[TurnInput]
) -> tuple[np.ndarray, list[list[Sentence]]]:
    """`embed_turns` of the turns the chat does not hold yet (by external id); those it holds
    get zeros and no sentences, never written (append_turns skips them): an ingest run again
    after a stop embeds only what it had not written."""
    ext = [t.external_id for t in turns if t.external_id]
    with db.connection() as conn:
        stored = turns_db.stored_external_ids(conn, store_id, chat, ext) if ext else set()
    todo = [i for i, t in enumerate(turns) if not (t.external_id and t.external_id in stored)]
    vecs = np.zeros((len(turns), embedder.dim), dtype=np.float32)
    sentences: list[list[Sentence]] = [[] for _ in turns]
    if todo:
        new_vecs, new_sentences = embed_turns(
            embedder, [(turns[i].speaker, turns[i].text) for i in todo]
        )
        for n, i in enumerate(todo):
            vecs[i], sentences[i] = new_vecs[n], new_sentences[n]
    return vecs, sentences
