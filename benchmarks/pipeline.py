"""Pipeline benchmark: ingest + extraction + dedup over the six LoCoMo dev conversations.

Prints end-to-end turns/s beside the time to embed the same turns alone, measured in the same
run (goal: end-to-end within 1.5x of embedding alone, by embedding each text once).

    .venv/bin/python benchmarks/pipeline.py [--data FILE]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py (the name issue 13 gives it) would shadow the standard library's `http`,
# which httpx imports: this folder goes after the standard library on sys.path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import json
import time
import uuid
from pathlib import Path

from common import DATA, chats_and_embed_baseline

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    chats, n_turns, embed_s, embedder = chats_and_embed_baseline(args.data)

    store_id = f"bench-pipeline-{uuid.uuid4().hex[:8]}"
    models = Models(LocalBackend(embedder))
    memory = Memory(store_id, embedder=embedder, models=models)
    t0 = time.perf_counter()
    ingest = ingest_chats(memory, chats)
    counts = run_extraction(memory.db, store_id, models, embedder, run_id="bench")
    total_s = time.perf_counter() - t0
    out = {
        "turns": n_turns,
        "embed_only_s": round(embed_s, 2),
        "ingest_s": round(ingest.seconds, 2),
        "extraction_s": round(total_s - ingest.seconds, 2),
        "end_to_end_s": round(total_s, 2),
        "embed_only_turns_per_s": round(n_turns / embed_s, 1),
        "end_to_end_turns_per_s": round(n_turns / total_s, 1),
        "ratio_end_to_end_to_embed": round(total_s / embed_s, 3),
        "pass": counts,
    }
    print(json.dumps(out, indent=2))
    print(
        f"end-to-end {out['end_to_end_turns_per_s']} turns/s vs embedding alone "
        f"{out['embed_only_turns_per_s']} turns/s: {out['ratio_end_to_end_to_embed']}x "
        f"(goal <= 1.5x); {counts['written']} items written, {counts['confirmed']} confirmed"
    )


if __name__ == "__main__":
    main()
