"""Leave-one-set-out for the learned save policy (core/policy_model.py): for each tuning set in
readings/asof.jsonl, fit on the other sets' as-of readings (and, with --patterns, on the
hand-written tests' patterns, readings/patterns.jsonl, never held out: they are the tests) and
score the left-out set; accuracy pooled over all left-out cases, for a few margins. The turns are
embedded once. Never reads a held-out set (policy_g).

    .venv/bin/python benchmarks/policy_loso.py [--patterns]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks/data/policy"
MARGINS = (0.0, 0.25, 0.5, 1.0, 1.5)


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: Sequence[str] = ()) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument(
        "--patterns",
        action="store_true",
        help="also fit on the tests' patterns (readings/patterns.jsonl)",
    )
    args = ap.parse_args(argv)
    sys.path[0] = str(ROOT)
    from memory_pipelines.core import policy_model
    from memory_pipelines.models.embedder import get_embedder

    asof = _rows(DATA / "readings/asof.jsonl")
    extra = _rows(DATA / "readings/patterns.jsonl") if args.patterns else []
    cases = {}
    for name in dict.fromkeys(r["set"] for r in asof + extra):
        if name.endswith(policy_model.HELD_OUT):
            sys.exit(f"{name} is a held-out set: never read")
        cases.update({(name, c["id"]): c for c in _rows(DATA / f"{name}.jsonl")})
    texts = list(dict.fromkeys(c["turn"]["text"] for c in cases.values()))
    vecs = dict(zip(texts, get_embedder().embed(texts), strict=True))

    def embed(batch: Sequence[str]) -> np.ndarray:
        return np.stack([vecs[t] for t in batch])

    right = dict.fromkeys(MARGINS, 0)
    rules = n = 0
    for held in dict.fromkeys(r["set"] for r in asof):
        train = [r for r in asof if r["set"] != held] + extra
        model = policy_model.fit_policy(train, cases, embed)
        for r in (r for r in asof if r["set"] == held):
            c = cases[(held, r["id"])]
            row = policy_model.feature_row(
                r["save"], r["reason"], r["kinds"], c["turn"]["text"], c["turn"]["role"],
                c.get("recent", []), vecs[c["turn"]["text"]], model.prototypes,
            )  # fmt: skip
            gold = c["label"] == "save"
            n += 1
            rules += r["save"] == gold
            for m in MARGINS:
                policy_model.MARGIN = m
                right[m] += model.decide(row)[0] == gold
    print(f"{'with' if extra else 'without'} patterns ({len(extra)}): n={n} rules {rules / n:.4f}")
    for m in MARGINS:
        print(f"  margin {m}: model {right[m] / n:.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
