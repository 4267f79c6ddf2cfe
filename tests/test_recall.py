"""Recall's axes on small hand-built stores: period, graph, drill-down, hydrate, documents,
access counts under concurrency."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from psycopg import sql

from memory_pipelines.api import Memory, Recall
from memory_pipelines.errors import NotFound, ValidationError

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


def test_by_period_merges_items_turns_and_chunks_in_time_order(
    memory: Memory, recall: Recall
) -> None:
    from memory_pipelines.api.pyramid import rollup
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    memory.write_turns(
        "c",
        [
            {
                "text": f"Day {i}: we tested the oven at {200 + i} degrees",
                "created_at": T0 + timedelta(days=i),
            }
            for i in range(10)
        ],
    )
    early = memory.save(
        {
            "category": "fact",
            "context": "The oven runs hot by ten degrees",
            "confidence": 7,
            "valid_from": (T0 + timedelta(days=2)).isoformat(),
        }
    )
    memory.save(
        {
            "category": "fact",
            "context": "The bakery opened in 2019",
            "confidence": 7,
            "valid_from": "2019-03-01",
        }
    )
    rollup(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)), memory.embedder)
    rows = recall.by_period(T0, T0 + timedelta(days=5)).records
    # paged, never cut off: three pages of 3 give back the same rows, then no cursor
    paged, after = [], None
    while True:
        page = recall.by_period(T0, T0 + timedelta(days=5), limit=3, after=after)
        paged += page.records
        after = page.next
        if after is None:
            break
    assert [(r.kind, r.id) for r in paged] == [(r.kind, r.id) for r in rows]
    kinds = [r.kind for r in rows]
    assert kinds.count("turn") == 5 and kinds.count("item") == 1 and kinds.count("chunk") == 1
    assert [r.at for r in rows] == sorted(r.at for r in rows)
    assert any(r.kind == "item" and r.id == early.id for r in rows)
    with pytest.raises(ValidationError, match="end"):
        recall.by_period(T0, T0)


def test_neighbors_walk_links_both_ways_with_names(memory: Memory, recall: Recall) -> None:
    a = memory.save(
        {"category": "decision", "context": "Chose Postgres for the importer", "confidence": 8}
    ).id
    b = memory.save(
        {
            "category": "fact",
            "context": "The importer handles 2M rows a day",
            "confidence": 7,
            "edges": [{"type": "caused_by", "target": a}],
        }
    ).id
    out = recall.neighbors(f"item:{b}")
    assert [(r.direction, r.link_type, r.id, r.name) for r in out] == [
        ("out", "caused_by", a, "Chose Postgres for the importer")
    ]
    back = recall.neighbors(("item", a))
    assert [(r.direction, r.id, r.name) for r in back] == [
        ("back", b, "The importer handles 2M rows a day")
    ]
    with pytest.raises(ValidationError, match="ref"):
        recall.neighbors("item:abc")


def test_drill_down_never_dead_ends(memory: Memory, recall: Recall) -> None:
    from memory_pipelines.api.pyramid import rollup
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    memory.write_turns(
        "c",
        [
            {"text": f"note {i} about the garden shed roof", "trace_ref": f"run-{i}"}
            for i in range(10)
        ],
    )
    rollup(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)), memory.embedder)
    with memory.db.connection() as conn:
        chunk_id = conn.execute(
            "SELECT chunk_id FROM chunks WHERE store_id = %s", (memory.store_id,)
        ).fetchone()["chunk_id"]
    opened = recall.drill_down(f"chunk:{chunk_id}")
    assert [c.kind for c in opened.children] == ["turn"] * 10
    turn = recall.drill_down(("turn", opened.children[3].id))
    assert turn.trace_ref == "run-3"
    with pytest.raises(NotFound):
        recall.drill_down("chunk:999999999")


def test_hydrate_reads_once_and_keeps_order(
    memory: Memory, recall: Recall, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = memory.write_turn("c", "The landlord fixed the boiler on Monday.")
    i = memory.save(
        {"category": "fact", "context": "Boiler was fixed by the landlord", "confidence": 7}
    ).id
    statements: list[str] = []
    real = psycopg.Connection.execute

    def counting(self, query, *args, **kwargs):  # type: ignore[no-untyped-def]
        text = query.as_string(self) if isinstance(query, sql.Composable) else str(query)
        statements.append(text.split()[0].upper())
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", counting)
    records = recall.hydrate([f"item:{i}", ("turn", t.turn_id), "item:999999999"])
    monkeypatch.undo()
    assert statements.count("SELECT") == 1  # one read for every kind
    assert [(r.kind, r.id) for r in records] == [("item", i), ("turn", t.turn_id)]
    assert records[0].context == "Boiler was fixed by the landlord"
    assert "embedding" not in records[0]


def test_documents_and_emails_are_searchable_scopes(memory: Memory, recall: Recall) -> None:
    memory.add_document(
        "handbook",
        "Expenses over 500 euros need the CFO's approval.\n\nTravel is booked through the portal.",
        title="Staff handbook",
    )
    memory.add_document(
        "m-1",
        "Hi, the venue deposit of 800 euros is due on Friday.",
        kind="email",
        title="Venue deposit",
        sender="events@venue.example",
    )
    docs = recall.search("who approves large expenses?", ["basic"], k=3)
    assert docs[0].kind == "document" and "CFO" in docs[0].text
    mails = recall.search("when is the deposit due?", ["email"], k=3)
    assert mails[0].kind == "email" and mails[0].extra["sender"] == "events@venue.example"
    again = memory.add_document("handbook", "Expenses need approval.", title="Staff handbook")
    assert again.passages == 1  # re-adding replaces the earlier version
    with pytest.raises(ValidationError, match="kind"):
        memory.add_document("x", "text", kind="fax")


def test_access_counts_under_concurrent_recalls(memory: Memory, recall: Recall) -> None:
    item = memory.save(
        {"category": "preference", "context": "Takes coffee black, no sugar", "confidence": 8}
    ).id
    recall.search("how does she take her coffee?", ["agent"], k=1)  # warm up

    def worker() -> None:
        for _ in range(5):
            recall.search("coffee preference", ["agent"], k=1)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = memory.get(item)
    assert got.access_count == 31 and got.last_recalled_at is not None
