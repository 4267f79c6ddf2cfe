"""Ingest benchmark: the six LoCoMo dev conversations into a fresh store.

Prints turns/s for (a) embedding the same texts alone and (b) the whole ingest (write + embed
+ index), measured in the same run, and their ratio (goal: b within 1.3x of a).

    .venv/bin/python benchmarks/ingest.py [--data FILE]
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
import uuid
from pathlib import Path

from common import DATA, chats_and_embed_baseline

from memory_pipelines.api import Memory
from memory_pipelines.api.ingest import ingest_chats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    chats, n_turns, embed_s, embedder = chats_and_embed_baseline(args.data)
    memory = Memory(f"bench-ingest-{uuid.uuid4().hex[:8]}", embedder=embedder)
    summary = ingest_chats(memory, chats)
    out = {
        "turns": n_turns,
        "embed_only_turns_per_s": round(n_turns / embed_s, 1),
        "ingest_turns_per_s": round(n_turns / summary.seconds, 1),
        "ratio_ingest_to_embed": round(summary.seconds / embed_s, 3),
        "embed_only_s": round(embed_s, 2),
        "ingest_s": round(summary.seconds, 2),
    }
    print(json.dumps(out, indent=2))
    print(
        f"ingest {out['ingest_turns_per_s']} turns/s vs embedding alone "
        f"{out['embed_only_turns_per_s']} turns/s: {out['ratio_ingest_to_embed']}x (goal <= 1.3x)"
    )


if __name__ == "__main__":
    main()
