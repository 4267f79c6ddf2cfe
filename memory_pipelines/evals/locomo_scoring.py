"""LoCoMo retrieval scoring: evidence ids repaired, recall@k, all-evidence hit, MRR, and
session-level recall@10 (the figure others publish: a question is hit when any of its top 10
turns lies in a session that holds some of its evidence)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

KS = (5, 10, 20, 50)


def evidence_ids(evidence: Iterable[Any], known: set[str]) -> list[str]:
    """Split multi-id strings, repair 'D:11:26' and 'D30:05', drop ids matching no turn."""
    out: list[str] = []
    for raw in evidence:
        for part in re.split(r"[;\s]+", str(raw)):
            m = re.fullmatch(r"D:?(\d+):0*(\d+)", part.strip())
            if not m:
                continue
            dia = f"D{int(m.group(1))}:{int(m.group(2))}"
            if dia in known and dia not in out:
                out.append(dia)
    return out


def session_of(dia_id: str) -> str:
    """'D3:12' -> 'D3': a LoCoMo turn id names its session before the colon."""
    return dia_id.split(":", 1)[0]


def score_question(ranked: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    """recall@k, all@10, session-level recall@10 and reciprocal rank of one question's ranked
    turn ids."""
    gold_set = set(gold)
    out: dict[str, float] = {}
    for k in KS:
        out[f"recall@{k}"] = len(gold_set & set(ranked[:k])) / len(gold_set)
    out["all@10"] = float(gold_set <= set(ranked[:10]))
    gold_sessions = {session_of(g) for g in gold}
    out["session_recall@10"] = float(any(session_of(t) in gold_sessions for t in ranked[:10]))
    first = next((i for i, t in enumerate(ranked, start=1) if t in gold_set), None)
    out["mrr"] = 1.0 / first if first else 0.0
    return out


def aggregate(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {"n": 0}
    keys = [f"recall@{k}" for k in KS] + ["all@10", "session_recall@10", "mrr"]
    agg: dict[str, float] = {"n": len(rows)}
    for key in keys:
        agg[key] = round(sum(r[key] for r in rows) / len(rows), 4)
    return agg
