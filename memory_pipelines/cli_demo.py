"""The demo: the main job end to end on the LoCoMo dev conversations."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.recall import Recall
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.store.server import memory_home


def run_demo(data: Path, store: str) -> None:
    start = time.perf_counter()
    click.echo(f"store: {store!r} in {memory_home()} (set MEMORY_PG_DSN for another server)")
    chats, samples = load_chats(data)
    memory = Memory(store)
    total = sum(len(c.turns) for c in chats)
    with click.progressbar(length=total, label="ingest + embed", file=sys.stderr) as bar:
        summary = ingest_chats(memory, chats, progress=bar.update)
    click.echo(summary.line())
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS turns, count(embedding) AS embedded, count(DISTINCT chat_id) AS"
            " chats FROM turns WHERE store_id = %s",
            (store,),
        ).fetchone()
    assert row is not None
    click.echo(
        f"store holds {row['chats']} chats, {row['turns']} turns, {row['embedded']} embedded"
    )
    question = samples[0]["qa"][0]["question"] if samples else "what did we decide?"
    click.echo(f"\nrecall: {question}")
    for h in Recall(store, db=memory.db, embedder=memory.embedder).search(
        question, ["history"], k=5
    ):
        who = h.extra.get("speaker", "")
        when = h.at.date().isoformat() if h.at else ""
        click.echo(
            f"  {h.extra.get('chat', '')} {h.extra.get('external_id', '')} {when}"
            f" {who}: {h.text[:100]}"
        )
    click.echo(f"\ndemo done in {time.perf_counter() - start:.1f}s: {summary.line()}")
