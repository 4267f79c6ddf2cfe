"""Every error the HTTP API answers, as typed bodies documented in OpenAPI, and the handlers
that turn exceptions into them. No body carries a key, a secret or a stack trace."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from memory_pipelines.api.access import Refused
from memory_pipelines.api.audit import AuditFailed
from memory_pipelines.api.idempotency import InFlight, Unanswered
from memory_pipelines.core.access import Decision
from memory_pipelines.errors import NotFound, StoreError, ValidationError

log = logging.getLogger("memory_pipelines.service")

UNAUTHORIZED = "a valid API key is required: Authorization: Bearer mp_..."


class Error(BaseModel):
    """Any error: a stable code and a sentence for people."""

    error: str = Field(description="stable code, e.g. unauthorized, not_found, too_large")
    message: str


class FieldError(BaseModel):
    field: str = Field(description="the field, e.g. turns[0].text or Idempotency-Key")
    message: str = Field(description="what is wrong and what is allowed")


class Invalid(Error):
    """422: a field of the request is missing or not allowed; nothing was written."""

    error: Literal["invalid"] = "invalid"
    field: str = Field(description="the first invalid field")
    errors: list[FieldError]


class RefusingLevel(BaseModel):
    level: Literal["key", "organisation", "ceiling"]
    who: str = Field(description="the key id, or the organisation whose policy or ceiling")
    reason: str


class Forbidden(Error):
    """403: the key is valid but may not do this."""

    error: Literal["forbidden"] = "forbidden"
    missing_permit: str = Field(description="the permit that is missing, in words")
    action: str
    level: Literal["key", "organisation", "ceiling"] = Field(
        description="the nearest level that refused: key, then organisation, then ceilings up"
    )
    refused_by: list[RefusingLevel] = Field(description="every level that refused, nearest first")


class RateLimited(Error):
    """429: the key's rate limit is spent; retry after `retry_after` seconds."""

    error: Literal["rate_limited"] = "rate_limited"
    retry_after: int


class ApiError(Exception):
    """An error answered with a typed body (and headers such as Retry-After)."""

    def __init__(self, status: int, body: Error, headers: dict[str, str] | None = None) -> None:
        super().__init__(body.message)
        self.status = status
        self.body = body
        self.headers = headers or {}


def forbidden(decision: Decision, hint: str = "") -> Forbidden:
    """The 403 body of a refused decision: the missing permit and every refusing level."""
    if decision.level is None:
        raise ValueError("only a refused decision is forbidden")
    first = decision.refusals[0]
    return Forbidden(
        message=f"missing permit: {decision.missing} (refused by the {first.level} "
        f"{first.who!r}: {first.reason})" + (f"; {hint}" if hint else ""),
        missing_permit=decision.missing,
        action=decision.request.action,
        level=decision.level,
        refused_by=[
            RefusingLevel(level=r.level, who=r.who, reason=r.reason) for r in decision.refusals
        ],
    )


_DESCRIPTIONS: dict[int, tuple[type[Error], str]] = {
    401: (Error, "No key, or a key that is unknown, expired or revoked (one answer for all)"),
    403: (Forbidden, "The key may not do this: the missing permit and the refusing level"),
    404: (Error, "No such store (or one of another organisation), or no such path"),
    409: (Error, "The first request with this Idempotency-Key is still being served"),
    413: (Error, "The body is larger than the limit; refused before it was parsed"),
    422: (Invalid, "A field is missing or not allowed (named); nothing was written"),
    429: (RateLimited, "The key's rate limit is spent; see Retry-After"),
    503: (Error, "The database cannot serve the request, or the read could not be audited"),
}


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route: the typed body of each error it may answer."""
    return {c: {"model": _DESCRIPTIONS[c][0], "description": _DESCRIPTIONS[c][1]} for c in codes}


def field_name(loc: tuple[Any, ...]) -> str:
    """`("body", "turns", 0, "text")` -> `turns[0].text`; a header keeps its own name."""
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        if len(parts) == 1 or (parts[0] == "body" and isinstance(parts[1], int)):
            return "body"
        parts = parts[1:]
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "body"


def _json(status: int, body: Error, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    """Register the handlers that answer every error with one of the bodies above."""

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return _json(exc.status, exc.body, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            FieldError(field=field_name(tuple(e.get("loc", ()))), message=_message(e))
            for e in exc.errors()
        ]
        first = errors[0] if errors else FieldError(field="body", message="is not valid")
        return _json(
            422,
            Invalid(message=f"{first.field}: {first.message}", field=first.field, errors=errors),
        )

    @app.exception_handler(ValidationError)
    async def _validation(_: Request, exc: ValidationError) -> JSONResponse:
        err = FieldError(field=exc.field, message=exc.message)
        return _json(422, Invalid(message=str(exc), field=exc.field, errors=[err]))

    @app.exception_handler(Refused)
    async def _refused(_: Request, exc: Refused) -> JSONResponse:
        return _json(403, forbidden(exc.decision, exc.hint))

    @app.exception_handler(NotFound)
    async def _not_found(_: Request, exc: NotFound) -> JSONResponse:
        return _json(404, Error(error="not_found", message=str(exc)))

    @app.exception_handler(InFlight)
    async def _in_flight(_: Request, exc: InFlight) -> JSONResponse:
        return _json(409, Error(error="in_flight", message=str(exc)), {"Retry-After": "1"})

    @app.exception_handler(Unanswered)
    async def _unanswered(_: Request, exc: Unanswered) -> JSONResponse:
        return _json(409, Error(error="outcome_unknown", message=str(exc)))

    @app.exception_handler(AuditFailed)
    async def _audit(_: Request, exc: AuditFailed) -> JSONResponse:
        log.error("read refused: %s", exc)
        return _json(503, Error(error="audit_failed", message=str(exc)))

    @app.exception_handler(StoreError)
    async def _store(_: Request, exc: StoreError) -> JSONResponse:
        log.error("store error: %s", exc)
        # a server that is down is started again or comes back (store/server.py): retry soon
        return _json(
            503,
            Error(error="unavailable", message="the database cannot serve this now"),
            {"Retry-After": "5"},
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's answer to a body it cannot decode (not UTF-8): a 422 naming it, as for
            # every other bad field
            err = FieldError(field="body", message="is not valid JSON in UTF-8")
            return _json(
                422, Invalid(message="body: is not valid JSON in UTF-8", field="body", errors=[err])
            )
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "http_error"
        )
        return _json(exc.status_code, Error(error=code, message=str(exc.detail)), exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return _json(500, Error(error="internal", message="an unexpected error; it was logged"))


def _message(err: dict[str, Any]) -> str:
    msg = str(err.get("msg", "is not valid"))
    ctx = err.get("ctx") or {}
    if err.get("type") == "json_invalid" and "error" in ctx:
        return f"is not valid JSON ({ctx['error']})"
    if err.get("type") == "extra_forbidden":
        return "unknown field"
    return msg[0].lower() + msg[1:] if msg else msg
