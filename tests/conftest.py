"""Session fixtures: one real Postgres (embedded, or MEMORY_PG_DSN) and one loaded model per
test run; a fresh store per test."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.models.embedder import FAST_AFTER, Embedder, get_embedder
from memory_pipelines.store.db import Database, get_database

# The HTTP API tests' server and client fixtures (a real uvicorn on loopback).
pytest_plugins = ("tests.api_server", "tests.browser")

REPO = Path(__file__).resolve().parent.parent
LOCOMO = REPO / "benchmarks/data/locomo/locomo_dev.json"


@pytest.fixture(scope="session")
def pg_dsn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """MEMORY_PG_DSN when set, else a throwaway embedded server stopped at the end."""
    if os.environ.get("MEMORY_PG_DSN"):
        yield os.environ["MEMORY_PG_DSN"]
        return
    import pgserver

    data = tmp_path_factory.mktemp("pg")
    server = pgserver.get_server(data, cleanup_mode="stop")
    dsn = str(server.get_uri())
    os.environ["MEMORY_PG_DSN"] = dsn
    try:
        yield dsn
    finally:
        get_database(dsn).close()
        os.environ.pop("MEMORY_PG_DSN", None)
        server.cleanup()


@pytest.fixture(scope="session")
def db(pg_dsn: str) -> Database:
    return get_database(pg_dsn)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The process's embedder as a server has it after its first few searches and writes:
    questions on the int8 pass, a few texts on ONNX Runtime. So every test sees the same
    vectors whatever ran before it."""
    embedder = get_embedder()
    for _ in range(FAST_AFTER + 1):
        embedder.embed_query("warm up")
        embedder.embed_one("warm up")
    return embedder


@pytest.fixture
def store_id() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def memory(db: Database, embedder: Embedder, store_id: str) -> Memory:
    return Memory(store_id, db=db, embedder=embedder)


@pytest.fixture
def recall(db: Database, embedder: Embedder, memory: Memory) -> Recall:
    return Recall(memory.store_id, db=db, embedder=embedder)
