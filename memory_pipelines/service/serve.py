"""`memory-pipelines serve`: the HTTP API under uvicorn."""

from __future__ import annotations

import uvicorn

from memory_pipelines.service.app import create_app


def serve(host: str, port: int, workers: int = 1) -> None:
    """Serve until interrupted. Plain HTTP: put TLS in front (see README, "HTTP API").

    `workers` > 1 runs that many server processes on the one port (uvicorn's supervisor), each
    with its own embedder and connection pool: Python runs one request's code at a time per
    process, so on a machine with several cores one process per core serves more. Everything
    two requests must agree on (keys, rate limits, idempotency, the audit) lives in Postgres,
    so which process answers makes no difference."""
    if workers == 1:
        uvicorn.run(create_app(), host=host, port=port, proxy_headers=False, server_header=False)
        return
    uvicorn.run(
        "memory_pipelines.service.app:create_app",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        proxy_headers=False,
        server_header=False,
    )
