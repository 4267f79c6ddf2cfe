"""The demo: the main job end to end on the LoCoMo dev conversations, through Dagster; and
`run`, the pipeline once over stores of one's own."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.recall import Recall
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.core.home import memory_home
from memory_pipelines.pipeline import dagster_instance, materialize_stores
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import extraction as ex_db
from memory_pipelines.store import item_reads
from memory_pipelines.store import links as links_db
from memory_pipelines.store import turns as turns_db


def run_demo(data: Path, store: str) -> None:
    start = time.perf_counter()
    click.echo(f"store {store!r} in {memory_home()} (set MEMORY_PG_DSN for another server)")
    chats, samples = load_chats(data)
    memory = Memory(store)
    total = sum(len(c.turns) for c in chats)
    with click.progressbar(length=total, label="ingest + embed", file=sys.stderr) as bar:
        summary = ingest_chats(memory, chats, progress=bar.update)
    click.echo(summary.line())
    p = run_pipeline(memory, every=False)
    question = first_question(samples)
    click.echo(f"\nrecall: {question}")
    recall = Recall(store, db=memory.db, embedder=memory.embedder)
    for h in recall.search(question, ["agent", "history"], k=5):
        when = h.at.date().isoformat() if h.at else ""
        click.echo(f"  [{h.kind}] {when} {h.text[:110]}")
    click.echo(
        f"\ndemo done in {time.perf_counter() - start:.1f}s: {summary.line()};"
        f" {p.get('written', 0)} memory items written, {p.get('confirmed', 0)} confirmed."
        f" See it in the Dagster UI: `{_this_command()} dev`"
    )


def _this_command() -> str:
    """How this command was called (`make demo VENV=x` runs x/bin/memory-pipelines)."""
    called = sys.argv[0] if sys.argv and sys.argv[0].endswith("memory-pipelines") else ""
    return called or "memory-pipelines"


def first_question(samples: list) -> str:
    """The file's first LoCoMo question, else a question of our own (a file of turns, or a
    LoCoMo file without `qa`, which ended the demo with an IndexError after the pipeline)."""
    asked = [q["question"] for s in samples for q in s.get("qa") or [] if q.get("question")]
    return asked[0] if asked else "what did we decide?"


def run_pipeline(memory: Memory, every: bool = True) -> dict:
    """Every asset of the store's partition (`every`; else the extraction path, the demo's
    main job), once, through Dagster in this process (the run shows in `memory-pipelines
    dev`); prints the extraction pass and what the store holds, and returns the pass."""
    from memory_pipelines.definitions import every_asset

    store = memory.store_id
    what = "every asset" if every else "embeddings, extraction and dedup"
    click.echo(f"store {store!r}: running the pipeline through Dagster ({what}, once)")
    with dagster_instance() as instance:
        assets = every_asset() if every else None
        [result] = materialize_stores(instance, [store], assets, raise_on_error=False)
        run_id = result.run_id
    if not result.success:
        failed = [e.step_key for e in result.all_events if e.is_step_failure]
        raise click.ClickException(
            f"the pipeline run {run_id} failed at {', '.join(failed) or 'its start'}: its log"
            " is in `memory-pipelines dev` (Runs)"
        )
    with memory.db.connection() as conn:
        p = ex_db.last_pass(conn, store, run_id) or {}
        turns, _ = turns_db.embedding_counts(conn, store)
        states = item_reads.count_by_state(conn, store)
        levels = chunks_db.level_totals(conn, store)
        links = sum(r["n"] for r in links_db.counts_by_type(conn, store))
    click.echo(
        f"extraction pass (run {run_id[:8]}): {p.get('windows_read', 0)} windows read,"
        f" {p.get('candidates', 0)} candidates, {p.get('written', 0)} written,"
        f" {p.get('confirmed', 0)} confirmed, {p.get('superseded', 0)} superseded,"
        f" {p.get('dropped_invalid', 0)} dropped as invalid, {p.get('model_calls', 0)} model calls"
        f" in {p.get('duration_s', 0):.1f}s"
    )
    click.echo(
        f"store {store!r} holds {turns} turns, {states.get('current', 0)} current memory items"
        f" ({states.get('superseded', 0)} superseded), {sum(levels.values())} history"
        f" summaries, {links} links"
    )
    return p
