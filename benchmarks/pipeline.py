"""Pipeline benchmark: ingest + extraction + dedup over the six LoCoMo dev conversations, and
what a Dagster run costs beside the work it does.

Prints end-to-end turns/s beside the time to embed the same turns alone, measured in the same
run (goal: end-to-end within 1.5x of embedding alone, by embedding each text once). Then the
extraction job over 12 new turns of a fresh store, run as a launched run is (the job loaded
from its module, its own executor), in this process and in a new one (as the run launcher
starts it: imports and the model included): the run's wall time, the assets' own seconds (the
work) and the rest (the fixed cost); and a rollup sensor tick over stores owing nothing.

    .venv/bin/python benchmarks/pipeline.py [--data FILE] [--runs-only]
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
import subprocess
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
    ap.add_argument(
        "--runs-only", action="store_true", help="only the per-run fixed cost, not the LoCoMo pass"
    )
    args = ap.parse_args()
    if args.runs_only:
        print(json.dumps(run_costs(), indent=2))
        return
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

    print(json.dumps({"runs": run_costs()}, indent=2))


STEPS = ("turn_embeddings", "conversation_windows", "extracted_candidates", "memory_items")
TWELVE = [f"We decided to order {n} new desks for the Porto office, from Ikea." for n in range(12)]
COLD = """
import json, sys, time
t0 = time.perf_counter()
import dagster as dg
from memory_pipelines.pipeline import reconstructable_job
with dg.instance_for_test() as instance:
    instance.add_dynamic_partitions("stores", [sys.argv[1]])
    t1 = time.perf_counter()
    with dg.execute_job(reconstructable_job("extraction"), instance,
                        tags={"dagster/partition": sys.argv[1]}) as result:
        work = sum(float(m.metadata[f"{m.partition}/seconds"].value)
                   for step in ("turn_embeddings", "conversation_windows",
                                "extracted_candidates", "memory_items")
                   for m in result.asset_materializations_for_node(step))
        ok = result.success
print(json.dumps({"ok": ok, "imports_s": t1 - t0, "run_s": time.perf_counter() - t1,
                  "work_s": work, "process_s": time.perf_counter() - t0}))
"""


def _fresh_store(n: int) -> str:
    store_id = f"bench-run-{uuid.uuid4().hex[:8]}"
    Memory(store_id).write_turns("c", [{"text": t} for t in TWELVE[:n]], embed=False)
    return store_id


def run_costs() -> dict:
    """The extraction job over 12 new turns, warm (this process) and cold (a new process), and
    a rollup sensor tick where nothing is owed."""
    import dagster as dg

    from memory_pipelines.defs.pyramid.sensors import rollup_sensor
    from memory_pipelines.pipeline import reconstructable_job
    from memory_pipelines.resources import StoreResource

    out: dict = {}
    store_id = _fresh_store(12)
    cold = subprocess.run(
        [sys.executable, "-c", COLD, store_id], capture_output=True, text=True, check=True
    )
    c = json.loads(cold.stdout.strip().splitlines()[-1])
    out["cold_process_12_turns"] = {
        "process_s": round(c["process_s"], 2),
        "imports_s": round(c["imports_s"], 2),
        "run_s": round(c["run_s"], 2),
        "work_s": round(c["work_s"], 2),
        "fixed_s": round(c["process_s"] - c["work_s"], 2),
        "success": c["ok"],
    }
    with dg.instance_for_test() as instance:
        # The first run of this process loads the model; the next finds it loaded, as every
        # later run of a long-lived worker (a Celery worker, a code server's process) does.
        for label in ("first_run_in_process_12_turns", "next_run_in_process_12_turns"):
            store_id = _fresh_store(12)
            instance.add_dynamic_partitions("stores", [store_id])
            t0 = time.perf_counter()
            with dg.execute_job(
                reconstructable_job("extraction"), instance, tags={"dagster/partition": store_id}
            ) as result:
                wall = time.perf_counter() - t0
                work = sum(
                    float(m.metadata[f"{m.partition}/seconds"].value)
                    for step in STEPS
                    for m in result.asset_materializations_for_node(step)
                )
            out[label] = {
                "run_s": round(wall, 2),
                "work_s": round(work, 2),
                "fixed_s": round(wall - work, 2),
                "success": result.success,
            }
    with dg.instance_for_test() as instance:
        quiet = [_fresh_store(5) for _ in range(20)]  # no complete batch: nothing to roll up
        instance.add_dynamic_partitions("stores", quiet)
        t0 = time.perf_counter()
        tick = rollup_sensor(
            dg.build_sensor_context(instance=instance, resources={"store": StoreResource()})
        )
        out["rollup_tick_20_stores_nothing_owed"] = {
            "tick_ms": round((time.perf_counter() - t0) * 1000, 1),
            "runs": 0 if isinstance(tick, dg.SkipReason) else len(tick),
            "why": getattr(tick, "skip_message", ""),
        }
    cold, first, warm = (
        out["cold_process_12_turns"],
        out["first_run_in_process_12_turns"],
        out["next_run_in_process_12_turns"],
    )
    print(
        f"extraction of 12 new turns: {cold['process_s']}s in a new process (imports"
        f" {cold['imports_s']}s, work {cold['work_s']}s); in this process {first['run_s']}s"
        f" the first time (model load included), {warm['run_s']}s the next (work"
        f" {warm['work_s']}s, fixed {warm['fixed_s']}s); a rollup tick over 20 stores owing"
        f" nothing {out['rollup_tick_20_stores_nothing_owed']['tick_ms']} ms and no run",
        file=sys.stderr,
    )
    return out


if __name__ == "__main__":
    main()
