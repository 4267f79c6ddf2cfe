"""Writes with an Idempotency-Key: the first successful response is kept per key and replayed
to a retry of the same request (header `Idempotent-Replayed: true`); a different request under
the same Idempotency-Key is a 422, and a retry while the first is still running a 409.

A failed first request keeps nothing, so its retry runs again: a refused write wrote nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

from fastapi import Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from memory_pipelines.api import idempotency as idem
from memory_pipelines.service.security import Guard

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="Send the same key with a retry: the first response is replayed, nothing "
        "is written twice (kept 24 hours).",
    ),
]
Status = int | Callable[[BaseModel], int]


def idempotent(
    request: Request,
    guard: Guard,
    idempotency_key: str | None,
    body: BaseModel | None,
    status: Status,
    write: Callable[[], BaseModel],
) -> JSONResponse:
    """Run `write` once per Idempotency-Key (or every time without one); `status` is the
    answer's status, or a function of the result giving it."""
    key_id = guard.principal.key_id

    def run() -> tuple[int, dict]:
        result = write()
        code = status(result) if callable(status) else status
        return code, result.model_dump(mode="json")

    if idempotency_key is None or key_id is None:
        code, data = run()
        return JSONResponse(data, status_code=code)
    # The parsed body, re-serialised: the same request however its JSON was spaced. As ASCII
    # JSON: a lone surrogate (which the write then refuses, 422) cannot be encoded as UTF-8.
    try:
        sent = (
            json.dumps(body.model_dump(mode="json"), ensure_ascii=True).encode()
            if body is not None
            else b""
        )
    except ValueError:
        # nested past what pydantic serialises (hundreds of levels): never a body the write
        # takes (metadata nests 10 deep at most), so the write refuses it, naming the field
        code, data = run()
        return JSONResponse(data, status_code=code)
    # The query string is part of the request: `?person=` says whom a delete or a close is
    # for, and the same Idempotency-Key with another person is another request, not a retry.
    target = f"{request.url.path}?{request.url.query}" if request.url.query else request.url.path
    print_ = idem.fingerprint(request.method, target, sent)
    replay = idem.begin(guard.db, key_id, idempotency_key, print_, guard.store)
    if replay is not None:
        return JSONResponse(
            replay.body, status_code=replay.status_code, headers={"Idempotent-Replayed": "true"}
        )
    try:
        with idem.served(guard.db, key_id, idempotency_key):
            code, data = run()
    except BaseException:
        idem.release(guard.db, key_id, idempotency_key)
        raise
    idem.finish(guard.db, key_id, idempotency_key, code, data)
    return JSONResponse(data, status_code=code)
