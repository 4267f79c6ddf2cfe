"""A single text (a query) or a few at once are embedded on ONNX Runtime once a process has
asked for a few that often: the same vectors as a batch on torch, at every length; the exported
model is kept on disk and read back."""

import os
import threading
import time

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


def _on_torch(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """The texts' vectors from a batch too big for ONNX Runtime: torch's encode()."""
    padded = texts + ["filler"] * (embedder_mod.SMALL_BATCH + 1)
    return embedder.embed(padded)[: len(texts)]


def test_single_texts_match_the_batch_path(embedder: Embedder) -> None:
    _fast(embedder)
    batch = _on_torch(embedder, TEXTS)
    for text, expected in zip(TEXTS, batch, strict=True):
        got = embedder.embed_one(text)
        assert got.shape == (embedder.dim,)
        assert abs(float(np.linalg.norm(got)) - 1.0) < 1e-5
        assert float(np.dot(got, expected)) > 0.9999, text[:20]


def test_a_few_texts_at_once_match_the_batch_path(embedder: Embedder) -> None:
    """A few texts of different lengths in one ONNX pass: each padded to the longest, and the
    padding is no part of its vector."""
    _fast(embedder)
    on_torch = _on_torch(embedder, TEXTS)
    embedder._on_torch = None  # type: ignore[assignment]  # a few texts must not reach torch
    try:
        got = embedder.embed(TEXTS)
    finally:
        del embedder._on_torch  # the method again
    assert got.shape == (len(TEXTS), embedder.dim)
    for text, vec, expected in zip(TEXTS, got, on_torch, strict=True):
        assert abs(float(np.linalg.norm(vec)) - 1.0) < 1e-5
        assert float(np.dot(vec, expected)) > 0.9999, text[:20]


def test_single_texts_from_many_threads_are_each_their_own(embedder: Embedder) -> None:
    """The ONNX pass runs outside the embedder's lock: texts embedded at once stay apart."""
    _fast(embedder)
    expected = _on_torch(embedder, TEXTS)
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
    # what earlier versions left: an export unused for 40 days, one used yesterday, and the
    # temporary files of an export killed two hours ago and of one being written now
    old, recent = tmp_path / "BertModel-old.onnx", tmp_path / "BertModel-recent.onnx"
    killed, writing = tmp_path / ".BertModel-x.onnx.1.tmp", tmp_path / ".BertModel-y.onnx.2.tmp"
    for path, age_days in ((old, 40), (recent, 1), (killed, 2 / 24), (writing, 0)):
        path.write_bytes(b"x")
        when = time.time() - age_days * 86400
        os.utime(path, (when, when))
    first = onnx_single.load(transformer, cache=tmp_path)
    assert not old.exists() and not killed.exists()
    assert recent.exists() and writing.exists()
    files = [p for p in tmp_path.glob("*.onnx") if p != recent]
    assert len(files) == 1 and files[0].stat().st_size > 1_000_000
    inode = files[0].stat().st_ino
    when = time.time() - 5 * 86400
    os.utime(files[0], (when, when))
    again = onnx_single.load(transformer, cache=tmp_path)  # read, not exported again
    assert files[0].stat().st_ino == inode
    assert time.time() - files[0].stat().st_mtime < 60  # marked used by the load
    enc = embedder._model.tokenizer("a question about the garden", return_tensors="np")
    assert np.allclose(first(enc), again(enc), atol=1e-6)


def test_an_export_leaves_the_live_model_as_it_found_it(embedder: Embedder, tmp_path) -> None:
    """Exporting the single-text pass (the first process to need it exports it) must not leave
    the live transformer in training mode: the turns' vectors (embed_with_parts, outside
    encode()) were then computed with dropout on, a few degrees off and different each time."""
    transformer = embedder._model[0].auto_model
    onnx_single.load(transformer, cache=tmp_path)  # an empty cache: exported now
    assert not transformer.training
    texts = ["Melanie: I paint lakes at dawn.", "Caroline: I went to a support group."]
    parts = [[(0, len(t))] for t in texts]
    whole, _ = embedder.embed_with_parts(texts, parts)
    for got, expected in zip(whole, embedder.embed(texts), strict=True):
        assert float(np.dot(got, expected)) > 0.9999


def test_a_few_texts_run_on_one_thread_and_a_batch_on_torchs_default() -> None:
    import torch

    before = torch.get_num_threads()
    with embedder_mod._threads_for(embedder_mod.SMALL_BATCH):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before  # given back
    with embedder_mod._threads_for(embedder_mod.SMALL_BATCH + 1):
        assert torch.get_num_threads() == before


def test_a_question_is_embedded_on_int8_weights(embedder: Embedder) -> None:
    """A search's question goes through the int8 pass: near the float vector, not equal to it,
    and the float pass still gives every vector that is stored."""
    for _ in range(embedder_mod.FAST_AFTER + 1):
        embedder.embed_query("warm up")
    exact = _on_torch(embedder, TEXTS)
    near = [float(np.dot(embedder.embed_query(t), e)) for t, e in zip(TEXTS, exact, strict=True)]
    assert min(near) >= embedder_mod.QUERY_LEAST_COS, near
    assert min(near) < 0.9999, "int8 weights move a vector a little: this is the float pass"
    for text, expected in zip(TEXTS, exact, strict=True):
        assert float(np.dot(embedder.embed_one(text), expected)) > 0.9999


def test_the_int8_copy_is_made_from_the_export_and_kept(embedder: Embedder, tmp_path) -> None:
    transformer = embedder._model[0].auto_model
    plain = onnx_single.load(transformer, cache=tmp_path)
    small = onnx_single.load(transformer, cache=tmp_path, int8=True)
    (float_file,) = [p for p in tmp_path.glob("*.onnx") if "-int8-" not in p.name]
    (int8_file,) = tmp_path.glob("*-int8-*.onnx")
    assert int8_file.stat().st_size < float_file.stat().st_size / 3  # a byte a weight, not four
    inode = int8_file.stat().st_ino
    again = onnx_single.load(transformer, cache=tmp_path, int8=True)  # read, not made again
    assert int8_file.stat().st_ino == inode
    enc = embedder._model.tokenizer("a question about the garden", return_tensors="np")
    assert np.allclose(small(enc), again(enc), atol=1e-6)
    assert not np.allclose(small(enc), plain(enc), atol=1e-4)


def test_a_search_embeds_its_question_on_the_int8_pass(recall, memory, embedder) -> None:
    """Recall.search asks for a question's vector (embed_query), not a stored one's."""
    memory.write_turns(
        "c1",
        [
            {"speaker": "Ana", "text": "I adopted a greyhound called Pepper last spring."},
            {"speaker": "Ben", "text": "My sister moved to Lisbon for work."},
        ],
    )
    asked: list[str] = []
    real = embedder.embed_query

    def spy(text: str) -> np.ndarray:
        asked.append(text)
        return real(text)

    embedder.embed_query = spy
    try:
        hits = recall.search("Which dog did Ana adopt?", ["history"], k=3)
    finally:
        del embedder.embed_query
    assert asked == ["Which dog did adopt?"]  # the speakers' names are left out
    assert hits and "Pepper" in hits[0].text
