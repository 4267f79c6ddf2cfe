"""`memory-pipelines serve`: the HTTP API under uvicorn."""

from __future__ import annotations

import uvicorn

from memory_pipelines.service.app import create_app


def serve(host: str, port: int) -> None:
    """Serve until interrupted. Plain HTTP: put TLS in front (see README, "HTTP API")."""
    uvicorn.run(create_app(), host=host, port=port, proxy_headers=False, server_header=False)
