"""Recall.search at LoCoMo size, one or two code trees in one process.

Every LoCoMo dev question is searched on its own conversation's store (all scopes, k=10, the
query embedding included), the stores `eval locomo` built in MEMORY_HOME. With two trees
(`--tree A --tree B`: two checkouts of this project, e.g. a git worktree of the commit before
a change and one of the change) both are imported into this process side by side, each with
its own pool, embedder and modules, and they alternate per question (which one goes first
alternates too), so both see the same load of a shared machine. It prints each tree's p50 and
p95 over the measured questions, after `--warm` others, and then searches every question of
the six conversations with each tree and says whether all got the same hits in the same order
with the same scores and fields.

`--profile` (one tree) times the steps of each measured search instead: pool checkouts, the
store's card and speakers, the query embedding, the reads beside it (entity names, word
counts), the candidates' statements, ranking in Python, the hits' texts, redaction and the
recall count; p50 and mean per step.

    MEMORY_HOME=DIR .venv/bin/python benchmarks/search_ab.py --tree OLD --tree NEW
        [--questions 300] [--warm 100] [--rounds 1] [--no-check]
    MEMORY_HOME=DIR .venv/bin/python benchmarks/search_ab.py --tree NEW --profile

Build the stores first: MEMORY_HOME=DIR memory-pipelines eval locomo.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py would shadow the standard library's `http`: this folder goes last.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import functools
import importlib
import json
import random
import re
import threading
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data/locomo/locomo_dev.json"
K = 10
PACKAGE = "memory_pipelines"


class Tree:
    """One checkout's package imported on its own: its modules are put back in sys.modules
    before each of its calls (a function-level import then finds its own tree's module)."""

    def __init__(self, path: Path) -> None:
        self.path = path.resolve()
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        sys.path.insert(0, str(self.path))
        try:
            recall = importlib.import_module(f"{PACKAGE}.api.recall")
            importlib.import_module(f"{PACKAGE}.models.onnx_single")
            importlib.import_module(f"{PACKAGE}.evals.locomo")
        finally:
            sys.path.remove(str(self.path))
        self.modules = {
            n: m for n, m in sys.modules.items() if n == PACKAGE or n.startswith(PACKAGE + ".")
        }
        where = Path(str(self.modules[PACKAGE].__file__)).resolve()
        if not where.is_relative_to(self.path):
            raise SystemExit(f"{PACKAGE} came from {where}, not from {self.path}")
        self.use()
        self.db = self.mod("store.db").get_database()
        self.embedder = self.mod("models.embedder").get_embedder()
        self.all_scopes = recall.ALL_SCOPES
        self._recalls: dict[str, Any] = {}
        self._recall_cls = recall.Recall

    def mod(self, name: str) -> ModuleType:
        return self.modules[f"{PACKAGE}.{name}"]

    def use(self) -> None:
        sys.modules.update(self.modules)

    def search(self, store_id: str, question: str) -> list[Any]:
        recall = self._recalls.get(store_id)
        if recall is None:
            recall = self._recall_cls(store_id, db=self.db, embedder=self.embedder)
            self._recalls[store_id] = recall
        return list(recall.search(question, self.all_scopes, k=K))


def questions(tree: Tree) -> list[tuple[str, str, str]]:
    """(store, question, category) for every LoCoMo dev question, in file order."""
    samples = json.loads(DATA.read_text(encoding="utf-8"))
    store_of = tree.mod("evals.locomo")._store_id
    out = []
    for s in samples:
        for qa in s["qa"]:
            out.append((store_of(s["sample_id"]), qa["question"], str(qa.get("category"))))
    return out


def pct(xs: list[float], p: float) -> float:
    return round(float(np.percentile(xs, p)), 2) if xs else float("nan")


def timed_ab(
    trees: list[Tree],
    qs: list[tuple[str, str, str]],
    warm: int,
    n: int,
    rounds: int,
    pattern: str | None = None,
) -> dict[int, list[float]]:
    """Per tree, the latencies (ms) of the measured questions (those matching `pattern`, a
    regular expression, when given)."""
    pool = [q for q in qs if q[2] in ("1", "2", "3", "4")]
    random.Random(11).shuffle(pool)
    warm_qs, measured = pool[n : n + warm], pool[:n]
    if pattern:
        measured = [q for q in pool if re.search(pattern, q[1], re.IGNORECASE)][:n]
    for store, q, _ in warm_qs:
        for t in trees:
            t.use()
            t.search(store, q)
    out: dict[int, list[float]] = defaultdict(list)
    turn = 0
    for _ in range(rounds):
        for store, q, _ in measured:
            order = list(range(len(trees)))
            if turn % 2:
                order.reverse()
            turn += 1
            for i in order:
                trees[i].use()
                t0 = time.perf_counter()
                trees[i].search(store, q)
                out[i].append((time.perf_counter() - t0) * 1000)
    return out


class _Frozen(datetime):
    """datetime whose now() is one fixed instant: an item's score counts its age (recency),
    so two searches a moment apart differ in the last digits of some scores."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return datetime(2026, 12, 1, 12, tzinfo=UTC).astimezone(tz)


def same_hits(trees: list[Tree], qs: list[tuple[str, str, str]]) -> tuple[int, list[str]]:
    """Every question searched by each tree at one frozen `now`: how many, and those whose
    hits differ."""
    for t in trees:
        t.mod("api.recall").datetime = _Frozen  # type: ignore[attr-defined]
    differ = []
    for store, q, _ in qs:
        got = []
        for t in trees:
            t.use()
            got.append([h.model_dump() for h in t.search(store, q)])
        if any(g != got[0] for g in got[1:]):
            differ.append(f"{store}: {q}\n    {got[0]}\n    {got[1]}")
    return len(qs), differ


# The steps of a search a profile times: (module, attribute, label). A step's time on a thread
# beside the caller's (the reads while the query is embedded, the other kinds' statements) is
# shown apart, "(beside)": it overlaps the caller's.
STEPS = (
    ("store.db", "Database._checkout", "pool checkout"),
    ("store.stores", "get_card", "search card"),
    ("store.entities", "speakers_among", "speakers among"),
    ("store.entities", "entity_names", "entity names"),
    ("store.search", "words", "counts and BM25 index"),
    ("models.embedder", "Embedder.embed_query", "query embedding"),
    ("api.recall", "rank_candidates", "candidates and ranking"),
    ("store.search", "candidates", "  candidates (all kinds)"),
    ("store.search", "_statements", "  candidates' statements"),
    ("core.ranking", "rank", "  ranking in Python"),
    ("store.hit_texts", "fetch_texts", "hits' texts"),
    ("api.recall", "_redact_hits", "redaction"),
    ("store.item_reads", "touch_items", "recall count"),
)


def profile(tree: Tree, qs: list[tuple[str, str, str]], warm: int, n: int) -> None:
    spent: dict[str, float] = defaultdict(float)
    main_thread = threading.main_thread()

    def timer(label: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def run(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                mine = threading.current_thread() is main_thread
                spent[label if mine else f"{label} (beside)"] += (time.perf_counter() - t0) * 1000

        return run

    for mod, attr, label in STEPS:
        owner: Any = tree.mod(mod)
        *path, name = attr.split(".")
        for p in path:
            owner = getattr(owner, p)
        setattr(owner, name, timer(label, getattr(owner, name)))
    # the pool's check of each connection it hands out (a round trip)
    tree.db.pool._check = timer("  pool's check of a connection", tree.db.pool._check)
    pool = [q for q in qs if q[2] in ("1", "2", "3", "4")]
    random.Random(11).shuffle(pool)
    tree.use()
    for store, q, _ in pool[n : n + warm]:
        tree.search(store, q)
    per: dict[str, list[float]] = defaultdict(list)
    for store, q, _ in pool[:n]:
        spent.clear()
        t0 = time.perf_counter()
        tree.search(store, q)
        total = (time.perf_counter() - t0) * 1000
        per["whole search"].append(total)
        for label in spent:
            per.setdefault(label, [])
        for label in per:
            if label != "whole search":
                per[label].append(spent.get(label, 0.0))
        main = sum(v for k, v in spent.items() if "beside" not in k and not k.startswith("  "))
        per["rest (waits, Python)"].append(total - main)
    print(f"{'step':44} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for label, xs in per.items():
        xs = xs + [0.0] * (n - len(xs))  # a step first seen after some questions
        print(f"{label:44} {pct(xs, 50):8.2f} {pct(xs, 95):8.2f} {float(np.mean(xs)):8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tree", type=Path, action="append", required=True)
    ap.add_argument("--questions", type=int, default=300, help="measured (categories 1-4)")
    ap.add_argument("--warm", type=int, default=100, help="searched first, not measured")
    ap.add_argument("--rounds", type=int, default=1, help="passes over the measured questions")
    ap.add_argument("--profile", action="store_true", help="time the steps (first tree)")
    ap.add_argument("--no-check", action="store_true", help="skip the same-hits check")
    ap.add_argument("--pattern", help="measure only questions matching this regular expression")
    args = ap.parse_args()
    if not os.environ.get("MEMORY_HOME") and not os.environ.get("MEMORY_PG_DSN"):
        raise SystemExit("set MEMORY_HOME to the folder where `eval locomo` built the stores")
    trees = [Tree(p) for p in args.tree]
    qs = questions(trees[0])
    if args.profile:
        profile(trees[0], qs, args.warm, args.questions)
        return
    lat = timed_ab(trees, qs, args.warm, args.questions, args.rounds, args.pattern)
    for i, t in enumerate(trees):
        xs = lat[i]
        print(f"tree {i} {t.path}: p50 {pct(xs, 50)} ms, p95 {pct(xs, 95)} ms (n={len(xs)})")
    if len(trees) > 1 and not args.no_check:
        n, differ = same_hits(trees, qs)
        print(f"same hits, field for field: {n - len(differ)} of {n} questions")
        for d in differ[:20]:
            print(f"  differ: {d}")


if __name__ == "__main__":
    main()
