"""POST /v1/stores/{store}/turns: append turns to a conversation."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from memory_pipelines.api import writes
from memory_pipelines.service.errors import documented
from memory_pipelines.service.idempotent import IdempotencyKey, idempotent
from memory_pipelines.service.models import TurnsIn, TurnsWritten
from memory_pipelines.service.security import Guard, embedder, guard_for

router = APIRouter(tags=["turns"])


@router.post(
    "/v1/stores/{store}/turns",
    status_code=201,
    response_model=TurnsWritten,
    responses=documented(401, 403, 404, 409, 413, 422, 429, 503),
)
def write_turns(
    store: str,
    body: TurnsIn,
    request: Request,
    guard: Annotated[Guard, Depends(guard_for("write_memory"))],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Append turns to a conversation (created on first use), in order, in one transaction;
    each is embedded as it is written. A turn whose external_id the chat holds is skipped."""
    guard.check(body.person, writes.shared_hint("a conversation", body.person))

    def write() -> TurnsWritten:
        rows = writes.write_turns(
            guard.db,
            embedder(request),
            guard.principal,
            store,
            body.chat,
            [t.model_dump() for t in body.turns],
            body.person,
        )
        return TurnsWritten(chat=body.chat, turns=rows)

    return idempotent(request, guard, idempotency_key, body, 201, write)
