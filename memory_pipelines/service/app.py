"""The app factory: `create_app()` for uvicorn, deployments and tests."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI

from memory_pipelines.api.maintenance import repair_text_indexes
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service import console, errors
from memory_pipelines.service.limits import DEFAULT_MAX_BODY, BodyLimit
from memory_pipelines.service.routes import (
    axes,
    feed,
    persons,
    recall,
    records,
    settings,
    stores,
    turns,
)
from memory_pipelines.store.db import Database, get_database

API_VERSION = "1"
FEED_FOLLOWERS = 64  # feed reads blocked at once per process (each holds a connection)
log = logging.getLogger("memory_pipelines.service")


def _check_text_indexes(db: Database) -> Future[list[str]]:
    """Rebuild the BM25 indexes whose document count drifted (api.maintenance), beside the
    service: the count pg_textsearch 1.0 lost shows after a server restart, which is when a
    service is started, and maintenance may be a day away. A daemon thread: a stop never waits
    for a rebuild (Postgres cancels it; the next check drops what it left). The future holds
    the names rebuilt."""
    done: Future[list[str]] = Future()

    def run() -> None:
        try:
            done.set_result(repair_text_indexes(db, log.info))
        except Exception as exc:  # the service runs on; word ranking stays as it was
            log.warning("checking the BM25 indexes failed: %s", exc)
            done.set_exception(exc)

    threading.Thread(target=run, name="text-indexes", daemon=True).start()
    return done


def create_app(
    db: Database | None = None,
    *,
    embedder: Embedder | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY,
    feed_heartbeat: float = 15.0,
    dagster_url: str | None = None,
) -> FastAPI:
    """The HTTP API over a store database (default: MEMORY_PG_DSN or the embedded server).

    `embedder` is loaded on the first write when not given. `feed_heartbeat`: seconds between
    keep-alive comments on an idle event feed. `dagster_url`: the Dagster UI the console's
    Open collection and Open pipeline go to (default: MEMORY_DAGSTER_URL; neither set, the
    console links no Dagster UI: it shows every organisation's stores and runs, and asks
    nobody to sign in, so an operator links it only where administrators may see them all)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.feed_limiter = anyio.CapacityLimiter(FEED_FOLLOWERS)
        app.state.text_indexes = _check_text_indexes(app.state.db)
        yield

    app = FastAPI(
        title="memory_pipelines",
        version=API_VERSION,
        description="Long-term memory for AI agents. Every call needs an API key "
        "(`Authorization: Bearer mp_...`); every read is recorded in the read audit.",
        lifespan=lifespan,
        # An address with a stray slash (a record id "%2F") is no route: a 404, never a 307
        # redirect that a client would follow with its key to another address.
        redirect_slashes=False,
    )
    app.state.db = db or get_database()
    app.state.embedder = embedder
    app.state.feed_heartbeat = feed_heartbeat
    app.state.dagster_url = dagster_url or os.environ.get("MEMORY_DAGSTER_URL") or None
    errors.install(app)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    for router in (
        stores.router,
        settings.router,
        persons.router,
        records.router,
        recall.router,
        axes.router,
        turns.router,
        feed.router,
    ):
        app.include_router(router)
    console.install(app)
    return app
