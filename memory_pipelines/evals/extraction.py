"""Extraction scored against LoCoMo's `observation` annotations.

Each observation names the turn it comes from (its evidence). An item's evidence turns are its
own provenance plus the turns of every candidate the dedup judge merged into it (a fact said
again is confirmed, not lost). "Says the same thing" is the cosine of the two texts (the
observation and the item's context, both embedded here) >= SAME_THRESHOLD.

coverage: share of observations that some current item with the observation's turn among its
evidence turns says the same thing as.
precision: share of current items that say the same thing as some observation of their evidence
turns (the same test read the other way: an item no observation backs counts against it).

An observation sums up what a speaker told over a few turns of a session and cites one of them:
"Melanie went camping with her family in the mountains last week and had a great time exploring
nature, roasting marshmallows, and hiking" cites her turn on the marshmallows, two turns after the
one where she says she took the family camping in the mountains. So the same two figures are also
given over an item's exchange (`*_exchange`): its evidence turns and the turns just before and
after each of them by the same speaker in the same session (`exchange`). What the item says must
still match. They are reported beside the headline figures, which stay the strict ones the goals
were set on: a wider window also credits vague items.
precision_proxy: share of items whose evidence turns hold any observation, whatever the item
says; a weak proxy (about 40% of LoCoMo turns are some observation's evidence), kept so older
figures can be compared.

The rules were tuned on TUNED only; the other conversations are reported apart (`held_out`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
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
from memory_pipelines.store.db import Conn, Database

SAME_THRESHOLD = 0.5
TUNED = ("conv-26", "conv-30", "conv-41")  # the conversations rules may be fitted on
_COUNTS = (
    "observations",
    "covered",
    "items",
    "items_same",
    "items_on_evidence",
    "covered_strict",
    "items_same_strict",
    "turns",
)


def observations(sample: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for _, by_speaker in sorted(sample.get("observation", {}).items()):
        for facts in by_speaker.values():
            for fact in facts:
                text, evidence = fact[0], fact[1]
                for dia in evidence if isinstance(evidence, list) else [evidence]:
                    out.append((text, str(dia)))
    return out


def _items(conn: Conn, store_id: str) -> list[tuple[str, set[int]]]:
    """(context, evidence turns) of each current item: its provenance and that of every
    candidate merged into it."""
    rows = conn.execute(
        "SELECT i.item_id, i.context, i.from_seq, i.to_seq,"
        "  array_agg(c.payload->>'from_seq') FILTER (WHERE c.candidate_id IS NOT NULL) AS froms,"
        "  array_agg(c.payload->>'to_seq') FILTER (WHERE c.candidate_id IS NOT NULL) AS tos"
        " FROM agent_memory_items i LEFT JOIN extraction_candidates c"
        "   ON c.item_id = i.item_id AND c.outcome = 'merged' AND c.store_id = i.store_id"
        " WHERE i.store_id = %s AND i.state = 'current' GROUP BY i.item_id ORDER BY i.item_id",
        (store_id,),
    ).fetchall()
    out = []
    for r in rows:
        spans = [(r["from_seq"], r["to_seq"])]
        spans += list(zip(r["froms"] or [], r["tos"] or [], strict=True))
        turns = {s for a, z in spans if a is not None for s in range(int(a), int(z) + 1)}
        out.append((r["context"], turns))
    return out


def exchange(turns: set[int], said_by: dict[int, tuple[str, str]]) -> set[int]:
    """The turns plus, for each, the turn before and the turn after said by the same speaker
    in the same session. `said_by`: seq -> (session, speaker)."""
    out = set(turns)
    for seq in turns:
        if seq not in said_by:
            continue
        for step in (-1, 1):
            other = seq + step
            while other in said_by and said_by[other][0] == said_by[seq][0]:
                if said_by[other][1] == said_by[seq][1]:
                    out.add(other)
                    break
                other += step
    return out


def score(
    obs: Sequence[tuple[int, np.ndarray]], items: Sequence[tuple[set[int], np.ndarray]]
) -> dict[str, int]:
    """Counts for one conversation: observations (turn, vector) and items (evidence turns,
    vector), vectors unit length."""
    same = [[float(ov @ iv) >= SAME_THRESHOLD for _, iv in items] for _, ov in obs]
    covered = sum(
        any(ok and seq in turns for ok, (turns, _) in zip(row, items, strict=True))
        for row, (seq, _) in zip(same, obs, strict=True)
    )
    evidence = {seq for seq, _ in obs}
    items_same = sum(
        any(same[oi][ii] and seq in turns for oi, (seq, _) in enumerate(obs))
        for ii, (turns, _) in enumerate(items)
    )
    return {
        "observations": len(obs),
        "covered": covered,
        "items": len(items),
        "items_same": items_same,
        "items_on_evidence": sum(bool(turns & evidence) for turns, _ in items),
    }


def _figures(counts: dict[str, int]) -> dict[str, float]:
    def share(a: str, b: str) -> float:
        return round(counts[a] / counts[b], 4) if counts[b] else 0.0

    return {
        "coverage": share("covered_strict", "observations"),
        "precision": share("items_same_strict", "items"),
        "precision_proxy": share("items_on_evidence", "items"),
        "coverage_exchange": share("covered", "observations"),
        "precision_exchange": share("items_same", "items"),
        "items_per_100_turns": round(100 * counts["items"] / counts["turns"], 2)
        if counts["turns"]
        else 0.0,
    }


def evaluate(
    db: Database,
    models: Models,
    embedder: Embedder,
    path: Path,
    keep: bool = False,
    only: Sequence[str] = (),
) -> dict[str, Any]:
    chats, samples = load_chats(path, "locomo")
    per_conv = []
    groups: dict[str, dict[str, int]] = {
        g: dict.fromkeys(_COUNTS, 0) for g in ("tuned", "held_out")
    }
    start = time.perf_counter()
    for chat, sample in zip(chats, samples, strict=True):
        if only and chat.external_id not in only:
            continue
        store_id = f"eval-extract-{uuid.uuid4().hex[:8]}"
        memory = Memory(store_id, db=db, embedder=embedder, models=models)
        ingest_chats(memory, [chat])
        counts = run_extraction(db, store_id, models, embedder, run_id=f"eval-{store_id}")
        with db.connection() as conn:
            rows = conn.execute(
                "SELECT external_id, seq, speaker FROM turns WHERE store_id = %s", (store_id,)
            ).fetchall()
            items = _items(conn, store_id)
        seq_of = {r["external_id"]: r["seq"] for r in rows}
        said_by = {r["seq"]: (r["external_id"].split(":")[0], r["speaker"]) for r in rows}
        obs = [(t, seq_of[d]) for t, d in observations(sample) if d in seq_of]
        obs_vecs = embedder.embed([t for t, _ in obs])
        item_vecs = embedder.embed([c for c, _ in items]) if items else np.zeros((0, embedder.dim))
        obs_scored = [(seq, v) for (_, seq), v in zip(obs, obs_vecs, strict=True)]
        got = score(
            obs_scored,
            [(exchange(turns, said_by), v) for (_, turns), v in zip(items, item_vecs, strict=True)],
        )
        strict = score(obs_scored, [(t, v) for (_, t), v in zip(items, item_vecs, strict=True)])
        got["covered_strict"] = strict["covered"]
        got["items_same_strict"] = strict["items_same"]
        got["items_on_evidence"] = strict["items_on_evidence"]
        got["turns"] = len(chat.turns)
        group = groups["tuned" if chat.external_id in TUNED else "held_out"]
        for k, v in got.items():
            group[k] += v
        per_conv.append({"conversation": chat.external_id, **got, **_figures(got), "pass": counts})
        if not keep:
            with db.connection() as conn:
                stores_db.drop_store(conn, store_id)
    total = {k: groups["tuned"][k] + groups["held_out"][k] for k in _COUNTS}
    return {
        "conversations": len(per_conv),
        "threshold": SAME_THRESHOLD,
        **_figures(total),
        "tuned": {"conversations": list(TUNED), **_figures(groups["tuned"])},
        "held_out": _figures(groups["held_out"]),
        "seconds": round(time.perf_counter() - start, 1),
        "per_conversation": per_conv,
    }
