"""linkgen@v1: typed links for new or changed memory items, and the link graph's summary.

Plain functions over the store, shared by the Dagster asset and any other caller. Items are
read in batches; each batch's links, progress marks and model calls are one transaction, so a
run killed half-way leaves whole batches, and the next run reads the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from memory_pipelines.core.links import (
    LinkNode,
    LinkProposal,
    check_proposals,
    graph_stats,
    oriented,
    out_of_vocabulary,
)
from memory_pipelines.core.vocabulary import LINK_TYPES
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.store import items as items_db
from memory_pipelines.store import links as links_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Database

BATCH = 32
NEIGHBOURS = 6  # per search list; at most 3x this many candidates are shown per item
Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def link_pending(
    db: Database,
    store_id: str,
    models: Models,
    run_id: str = "",
    log: Log = _quiet,
    k: int = NEIGHBOURS,
) -> dict[str, Any]:
    """Propose and store links for every current item whose present version linkgen has not
    read (or whose turns a new level-1 chunk covers). Proposals outside the vocabulary, or aimed
    at a candidate not shown, are dropped and counted; an unusable answer is counted and its
    item is not asked again until it changes. Returns the counts, `created` by link type."""
    with db.connection() as conn:
        pending = links_db.pending_items(conn, store_id)
    counts: dict[str, Any] = {
        "items_read": 0,
        "proposals": 0,
        "proposals_dropped": 0,
        "answers_invalid": 0,
        "model_calls": 0,
    }
    created: Counter[str] = Counter()
    for start in range(0, len(pending), BATCH):
        with db.connection() as conn:
            read_at = links_db.now(conn)
            # the chunks over the items' turns before their candidates: a chunk seen here is
            # among the candidates, one committed after is offered next run
            seen = links_db.covering_chunks(conn, store_id, pending[start : start + BATCH])
            work = [
                (src, row, links_db.candidates(conn, store_id, src, row["person_id"], k))
                for src, row in links_db.load_nodes(
                    conn, store_id, "item", pending[start : start + BATCH]
                )
            ]
        # The model is asked outside any transaction: a slow answer holds no lock.
        chosen: list[tuple[LinkNode, LinkNode, LinkProposal]] = []
        for src, _, cands in work:
            try:
                raw = models.propose_links(src, cands)
            except Invalid as exc:
                counts["answers_invalid"] += 1
                log(f"item {src.id}: link answer dropped as invalid ({exc})")
                continue
            kept, dropped = check_proposals(raw, len(cands))
            for why in dropped:
                log(f"item {src.id}: link proposal dropped: {why}")
            counts["proposals"] += len(kept)
            counts["proposals_dropped"] += len(dropped)
            chosen += [(src, cands[p.target], p) for p in kept]
        calls = models.drain()
        with db.transaction() as conn:
            ends = [n.id for s, c, _ in chosen for n in (s, c) if n.kind == "item"]
            items_db.lock_persons_of(conn, store_id, ends)  # before their rows, as every writer
            alive = links_db.lock_items(conn, store_id, ends)
            for src, dst, p in chosen:
                if any(n.kind == "item" and n.id not in alive for n in (src, dst)):
                    continue  # deleted while the model was thinking
                (sk, sid), (dk, did) = oriented((src.kind, src.id), (dst.kind, dst.id), p.type)
                new = links_db.add_link(
                    conn,
                    store_id,
                    sk,
                    sid,
                    dk,
                    did,
                    p.type,
                    confidence=float(p.confidence),
                    model=models.backend.model,
                    run_id=run_id,
                )
                if new:
                    created[p.type] += 1
            links_db.mark_read(
                conn,
                store_id,
                [(s.id, r["updated_at"]) for s, r, _ in work],
                read_at,
                run_id,
                seen,
            )
            record_calls(conn, store_id, calls, run_id)
        counts["items_read"] += len(work)
        counts["model_calls"] += len(calls)
        log(f"store {store_id}: read {counts['items_read']}/{len(pending)} items")
    counts["created"] = {t: created[t] for t in LINK_TYPES if created[t]}
    log(
        f"store {store_id}: {sum(created.values())} links created from {counts['items_read']}"
        f" items, {counts['proposals_dropped']} proposals dropped"
    )
    return counts


def graph_summary(db: Database, store_id: str) -> dict[str, Any]:
    """The store's links: totals by type, the graph's shape, and types outside the vocabulary."""
    with db.connection() as conn:
        by_type = links_db.counts_by_type(conn, store_id)
        edges = links_db.edges(conn, store_id)
    return {
        "total": {r["link_type"]: int(r["n"]) for r in by_type},
        "out_of_vocabulary": out_of_vocabulary(by_type),
        **graph_stats(edges),
    }
