"""Memory > Records: placeholder until the records layer lands."""

from __future__ import annotations

from fastapi import APIRouter

from memory_pipelines.service.console.session import PATH

router = APIRouter(prefix=PATH, include_in_schema=False)
