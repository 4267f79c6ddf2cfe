"""Extraction scored against LoCoMo's `observation` annotations.

coverage: share of observations whose evidence turn lies in the provenance of an extracted item
that says the same thing (cosine of the two texts >= SAME_THRESHOLD).
precision proxy: share of extracted items whose provenance holds some observation's evidence.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.memory import Memory
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

SAME_THRESHOLD = 0.5


def observations(sample: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for _, by_speaker in sorted(sample.get("observation", {}).items()):
        for facts in by_speaker.values():
            for fact in facts:
                text, evidence = fact[0], fact[1]
                for dia in evidence if isinstance(evidence, list) else [evidence]:
                    out.append((text, str(dia)))
    return out


def evaluate(
    db: Database, models: Models, embedder: Embedder, path: Path, keep: bool = False
) -> dict[str, Any]:
    chats, samples = load_chats(path, "locomo")
    per_conv, totals = (
        [],
        {"observations": 0, "covered": 0, "items": 0, "items_on_evidence": 0, "turns": 0},
    )
    start = time.perf_counter()
    for chat, sample in zip(chats, samples, strict=True):
        store_id = f"eval-extract-{uuid.uuid4().hex[:8]}"
        memory = Memory(store_id, db=db, embedder=embedder, models=models)
        ingest_chats(memory, [chat])
        counts = run_extraction(db, store_id, models, embedder, run_id=f"eval-{store_id}")
        with db.connection() as conn:
            seq_of = {
                r["external_id"]: r["seq"]
                for r in conn.execute(
                    "SELECT external_id, seq FROM turns WHERE store_id = %s", (store_id,)
                )
            }
            items = conn.execute(
                "SELECT context, from_seq, to_seq, embedding FROM agent_memory_items"
                " WHERE store_id = %s AND state = 'current'",
                (store_id,),
            ).fetchall()
        obs = [(t, seq_of[d]) for t, d in observations(sample) if d in seq_of]
        obs_vecs = embedder.embed([t for t, _ in obs])
        item_vecs = (
            np.stack([np.asarray(i["embedding"].to_numpy()) for i in items])
            if items
            else np.zeros((0, embedder.dim), dtype=np.float32)
        )
        sims = obs_vecs @ item_vecs.T if len(items) else np.zeros((len(obs), 0))
        covered = 0
        for oi, (_, seq) in enumerate(obs):
            hits = [ii for ii, it in enumerate(items) if it["from_seq"] <= seq <= it["to_seq"]]
            covered += any(sims[oi, ii] >= SAME_THRESHOLD for ii in hits)
        evidence = {seq for _, seq in obs}
        on_evidence = sum(
            1 for it in items if any(it["from_seq"] <= s <= it["to_seq"] for s in evidence)
        )
        per_conv.append(
            {
                "conversation": chat.external_id,
                "turns": len(chat.turns),
                "observations": len(obs),
                "items": len(items),
                "coverage": round(covered / len(obs), 4) if obs else 0.0,
                "precision_proxy": round(on_evidence / len(items), 4) if items else 0.0,
                "pass": counts,
            }
        )
        for k, v in (
            ("observations", len(obs)),
            ("covered", covered),
            ("items", len(items)),
            ("items_on_evidence", on_evidence),
            ("turns", len(chat.turns)),
        ):
            totals[k] += v
        if not keep:
            with db.connection() as conn:
                stores_db.drop_store(conn, store_id)
    return {
        "conversations": len(per_conv),
        "threshold": SAME_THRESHOLD,
        "coverage": round(totals["covered"] / totals["observations"], 4)
        if totals["observations"]
        else 0.0,
        "precision_proxy": round(totals["items_on_evidence"] / totals["items"], 4)
        if totals["items"]
        else 0.0,
        "items_per_100_turns": round(100 * totals["items"] / totals["turns"], 2)
        if totals["turns"]
        else 0.0,
        "seconds": round(time.perf_counter() - start, 1),
        "per_conversation": per_conv,
    }
