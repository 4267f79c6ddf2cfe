"""What a client is told when the database cannot serve a request."""

from __future__ import annotations

from fastapi.testclient import TestClient

from memory_pipelines.errors import StoreError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service import create_app
from memory_pipelines.store.db import Database


def test_a_database_that_cannot_serve_is_a_503_to_retry(db: Database, embedder: Embedder) -> None:
    """The 503 said nothing of when to come back (an operations audit); a server that is down
    is started again, or comes back, within seconds. The handler the app installs, on a route
    of the test's own that fails as a store does."""
    app = create_app(db, embedder=embedder)

    def down() -> None:
        raise StoreError("cannot connect to Postgres at 127.0.0.1:1")

    app.add_api_route("/down", down)
    with TestClient(app) as client:
        res = client.get("/down")
    assert res.status_code == 503 and res.headers["Retry-After"] == "5"
    assert res.json()["error"] == "unavailable" and "127.0.0.1" not in res.text
