"""The forward pass of a few texts on ONNX Runtime: the transformer of a sentence-transformers
model exported to ONNX once, and kept under MEMORY_HOME/models keyed by its weights.

Why: a question is one short text, and torch spends most of a small forward pass in its own
dispatch. The same question took 12.0 ms p50 through a TorchScript trace of the model and
6.4 ms on ONNX Runtime (one thread each, this machine), with the same vector (cos > 0.99999);
the dedup judge's pair of texts, padded to one shape, 4.1 ms against 8.4 on torch. Batches
stay on torch: ONNX Runtime was only 14% faster there (640 turns, 64 a batch).

A search's question may go through a copy with int8 weights (`load(..., int8=True)`: every
matrix product's weights quantized per output channel by ONNX Runtime's dynamic quantizer,
activations quantized as they come): 1.8 ms against 4.6 ms for a LoCoMo question here, its
vector within cos 0.99 of the float one (0.994 on average over 300 questions), and the LoCoMo
dev figures within 0.002 (models/embedder.py, Embedder.embed_query). Stored vectors never come
from it.

Export takes about 4 s and needs the `onnx` package (the int8 copy 2 s more); the file is
written whole or not at all (a temporary file renamed), so processes starting together never
read half of one. Each load marks its file used (its modification time); a new export removes
the exports no process has loaded for UNUSED_DAYS (an older model or torch: 90 MB each) and
temporary files left by a process killed while writing one."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from memory_pipelines.core.home import memory_home

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
UNUSED_DAYS = 30  # an export no process has loaded for this long is removed by the next export
STALE_TMP_SECONDS = 3600  # a temporary file this old was left by a killed export


class OnnxForward:
    """`last_hidden_state` of tokenized texts (numpy int64 inputs, padded to one length) on one
    thread. A session's run is safe to call from several threads at once."""

    def __init__(self, model: bytes | Path) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # as torch's one thread for a few texts (embedder.py)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: its notes on the graph are not ours
        source = str(model) if isinstance(model, Path) else model
        self._session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])

    def __call__(self, inputs: dict[str, np.ndarray]) -> np.ndarray:
        feed = {name: inputs[name].astype(np.int64) for name in INPUTS}
        out: np.ndarray = self._session.run(None, feed)[0]
        return out


def load(transformer: Any, cache: Path | None = None, int8: bool = False) -> OnnxForward:
    """The ONNX forward pass of `transformer` (a Hugging Face BERT-like model taking input ids,
    attention mask and token type ids), with int8 weights when asked: read from the cache when
    made before, else exported (and quantized) now and saved there. An unwritable cache costs
    only the file: the export is used from memory."""
    folder = cache or memory_home() / "models"
    plain = folder / f"{_fingerprint(transformer)}.onnx"
    path = plain.with_name(f"{plain.stem}-int8-ort{_ort_version()}.onnx") if int8 else plain
    if path.exists():
        with contextlib.suppress(OSError):  # a read-only cache is still read
            os.utime(path)  # used now: kept by the pruning of unused exports
        return OnnxForward(path)
    data = plain.read_bytes() if int8 and plain.exists() else _export(transformer)
    if int8:
        data = _int8(data)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        return OnnxForward(data)
    _prune(folder, path)
    return OnnxForward(path)


def _prune(folder: Path, keep: Path) -> None:
    """Remove exports unused for UNUSED_DAYS and stale temporary files (never `keep`)."""
    now = time.time()
    doomed = [
        *(p for p in folder.glob("*.onnx") if now - p.stat().st_mtime > UNUSED_DAYS * 86400),
        *(p for p in folder.glob(".*.onnx.*.tmp") if now - p.stat().st_mtime > STALE_TMP_SECONDS),
    ]
    for p in doomed:
        if p != keep:
            p.unlink(missing_ok=True)


def _fingerprint(transformer: Any) -> str:
    """What the exported file depends on: every weight, the model's configuration and the
    exporter's version."""
    import torch

    digest = hashlib.sha256()
    digest.update(f"{torch.__version__}|{transformer.config.to_json_string()}".encode())
    for name, tensor in sorted(transformer.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().cpu().numpy().tobytes())
    return f"{type(transformer).__name__}-{digest.hexdigest()[:24]}"


def _ort_version() -> str:
    import onnxruntime as ort

    return str(ort.__version__)


def _int8(model: bytes) -> bytes:
    """The model with its matrix products' weights quantized to int8, per output channel
    (one scale per column: per tensor, a question's vector fell to cos 0.97 of the float one;
    per channel 0.994)."""
    import logging
    import tempfile

    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quiet = logging.getLogger()  # the quantizer's advice to pre-process goes to the root logger
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "int8.onnx"
            quantize_dynamic(
                onnx.load_from_string(model), out, per_channel=True, weight_type=QuantType.QInt8
            )
            return out.read_bytes()
    finally:
        quiet.setLevel(level)


def _export(transformer: Any) -> bytes:
    import torch

    class Forward(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            out = self.inner(input_ids=ids, attention_mask=mask, token_type_ids=types)
            return out.last_hidden_state

    # The exporter puts the module back in the mode it found it in, recursively: a wrapper
    # left in training mode (a new module's default) would leave the live transformer in it,
    # and every later forward pass of this process outside encode() (embed_with_parts: the
    # turns' vectors) would run with dropout: vectors a few degrees off, different each time.
    forward = Forward(transformer).eval()
    sample = torch.ones((1, 8), dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "last_hidden_state")}
    buffer = io.BytesIO()
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the exporter's notes on Python branches it records
        torch.onnx.export(
            forward,
            (sample, sample, torch.zeros_like(sample)),
            buffer,  # type: ignore[arg-type]  # the TorchScript exporter writes to any binary file
            input_names=list(INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,  # the TorchScript exporter: no onnxscript, and dynamic shapes as asked
        )
    return buffer.getvalue()
