"""Writes with an Idempotency-Key: the first successful response is kept per key and replayed
to a retry of the same request (header `Idempotent-Replayed: true`); a different request under
the same Idempotency-Key is a 422, and a retry while the first is still running a 409.

A failed first request keeps nothing, so its retry runs again: a refused write wrote nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from memory_pipelines.api import idempotency as idem
from memory_pipelines.service.security import Guard


def idempotent(
    request: Request,
    guard: Guard,
    idempotency_key: str | None,
    body: BaseModel,
    status: int,
    write: Callable[[], BaseModel],
) -> JSONResponse:
    """Run `write` once per Idempotency-Key (or every time without one)."""
    key_id = guard.principal.key_id
    if idempotency_key is None or key_id is None:
        return JSONResponse(write().model_dump(mode="json"), status_code=status)
    # The parsed body, re-serialised: the same request however its JSON was spaced.
    print_ = idem.fingerprint(request.method, request.url.path, body.model_dump_json().encode())
    replay = idem.begin(guard.db, key_id, idempotency_key, print_)
    if replay is not None:
        return JSONResponse(
            replay.body, status_code=replay.status_code, headers={"Idempotent-Replayed": "true"}
        )
    try:
        data = write().model_dump(mode="json")
    except BaseException:
        idem.release(guard.db, key_id, idempotency_key)
        raise
    idem.finish(guard.db, key_id, idempotency_key, status, data)
    return JSONResponse(data, status_code=status)
