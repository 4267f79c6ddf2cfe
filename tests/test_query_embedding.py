"""A single text (a query) is embedded on ONNX Runtime once a process has embedded a few: the
same vectors as a batch, at every length; the exported model is kept on disk and read back."""

import threading

import numpy as np

from memory_pipelines.models import embedder as embedder_mod
from memory_pipelines.models import onnx_single
from memory_pipelines.models.embedder import Embedder

TEXTS = [
    "x",
    "What did Caroline research?",
    "Melanie said she painted a lake sunrise last year, and she is proud of it!",
    "word " * 400,  # past the model's 256 word pieces: truncated the same way
    "Émilie a dit « bonjour » 👋",
]


def _fast(embedder: Embedder) -> None:
    for _ in range(embedder_mod.FAST_AFTER):  # enough single texts to move to ONNX Runtime
        embedder.embed_one("warm up")
    assert embedder._fast() is not None, "the default model is mean-pooled: it runs on ONNX"


def test_single_texts_match_the_batch_path(embedder: Embedder) -> None:
    _fast(embedder)
    batch = embedder.embed(TEXTS)
    for text, expected in zip(TEXTS, batch, strict=True):
        got = embedder.embed_one(text)
        assert got.shape == (embedder.dim,)
        assert abs(float(np.linalg.norm(got)) - 1.0) < 1e-5
        assert float(np.dot(got, expected)) > 0.9999, text[:20]


def test_single_texts_from_many_threads_are_each_their_own(embedder: Embedder) -> None:
    """The ONNX pass runs outside the embedder's lock: texts embedded at once stay apart."""
    _fast(embedder)
    expected = embedder.embed(TEXTS)
    got: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        for _ in range(5):
            got[i] = embedder.embed_one(TEXTS[i % len(TEXTS)])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, vec in got.items():
        assert float(np.dot(vec, expected[i % len(TEXTS)])) > 0.9999


def test_the_export_is_kept_and_read_back(embedder: Embedder, tmp_path) -> None:
    transformer = embedder._model[0].auto_model
    first = onnx_single.load(transformer, cache=tmp_path)
    files = list(tmp_path.glob("*.onnx"))
    assert len(files) == 1 and files[0].stat().st_size > 1_000_000
    assert not list(tmp_path.glob(".*.tmp")), "no temporary file is left behind"
    stamp = files[0].stat().st_mtime_ns
    again = onnx_single.load(transformer, cache=tmp_path)  # read, not exported again
    assert files[0].stat().st_mtime_ns == stamp
    enc = embedder._model.tokenizer("a question about the garden", return_tensors="np")
    assert np.allclose(first(enc), again(enc), atol=1e-6)
