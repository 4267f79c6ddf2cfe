"""Turn embeddings: what a turn's vector is computed from, and its sentences' vectors from the
same pass of the model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory_pipelines.core.sentence_kinds import sentence_spans
from memory_pipelines.models.embedder import Embedder
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
