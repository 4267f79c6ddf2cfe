"""Pyramid benchmark: roll up the six LoCoMo dev conversations from nothing, add 100 turns and
roll up again, then rebuild everything from nothing for comparison; boot windows on each chat.

Prints chunks/s, the incremental run's cost against the full rebuild (goal: proportional to the
new turns, not to the history) and the boot window's record overhead (frame tokens / tokens)
per chat at a token budget.

    .venv/bin/python benchmarks/pyramid.py [--data FILE] [--budget 2000] [--new-turns 100]
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
from datetime import timedelta
from pathlib import Path
from typing import Any

from memory_pipelines.api import Memory
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.pyramid import rollup
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import get_embedder
from memory_pipelines.models.local import LocalBackend

DATA = Path(__file__).resolve().parent / "data/locomo/locomo_dev.json"
KEEP = ("chunks_created", "model_calls", "seconds", "summarise_seconds", "embed_seconds")


def _run(memory: Memory) -> dict[str, Any]:
    res = rollup(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)), memory.embedder)
    out = {k: res[k] for k in KEEP}
    out["created"] = {f"L{lv}": n for lv, n in sorted(res["created"].items())}
    out["chunks_per_s"] = round(res["chunks_created"] / res["seconds"], 1) if res["seconds"] else 0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--new-turns", type=int, default=100)
    args = ap.parse_args()
    chats, _ = load_chats(args.data)
    embedder = get_embedder()
    memory = Memory(f"bench-pyramid-{uuid.uuid4().hex[:8]}", embedder=embedder)
    ingest = ingest_chats(memory, chats)
    history = sum(len(c.turns) for c in chats)

    full = _run(memory)

    # New turns at the end of the first chat: the next session, borrowed from another chat.
    target, donor = chats[0], chats[1]
    last = target.turns[-1]["created_at"]
    extra = [
        {**t, "created_at": last + timedelta(days=7), "external_id": f"bench-{i}"}
        for i, t in enumerate(donor.turns[: args.new_turns])
    ]
    memory.write_turns(target.external_id, extra)
    incremental = _run(memory)

    with memory.db.transaction() as conn:
        conn.execute("DELETE FROM chunks WHERE store_id = %s", (memory.store_id,))
    rebuild = _run(memory)

    windows = {}
    for chat in chats:
        w = memory.boot_window(chat.external_id, args.budget)
        levels: dict[str, int] = {}
        for r in w.records:
            key = "turns" if r.level == 0 else f"L{r.level}"
            levels[key] = levels.get(key, 0) + 1
        windows[chat.external_id] = {
            "tokens": w.tokens,
            "frame_tokens": w.frame_tokens,
            "overhead": w.overhead,
            "complete": w.complete,
            "records": levels,
        }
    all_tokens = sum(w["tokens"] for w in windows.values())
    all_frames = sum(w["frame_tokens"] for w in windows.values())
    out = {
        "turns": history,
        "ingest_s": round(ingest.seconds, 2),
        "full_rollup": full,
        "new_turns": len(extra),
        "incremental_rollup": incremental,
        "rebuild_rollup": rebuild,
        "incremental_vs_rebuild_seconds": round(incremental["seconds"] / rebuild["seconds"], 4),
        "incremental_vs_rebuild_chunks": round(
            incremental["chunks_created"] / rebuild["chunks_created"], 4
        ),
        "new_turns_share": round(len(extra) / (history + len(extra)), 4),
        "boot_budget_tokens": args.budget,
        "boot_windows": windows,
        "boot_overhead_all": round(all_frames / all_tokens, 4) if all_tokens else 0.0,
    }
    print(json.dumps(out, indent=2))
    print(
        f"rollup {full['chunks_created']} chunks from {history} turns at "
        f"{full['chunks_per_s']} chunks/s; +{len(extra)} turns: {incremental['chunks_created']} "
        f"chunks in {incremental['seconds']:.2f}s = {out['incremental_vs_rebuild_seconds']:.1%} "
        f"of a full rebuild ({rebuild['seconds']:.1f}s; new turns are "
        f"{out['new_turns_share']:.1%} of history); boot window at {args.budget} tokens: "
        f"{out['boot_overhead_all']:.1%} record overhead"
    )


if __name__ == "__main__":
    main()
