"""A store deleted while writers write to it (found by a bad-input audit): HTTP writers got
500s, and a Memory made before the delete raised psycopg's ForeignKeyViolation. Now a write
that meets the store gone is NotFound (404 over HTTP), and nothing of it is left."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.api.stores import delete_store
from memory_pipelines.errors import NotFound
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import tenant

TABLES = ("chats", "turns", "agent_memory_items", "persons")


def _left(db: Database, store: str) -> dict[str, int]:
    with db.connection() as conn:
        return {
            table: conn.execute(
                f"SELECT count(*) AS n FROM {table} WHERE store_id = %s",  # noqa: S608
                (store,),
            ).fetchone()["n"]
            for table in TABLES
        }


def test_a_write_to_a_store_deleted_since_is_not_found(db: Database, embedder: Embedder) -> None:
    t = tenant(db)
    m = Memory(t.store, db=db, embedder=embedder)
    m.configure(extraction={"enabled": False})
    m.write_turn("c1", "first")
    delete_store(db, t.store, actor="ops")
    with pytest.raises(NotFound, match="deleted while this was written"):
        m.write_turn("c2", "after the store went")
    assert set(_left(db, t.store).values()) == {0}


def test_http_writes_racing_a_store_delete_are_answered_not_found(
    db: Database, api_url: str
) -> None:
    t = tenant(db, rate_per_minute=1_000_000, rate_burst=1_000_000)
    Memory(t.store, db=db).configure(extraction={"enabled": False})
    stop = threading.Event()
    codes: list[tuple[int, str]] = []

    def writer(i: int) -> None:
        with httpx.Client(base_url=api_url, timeout=60, headers=t.auth()) as c:
            n = 0
            while not stop.is_set():
                n += 1
                if n % 3 == 0:
                    body = {"chat": f"c{i}-{n}", "turns": [{"text": "We ship Friday."}]}
                    r = c.post(f"/v1/stores/{t.store}/turns", json=body)
                elif n % 3 == 1:
                    body = {"category": "fact", "context": f"Dock {i}-{n} holds the oranges."}
                    r = c.post(f"/v1/stores/{t.store}/records", json=body)
                else:
                    r = c.put(f"/v1/stores/{t.store}/persons/p{i}-{n}", json={})
                codes.append((r.status_code, r.text[:200]))

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(writer, i) for i in range(4)]
        time.sleep(1.5)
        delete_store(db, t.store, actor="ops")
        time.sleep(1.0)
        stop.set()
        for f in futures:
            f.result()
    assert not [c for c in codes if c[0] >= 500], codes[:3]
    assert {c for c, _ in codes} <= {200, 201, 404}
    assert 404 in {c for c, _ in codes}
    assert set(_left(db, t.store).values()) == {0}
