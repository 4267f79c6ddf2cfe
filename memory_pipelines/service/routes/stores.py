"""GET /v1/stores: the stores the key may use."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from memory_pipelines.api import stores as stores_api
from memory_pipelines.service.errors import documented
from memory_pipelines.service.models import StoreList, StoreOut, answer
from memory_pipelines.service.security import Caller, database

router = APIRouter(tags=["stores"])


@router.get("/v1/stores", response_model=StoreList, responses=documented(401, 429, 503))
def list_stores(request: Request, principal: Caller) -> Response:
    """The organisation's stores this key may do anything in, with whether extraction and
    maintenance are on and when maintenance last ran. The listing is audited."""
    rows = stores_api.list_stores(database(request), principal, "GET /v1/stores")
    return answer(StoreList(stores=[StoreOut(**r) for r in rows]))
