"""The floor under the HTTP API: the same calls as benchmarks/http.py's in-process side, served by
a bare FastAPI app under uvicorn with the service's options, and nothing of ours around them (no
key check, rate count, audit, middleware or response models). benchmarks/http.py starts it beside
`memory-pipelines serve` and measures both: the bare app's latency less the in-process one is what
the framework and loopback cost on this machine; the service's less the bare app's is ours.

    python benchmarks/http_bare.py --store STORE --port PORT   (MEMORY_PG_DSN: the database)
"""

from __future__ import annotations

import os
import sys

# This folder holds benchmarks/http.py, named like the standard library's `http`, which uvicorn
# imports: put the script's own folder (first on sys.path when run as a script) after it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
from typing import Any

import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel

from memory_pipelines.api import Memory, Recall
from memory_pipelines.models.embedder import get_embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import get_database


class SearchIn(BaseModel):
    query: str
    scopes: list[str]
    k: int = 10


class SaveIn(BaseModel):
    category: str
    context: str
    confidence: int


def create_bare_app(store: str) -> FastAPI:
    db = get_database()
    embedder = get_embedder()
    recall = Recall(store, db=db, embedder=embedder)
    memory = Memory(store, db=db, embedder=embedder)
    app = FastAPI()

    @app.post("/search")
    def search(body: SearchIn) -> list[dict[str, Any]]:
        hits = recall.search(body.query, body.scopes, k=body.k)
        return [h.model_dump(mode="json") for h in hits]

    @app.post("/records")
    def save(body: SaveIn) -> dict[str, Any]:
        return memory.save(body.model_dump()).model_dump(mode="json")

    @app.get("/stores")
    def stores() -> list[dict[str, Any]]:
        with db.connection() as conn:
            return [dict(r) for r in stores_db.overviews(conn, [store])]

    return app


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--store", required=True)
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    # the options `memory-pipelines serve` runs uvicorn with (service/serve.py)
    uvicorn.run(
        create_bare_app(args.store),
        host="127.0.0.1",
        port=args.port,
        proxy_headers=False,
        server_header=False,
    )


if __name__ == "__main__":
    main()
