"""The LoCoMo retrieval evaluation, exactly the protocol of the recall issue:

1. a fresh store per conversation, its sessions ingested as one chat (dated turns, speakers,
   captions appended, dia_id kept as the external id);
2. the full pipeline materialised for that store through Dagster with the local backends;
3. each question alone sent to the public search API (all scopes, no person filter);
4. hits flattened to turns (an item or chunk gives the turns of its provenance, most relevant to
   the question first; duplicates dropped), each turn one of the k slots;
5. scored against the evidence, per category, with search latency and pipeline wall time.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.recall import ALL_SCOPES, Hit, Recall
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.evals.locomo_scoring import KS, aggregate, evidence_ids, score_question
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

K_MAX = max(KS)
HEADLINE = ("1", "2", "3", "4")  # multi-hop, temporal, open-domain, single-hop


def _store_id(sample_id: str) -> str:
    return "locomo-" + "".join(c if c.isalnum() else "-" for c in sample_id.lower())


def provenance_turns(
    db: Database, store_id: str, hits: Sequence[Hit], qvec: np.ndarray
) -> list[str]:
    """Flatten ranked hits to turn external ids: a turn is itself; an item or a chunk gives
    the turns it came from, the best match to the question first."""
    # An item's provenance is the span it records (chat, from_seq..to_seq); a chunk's is the
    # turns it covers. Restatements merged into an item later are confirmations, not provenance.
    spans = {
        i: [(h.chat_id, h.from_seq, h.to_seq or h.from_seq)]
        for i, h in enumerate(hits)
        if h.chat_id is not None and h.from_seq is not None
    }
    with db.connection() as conn:
        wanted = sorted(
            {(c, s) for ss in spans.values() for c, f, t in ss for s in range(f, t + 1)}
        )
        turns = {}
        if wanted:
            for r in conn.execute(
                "SELECT t.chat_id, t.seq, t.external_id, 1 - (t.embedding <=> %s) AS cos"
                " FROM turns t JOIN unnest(%s::bigint[], %s::int[]) AS w(chat_id, seq)"
                " USING (chat_id, seq)",
                (qvec, [c for c, _ in wanted], [s for _, s in wanted]),
            ):
                turns[(r["chat_id"], r["seq"])] = r
    ranked: list[str] = []
    for i, h in enumerate(hits):
        if h.kind == "turn":
            found = [h.extra.get("external_id")]
        else:
            span = spans.get(i, [])
            keys = sorted({(c, s) for c, f, t in span for s in range(f, t + 1)} & turns.keys())
            found = [
                turns[k]["external_id"]
                for k in sorted(keys, key=lambda k: -(turns[k]["cos"] or 0.0))
            ]
        for ext in found:
            if ext and ext not in ranked:
                ranked.append(ext)
    return ranked


def prepare(
    db: Database,
    embedder: Embedder,
    path: Path,
    reuse: bool,
    log: Callable[[str], None],
    only: Sequence[str] = (),
) -> tuple[list[tuple[str, dict[str, Any]]], float]:
    """Fresh stores with the full pipeline run; returns (store, sample) pairs and wall time.
    `only` names the conversations to use (sample ids such as conv-26); empty means all."""
    from memory_pipelines.definitions import every_asset
    from memory_pipelines.pipeline import dagster_instance, materialize_stores

    chats, samples = load_chats(path, "locomo")
    unknown = set(only) - {c.external_id for c in chats}
    if unknown:
        known = ", ".join(c.external_id for c in chats)
        raise ValueError(f"conversations: {', '.join(sorted(unknown))} not in {path} ({known})")
    start = time.perf_counter()
    pairs, to_run = [], []
    for chat, sample in zip(chats, samples, strict=True):
        if only and chat.external_id not in only:
            continue
        store_id = _store_id(chat.external_id)
        pairs.append((store_id, sample))
        with db.connection() as conn:
            exists = conn.execute(
                "SELECT 1 FROM stores WHERE store_id = %s", (store_id,)
            ).fetchone()
            if exists and reuse:
                continue
            stores_db.drop_store(conn, store_id)
        ingest_chats(Memory(store_id, db=db, embedder=embedder), [chat])
        log(f"{chat.external_id}: {len(chat.turns)} turns ingested into store {store_id}")
        to_run.append(store_id)
    if to_run:
        with dagster_instance() as instance:
            # extraction, dedup, pyramid, links and decay: the whole pipeline
            for result in materialize_stores(instance, to_run, every_asset()):
                if not result.success:
                    raise RuntimeError(f"pipeline run {result.run_id} failed")
    return pairs, time.perf_counter() - start


def evaluate(
    db: Database,
    embedder: Embedder,
    path: Path,
    reuse: bool = False,
    log: Callable[[str], None] = print,
    only: Sequence[str] = (),
) -> dict[str, Any]:
    """Score every question with evidence; the headline is categories 1-4, and each
    conversation's own figures are kept too (constants are chosen on some, checked on others)."""
    pairs, pipeline_s = prepare(db, embedder, path, reuse, log, only)
    by_cat: dict[str, list[dict[str, float]]] = defaultdict(list)
    by_conv: dict[str, list[dict[str, float]]] = defaultdict(list)
    multi_hop_by_conv: dict[str, list[dict[str, float]]] = defaultdict(list)
    latencies: list[float] = []
    for store_id, sample in pairs:
        recall = Recall(store_id, db=db, embedder=embedder)
        conv = sample.get("sample_id") or store_id
        with db.connection() as conn:
            known = {
                r["external_id"]
                for r in conn.execute(
                    "SELECT external_id FROM turns WHERE store_id = %s", (store_id,)
                )
            }
        for qa in sample["qa"]:
            gold = evidence_ids(qa.get("evidence", []), known)
            if not gold:
                continue
            t0 = time.perf_counter()
            hits = recall.search(qa["question"], ALL_SCOPES, k=K_MAX)
            latencies.append((time.perf_counter() - t0) * 1000)
            qvec = embedder.embed_one(qa["question"])
            ranked = provenance_turns(db, store_id, hits, qvec)[:K_MAX]
            scored = score_question(ranked, gold)
            by_cat[str(qa["category"])].append(scored)
            if str(qa["category"]) in HEADLINE:
                by_conv[conv].append(scored)
            if str(qa["category"]) == "1":
                multi_hop_by_conv[conv].append(scored)
        log(f"{store_id}: {len(sample['qa'])} questions scored")
    headline = [r for c in HEADLINE for r in by_cat.get(c, [])]
    lat = np.asarray(latencies) if latencies else np.zeros(1)
    return {
        "headline": aggregate(headline),
        "by_category": {c: aggregate(by_cat.get(c, [])) for c in ("1", "2", "3", "4", "5")},
        "by_conversation": {
            conv: {"headline": aggregate(rows), "multi_hop": aggregate(multi_hop_by_conv[conv])}
            for conv, rows in by_conv.items()
        },
        "latency_ms": {
            "p50": round(float(np.percentile(lat, 50)), 2),
            "p95": round(float(np.percentile(lat, 95)), 2),
        },
        "pipeline_seconds": round(pipeline_s, 1),
        "conversations": len(pairs),
    }
