"""A real uvicorn server on loopback for the HTTP API tests, and organisations, stores and keys
made for one test."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import uvicorn

from memory_pipelines.api.keys import create_key
from memory_pipelines.api.organisations import assign_store, create_organisation
from memory_pipelines.core.access import ACTIONS
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service import create_app
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

MAX_BODY = 64_000
SERVED: dict[str, Any] = {}  # the session server's app by its URL (a test may set its state)
ALL = [{"effect": "permit", "actions": list(ACTIONS)}]


def only_person(store: str, person: str) -> list[dict[str, Any]]:
    """A key policy permitting every action in one store, for one person only."""
    return [{"effect": "permit", "actions": list(ACTIONS), "stores": [store], "persons": [person]}]


@pytest.fixture(scope="session")
def api_url(db: Database, embedder: Embedder) -> Iterator[str]:
    """One server for the whole run, on a free loopback port, stopped at the end."""
    app = create_app(db, embedder=embedder, max_body_bytes=MAX_BODY, feed_heartbeat=0.3)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    SERVED[f"http://127.0.0.1:{port}"] = app
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        SERVED.clear()
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture
def client(api_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api_url, timeout=30) as c:
        yield c


@dataclass
class Tenant:
    """An organisation with one store and one key, made for one test."""

    org: str
    store: str
    key: str
    key_id: str

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key}"}


def new_org(
    db: Database,
    *,
    parent: str | None = None,
    ceiling: Any = ("knowledge", "memory"),
    policy: Any = ALL,
) -> str:
    org = f"o-{uuid.uuid4().hex[:10]}"
    create_organisation(db, org, parent=parent, ceiling=list(ceiling), policy=policy)
    return org


def new_store(db: Database, org: str) -> str:
    store = f"t-{uuid.uuid4().hex[:12]}"
    with db.connection() as conn:
        stores_db.ensure_store(conn, store)
    assign_store(db, store, org)
    return store


def new_key(db: Database, org: str, policy: Any = ALL, **options: Any) -> tuple[str, str]:
    row, text = create_key(db, org, policy=policy, created_by="test", **options)
    return row["key_id"], text


def tenant(db: Database, *, key_policy: Any = ALL, org_policy: Any = ALL, **options: Any) -> Tenant:
    org = new_org(db, policy=org_policy)
    store = new_store(db, org)
    key_id, key = new_key(db, org, key_policy, **options)
    return Tenant(org, store, key, key_id)
