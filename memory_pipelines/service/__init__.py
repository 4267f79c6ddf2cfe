"""The HTTP API: FastAPI routes over memory_pipelines.api, served by uvicorn."""

from memory_pipelines.service.app import create_app

__all__ = ["create_app"]
