"""Maintenance benchmark: a synthetic store of 20,000 memory items (people x attributes x values,
plus shared team facts) with 5% planted near-duplicates (light edits of existing items, same
person and category), bulk-loaded with COPY into a fresh store, then one decay pass and one
maintenance pass. Prints JSON and a summary line: items/s, and the duplicates merged against
those planted (precision, recall).

Embeddings are computed once per item set and cached under MEMORY_HOME/bench (a .npy named by a
hash of the texts and the model), so a rerun spends its time on the pass, not on the embedder.

    .venv/bin/python benchmarks/maintenance.py [--items 20000] [--dup-share 0.05] [--seed 7]
        [--contradictions] [--keep]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py (the name issue 13 gives it) would shadow the standard library's `http`,
# which httpx imports: this folder goes after the standard library on sys.path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import hashlib
import json
import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from tqdm import tqdm

from memory_pipelines.api.decay import score_store
from memory_pipelines.api.maintenance import maintain
from memory_pipelines.core.home import memory_home
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import get_embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import get_database

FIRST = "Ana Ben Chloe Dev Elif Farid Greta Hugo Ines Jonas Kemi Liam Maya Noor Oskar Priya "
FIRST += "Quinn Rosa Sami Tomas Uma Vik Wen Yara Zoe Aiden Bea Carlos Dara Emil"
LAST = "Silva Okafor Novak Berg Haddad Kowalski Moreau Tanaka Walsh Costa Lind Romero Adeyemi "
LAST += "Fischer Rossi Nakamura Byrne Duarte Ivanova Khan"
V = {
    "meet": "mornings|late afternoons|video calls|walking meetings|phone calls",
    "updates": "email|Slack|a weekly summary|a short call",
    "drink": "black coffee|green tea|oat flat whites|sparkling water|peppermint tea",
    "review": "short and frequent|done within a day|done in pairs|asynchronous",
    "seat": "window|aisle|exit-row",
    "quiet": "after 6pm|on Fridays|before 9am|at weekends",
    "lunch": "the ramen bar|the canteen|the Lebanese deli|the food trucks|the salad place",
    "city": "Leeds|York|Bristol|Lisbon|Berlin|Dublin|Glasgow|Porto|Utrecht|Lyon",
    "team": "payments|search|mobile|platform|growth|data|billing|identity",
    "lang": "Portuguese|German|Japanese|Spanish|Polish|Arabic|Korean",
    "allergy": "peanuts|shellfish|penicillin|cats|pollen",
    "commute": "bike|train|bus|car|e-scooter",
    "race": "marathon|half-marathon|triathlon|10k race",
    "subject": "physics|history|economics|computer science|law|biology",
    "db": "Postgres|DuckDB|BigQuery|ClickHouse|SQLite",
    "deploy": "Kubernetes|Fly.io|AWS Lambda|a single VM|Cloud Run",
    "day": "Monday|Tuesday|Wednesday|Thursday|Friday",
    "drop": "Python 3.8|Internet Explorer|the v1 API|Windows 7|the old Android app",
    "ui": "Tailwind|Material UI|Chakra|plain CSS modules",
    "risky": "the billing migration|a schema change|the data backfill|a DNS switch",
    "faster": "smaller pull requests|a review checklist|pairing|clear commit messages",
    "flaky": "integration|browser|snapshot|load",
    "skill": "public speaking|SQL|system design|Rust|negotiation",
    "country": "Japan|Iceland|Peru|Canada|Morocco|Vietnam",
    "sport": "tennis|football|chess|the piano|board games|padel",
    "car": "Volvo|Tesla|Fiat|Toyota|VW Golf",
    "pet": "Biscuit|Pepper|Mochi|Rex|Luna|Olive",
    "floor": "2|3|4|5|6|7",
    "year": "2016|2017|2018|2019|2020|2021|2022|2023",
    "codename": "Atlas Borealis Cobalt Drift Ember Fjord Gale Harbor Indigo Juniper Kestrel Lumen "
    "Meridian Nimbus Onyx Prism Quartz Raven Sable Tundra Umber Vega Willow Zephyr",
}
PERSON = [
    ("preference", "{n} prefers {meet} for one-to-one meetings"),
    ("preference", "{n} likes to get status updates by {updates}"),
    ("preference", "{n} drinks {drink} in the morning"),
    ("preference", "{n} wants code reviews to be {review}"),
    ("preference", "{n} prefers {seat} seats when flying"),
    ("preference", "{n} would rather not be contacted {quiet}"),
    ("preference", "{n}'s favourite lunch spot is {lunch}"),
    ("preference", "{n} plays {sport} at the weekend"),
    ("fact", "{n} lives in {city}"),
    ("fact", "{n} works on the {team} team"),
    ("fact", "{n} speaks {lang}"),
    ("fact", "{n} is allergic to {allergy}"),
    ("fact", "{n} commutes by {commute}"),
    ("fact", "{n} joined the company in {year}"),
    ("fact", "{n} has a dog called {pet}"),
    ("fact", "{n} is training for a {race}"),
    ("fact", "{n} studied {subject} at university"),
    ("fact", "{n} drives a {car}"),
    ("fact", "{n}'s desk is on floor {floor}"),
    ("decision", "{n} decided to use {db} for the reporting service"),
    ("decision", "{n} chose {deploy} as the deploy target for the new API"),
    ("decision", "{n} agreed to move the weekly sync to {day}"),
    ("decision", "{n} decided to drop support for {drop}"),
    ("decision", "{n} picked {ui} for the design system"),
    ("lesson", "{n} learnt that {risky} needs a dry run first"),
    ("lesson", "{n} found that {faster} cuts review time"),
    ("lesson", "{n} noted that the {flaky} tests are flaky on CI"),
    ("goal", "{n} wants to get better at {skill}"),
    ("goal", "{n} plans to visit {country} next year"),
]
SHARED = [
    ("fact", "Project {codename} is owned by the {team} team"),
    ("fact", "Project {codename} stores its data in {db}"),
    ("decision", "Project {codename} deploys to {deploy}"),
    ("fact", "The {codename} release train leaves every {day}"),
    ("lesson", "The {codename} service needs a dry run before {risky}"),
]
PER_PERSON = 25
SYNONYMS = [("prefers", "likes"), ("decided to", "chose to"), ("learnt", "learned"),
            ("wants", "would like"), ("lives in", "is based in"), ("plans to", "intends to"),
            ("is allergic to", "has an allergy to"), ("favourite", "favorite")]  # fmt: skip


def _fill(template: str, rng: random.Random) -> str:
    slots = {k: rng.choice(v.split("|") if "|" in v else v.split()) for k, v in V.items()}
    return template.format(**slots, n="{n}")


def _edit(text: str, rng: random.Random) -> str:
    """A light edit that keeps the fact: a synonym, a prefix, a typo, case, a remark."""
    swaps = [(a, b) for a, b in SYNONYMS if a in text]
    kind = rng.choice(["synonym", "prefix", "typo", "case", "remark"] if swaps else ["prefix"])
    if kind == "synonym":
        a, b = rng.choice(swaps)
        return text.replace(a, b, 1)
    if kind == "typo":
        ws = text.split()
        i = max(range(len(ws)), key=lambda k: (len(ws[k]), k))
        w = ws[i]
        ws[i] = w[:2] + w[3] + w[2] + w[4:] if len(w) > 4 else w
        return " ".join(ws)
    if kind == "case":
        return text.lower() + "."
    return rng.choice(["Note: {}", "FYI {}", "{} (mentioned again)", "{}, as confirmed"]).format(
        text
    )


def synthesise(n_items: int, dup_share: float, seed: int) -> list[dict[str, Any]]:
    """Items with a planted-group id: a planted duplicate shares its original's group."""
    rng = random.Random(seed)
    n_dups = round(n_items * dup_share)
    n_base = n_items - n_dups
    # At most PER_PERSON items each, fewer than there are attributes: a person never runs out.
    firsts, lasts = FIRST.split(), LAST.split()
    names = [f"{f} {la}" for la in lasts for f in firsts]
    names += [f"{f} {chr(65 + k % 26)}. {la}" for k in range(n_base // PER_PERSON // len(names) + 1)
              for la in lasts for f in firsts]  # fmt: skip
    rng.shuffle(names)
    base: list[dict[str, Any]] = []
    seen: set[tuple[str | None, str]] = set()
    while len(base) < n_base:
        shared = rng.random() < 0.1
        person = None if shared else names[len(base) // PER_PERSON]
        cat, template = rng.choice(SHARED if shared else PERSON)
        text = _fill(template, rng).replace("{n}", person or "")
        # One value per person (or project) and attribute: no built-in contradictions.
        key = (person, template, text.split()[1] if shared else "")
        if key in seen:
            continue
        seen.add(key)
        base.append({"person": person, "category": cat, "context": text, "group": len(base)})
    dups = [
        {**orig, "context": _edit(orig["context"], rng)}
        for orig in rng.sample(base, n_dups)
    ]  # fmt: skip
    items = base + dups
    rng.shuffle(items)
    for it in items:  # strength varies: source, confidence, confirmations, age
        it["source"] = "user" if rng.random() < 0.7 else "machine"
        it["confidence"] = rng.randint(3, 9)
        it["confirms"] = rng.choice([0, 0, 0, 1, 2])
        it["age_days"] = rng.uniform(0, 400)
        # most records are recalled now and then; the rest are the ones that may fade
        it["recalled_days"] = rng.uniform(0, 120) if rng.random() < 0.6 else None
    return items


def embeddings(texts: list[str], model_name: str) -> np.ndarray:
    """Cached by a hash of the texts: computed once, then read from disk."""
    key = hashlib.sha256("\n".join([model_name, *texts]).encode()).hexdigest()[:16]
    path = memory_home() / "bench" / f"maintenance-{key}.npy"
    if path.exists():
        return np.load(path)
    embedder = get_embedder(model_name)
    batch = 512
    parts = [
        embedder.embed(texts[i : i + batch], batch_size=128)
        for i in tqdm(range(0, len(texts), batch), desc="embedding (cached after)")
    ]
    vecs = np.concatenate(parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vecs)
    return vecs


def load(db: Any, store_id: str, items: list[dict[str, Any]], vecs: np.ndarray) -> list[int]:
    """COPY the items into a fresh store; returns their ids in the order given."""
    now = datetime.now(UTC)
    with db.transaction() as conn:
        stores_db.ensure_store(conn, store_id, "maintenance benchmark")
        persons = sorted({it["person"] for it in items if it["person"]})
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO persons (store_id, person_id) VALUES (%s, %s)",
                [(store_id, p) for p in persons],
            )
        cols = ("store_id, person_id, category, context, confidence, source, origin, trusted,"
                " confirm_count, created_at, updated_at, valid_from, last_recalled_at,"
                " embedding")  # fmt: skip
        with conn.cursor() as cur, cur.copy(f"COPY agent_memory_items ({cols}) FROM STDIN") as cp:
            for it, v in zip(items, vecs, strict=True):
                at = now - timedelta(days=it["age_days"])
                days = it["recalled_days"]
                recalled = None if days is None else max(at, now - timedelta(days=days))
                vec = "[" + ",".join(f"{x:.6f}" for x in v) + "]"
                row = (store_id, it["person"], it["category"], it["context"], it["confidence"],
                       it["source"], "explicit", True, it["confirms"], at, at, at, recalled,
                       vec)  # fmt: skip
                cp.write_row(row)
        rows = conn.execute(
            "SELECT item_id FROM agent_memory_items WHERE store_id = %s ORDER BY item_id",
            (store_id,),
        ).fetchall()
    return [int(r["item_id"]) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=int, default=20_000)
    ap.add_argument("--dup-share", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--model", default="all-MiniLM-L6-v2")
    ap.add_argument("--contradictions", action="store_true", help="also check contradictions")
    ap.add_argument("--keep", action="store_true", help="keep the store afterwards")
    args = ap.parse_args()

    items = synthesise(args.items, args.dup_share, args.seed)
    vecs = embeddings([it["context"] for it in items], args.model)
    db = get_database()
    store_id = f"bench-maint-{uuid.uuid4().hex[:8]}"
    t0 = time.perf_counter()
    ids = load(db, store_id, items, vecs)
    load_s = time.perf_counter() - t0
    group = {i: it["group"] for i, it in zip(ids, items, strict=True)}
    planted = len(items) - len(set(group.values()))
    with db.connection() as conn:
        stores_db.update_settings(
            conn, store_id, {"maintenance": {"check_contradictions": args.contradictions}}
        )
        threshold = stores_db.get_settings(conn, store_id).maintenance.duplicate_threshold
    t0 = time.perf_counter()
    decay = score_store(db, store_id)
    decay_s = time.perf_counter() - t0
    models = Models(LocalBackend(get_embedder(args.model)))
    res = maintain(db, store_id, lambda: models, run_id="bench", log=tqdm.write)
    with db.connection() as conn:
        merged = conn.execute(
            "SELECT item_id, superseded_by FROM agent_memory_items WHERE store_id = %s"
            " AND state = 'superseded'",
            (store_id,),
        ).fetchall()
        if not args.keep:
            stores_db.drop_store(conn, store_id)
    right = sum(group[r["item_id"]] == group[r["superseded_by"]] for r in merged)
    precision = right / len(merged) if merged else 1.0
    recall = right / planted if planted else 1.0
    out = {
        "items": len(items),
        "planted_duplicates": planted,
        "duplicate_threshold": threshold,
        "load_s": round(load_s, 2),
        "decay_s": round(decay_s, 2),
        "below_archive_threshold": decay["below_archive_threshold"],
        "maintenance": res,
        "items_per_s": round(res["items_scanned"] / res["seconds"], 1),
        "merged": len(merged),
        "merged_right": right,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "store": store_id if args.keep else None,
    }
    print(json.dumps(out, indent=2, default=str))
    print(
        f"maintenance over {len(items)} items in {res['seconds']:.2f}s = {out['items_per_s']}"
        f" items/s; merged {len(merged)} duplicates ({right} of {planted} planted): precision"
        f" {precision:.1%}, recall {recall:.1%}; archived {res['archived']},"
        f" contested {res['contested']}"
    )


if __name__ == "__main__":
    main()
