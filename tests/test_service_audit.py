"""The read audit through the HTTP API: a row with the exact record ids in the reading
transaction, no read when the row cannot be written, append-only; and the event feed as
server-sent events that resume from the last event id."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import psycopg
import pytest

from memory_pipelines.api.audit import readers, reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import Tenant, tenant

FEED = "GET /v1/stores/{store}/events"


def _save(memory: Memory, text: str) -> int:
    res = memory.save({"category": "fact", "context": text, "confidence": 8}, written_by="test")
    assert res.saved, res
    return int(res.id)


def _events(res: httpx.Response) -> list[dict[str, Any]]:
    """The events of an SSE body, each with the id line checked against its data."""
    out = []
    for block in res.text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if "data" in lines:
            event = json.loads(lines["data"])
            assert int(lines["id"]) == event["event_id"]
            out.append(event)
    return out


@pytest.fixture
def filled(db: Database, embedder: Embedder) -> tuple[Tenant, Memory, list[int]]:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    ids = [
        _save(memory, "Ana prefers the window seat on long flights."),
        _save(memory, "The team decided to ship the beta on a Friday."),
    ]
    return t, memory, ids


def test_feed_read_is_audited_with_exact_ids(
    db: Database, client: httpx.Client, filled: tuple[Tenant, Memory, list[int]]
) -> None:
    t, _, ids = filled
    res = client.get(f"/v1/stores/{t.store}/events", params={"follow": "false"}, headers=t.auth())
    assert res.status_code == 200, res.text
    assert res.headers["content-type"].startswith("text/event-stream")
    events = _events(res)
    assert [e["item_id"] for e in events] == ids
    assert [e["kind"] for e in events] == ["create", "create"]

    [row] = reads_by_key(db, t.key_id)
    assert row["endpoint"] == FEED and row["store_id"] == t.store
    assert row["record_ids"] == ids
    assert row["filters"]["after"] == 0
    assert row["filters"]["events"] == [events[0]["event_id"], events[-1]["event_id"]]
    # who read record N, when
    who = readers(db, ids[1])
    assert [(r["key_id"], r["endpoint"]) for r in who] == [(t.key_id, FEED)]
    assert t.key not in json.dumps(row, default=str)


def test_feed_resumes_after_the_last_event_id(
    db: Database, client: httpx.Client, filled: tuple[Tenant, Memory, list[int]]
) -> None:
    t, memory, ids = filled
    url = f"/v1/stores/{t.store}/events"
    first = _events(client.get(url, params={"follow": "false"}, headers=t.auth()))
    third = _save(memory, "Ben owes Ana the slides by Monday.")
    headers = {**t.auth(), "Last-Event-ID": str(first[-1]["event_id"])}
    resumed = _events(client.get(url, params={"follow": "false"}, headers=headers))
    assert [e["item_id"] for e in resumed] == [third]
    by_query = _events(
        client.get(url, params={"follow": "false", "after": first[0]["event_id"]}, headers=t.auth())
    )
    assert [e["item_id"] for e in by_query] == [ids[1], third]
    # each read audited with exactly what it returned
    assert [r["record_ids"] for r in reads_by_key(db, t.key_id)] == [[ids[1], third], [third], ids]
    bad = client.get(url, headers={**t.auth(), "Last-Event-ID": "abc"})
    assert bad.status_code == 422 and bad.json()["field"] == "Last-Event-ID"


def test_followed_feed_delivers_new_events(
    db: Database, client: httpx.Client, filled: tuple[Tenant, Memory, list[int]]
) -> None:
    t, memory, ids = filled
    got: list[dict[str, Any]] = []
    saved: list[int] = []
    writer = threading.Thread(
        target=lambda: saved.append(_save(memory, "Cleo moved to Lisbon in May."))
    )

    with client.stream("GET", f"/v1/stores/{t.store}/events", headers=t.auth()) as res:
        assert res.status_code == 200
        buffer = ""
        for chunk in res.iter_text():
            buffer += chunk
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                data = [ln[6:] for ln in block.splitlines() if ln.startswith("data: ")]
                if data:
                    got.append(json.loads(data[0]))
                if len(got) == len(ids) and writer.ident is None:
                    writer.start()  # written while the stream follows, after the backlog
            if len(got) == len(ids) + 1:
                break
    writer.join()
    assert [e["item_id"] for e in got] == ids + saved


def test_read_fails_when_its_audit_row_cannot_be_written(
    db: Database, client: httpx.Client, filled: tuple[Tenant, Memory, list[int]]
) -> None:
    t, _, _ = filled
    fn = f"refuse_{t.store.replace('-', '_')}"
    with db.connection() as conn:
        conn.execute(
            f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF NEW.key_id = '{t.key_id}' THEN RAISE EXCEPTION 'audit refused'; END IF;"
            f" RETURN NEW; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER {fn} BEFORE INSERT ON read_audit FOR EACH ROW EXECUTE FUNCTION {fn}()"
        )
    try:
        feed = client.get(
            f"/v1/stores/{t.store}/events", params={"follow": "false"}, headers=t.auth()
        )
        stores = client.get("/v1/stores", headers=t.auth())
    finally:
        with db.connection() as conn:
            conn.execute(f"DROP TRIGGER {fn} ON read_audit")
            conn.execute(f"DROP FUNCTION {fn}()")
    for res in (feed, stores):
        assert res.status_code == 503, res.text
        assert res.json()["error"] == "audit_failed"
        assert "item_id" not in res.text
    assert reads_by_key(db, t.key_id) == []
    # with the audit writable again the same read is served (and recorded)
    ok = client.get(f"/v1/stores/{t.store}/events", params={"follow": "false"}, headers=t.auth())
    assert ok.status_code == 200 and len(_events(ok)) == 2
    assert len(reads_by_key(db, t.key_id)) == 1


def test_audit_is_append_only(
    db: Database, client: httpx.Client, filled: tuple[Tenant, Memory, list[int]]
) -> None:
    t, _, _ = filled
    assert client.get("/v1/stores", headers=t.auth()).status_code == 200
    [row] = reads_by_key(db, t.key_id)
    for sql in (
        "UPDATE read_audit SET record_ids = '{}' WHERE audit_id = %s",
        "DELETE FROM read_audit WHERE audit_id = %s",
        "TRUNCATE read_audit",
    ):
        with (
            db.connection() as conn,
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
        ):
            conn.execute(sql, (row["audit_id"],) if "%s" in sql else None)
    assert reads_by_key(db, t.key_id) == [row]
    # dropping the store leaves its audit
    from memory_pipelines.store import stores as stores_db

    with db.connection() as conn:
        stores_db.drop_store(conn, t.store)
    assert reads_by_key(db, t.key_id) == [row]
