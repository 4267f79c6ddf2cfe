"""What the ingest and pipeline benchmarks share: the LoCoMo dev chats and the baseline time
to embed their turns alone, in the batches ingest uses."""

from __future__ import annotations

import time
from pathlib import Path

from memory_pipelines.api.ingest import BATCH
from memory_pipelines.api.turns import embedding_text
from memory_pipelines.core.conversations import Chat, load_chats
from memory_pipelines.models.embedder import Embedder, get_embedder

DATA = Path(__file__).resolve().parent / "data/locomo/locomo_dev.json"


def chats_and_embed_baseline(data: Path) -> tuple[list[Chat], int, float, Embedder]:
    """The chats, their turn count, seconds to embed those turns alone, and the embedder."""
    chats, _ = load_chats(data)
    texts = [embedding_text(t.get("speaker", ""), t["text"]) for c in chats for t in c.turns]
    embedder = get_embedder()
    embedder.embed(texts[:64])  # warm up
    start = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        embedder.embed(texts[i : i + BATCH])
    return chats, len(texts), time.perf_counter() - start, embedder
