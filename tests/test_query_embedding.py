"""A single text (a query) is embedded by the traced model once a process has embedded a few:
the same vectors as a batch, at every length."""

import numpy as np

from memory_pipelines.models import embedder as embedder_mod
from memory_pipelines.models.embedder import Embedder


def test_traced_single_texts_match_the_batch_path(embedder: Embedder) -> None:
    texts = [
        "x",
        "What did Caroline research?",
        "Melanie said she painted a lake sunrise last year, and she is proud of it!",
        "word " * 400,  # past the model's 256 word pieces: truncated the same way
        "Émilie a dit « bonjour » 👋",
    ]
    for _ in range(embedder_mod.TRACE_AFTER):  # enough single texts to trace the model
        embedder.embed_one("warm up")
    assert embedder._traced() is not None, "the default model is mean-pooled: it is traced"
    batch = embedder.embed(texts)
    for text, expected in zip(texts, batch, strict=True):
        got = embedder.embed_one(text)
        assert got.shape == (embedder.dim,)
        assert abs(float(np.linalg.norm(got)) - 1.0) < 1e-5
        assert float(np.dot(got, expected)) > 0.9999, text[:20]
