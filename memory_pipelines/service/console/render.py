"""Rendering the console's pages: the Jinja2 environment, its filters, the headers every page
carries, and turning the API's refusals into the console's error page.

Pages are rendered on the server with one CSS file shipped in the package: no script, no
network, no build step. Every page is `no-store` and sends no Referer (a sign-in link's token
must not leave in one).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from memory_pipelines.api.access import Refused
from memory_pipelines.api.audit import AuditFailed
from memory_pipelines.core.confidence import as_unit
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.service.console.session import ConsoleError

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self';"
    " form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
}


def when(value: datetime | None) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if value else "Never"


def ago(value: datetime | None, now: datetime | None = None) -> str:
    """How long ago, in the largest whole unit: "just now", "5 minutes ago", "3 days ago";
    a time still to come says "in ..."."""
    if value is None:
        return "Never"
    seconds = ((now or datetime.now(UTC)) - value).total_seconds()
    future, seconds = seconds < 0, abs(seconds)
    if seconds < 60:
        return "just now"
    for unit, size in (("year", 31_536_000), ("day", 86_400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            words = f"{n} {unit}{'s' if n != 1 else ''}"
            return f"in {words}" if future else f"{words} ago"
    return "just now"  # not reached


def unit(stored: int | float | None) -> str:
    """A stored confidence (1-10) as the console shows it, 0-1 with two decimals."""
    return "" if stored is None else f"{as_unit(float(stored)):.2f}"


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


templates.env.filters.update(
    when=when, ago=ago, unit=unit, json=as_json, thousands=lambda n: f"{n:,}"
)


def page(request: Request, template: str, status: int = 200, /, **context: Any) -> HTMLResponse:
    response = templates.TemplateResponse(request, template, context, status_code=status)
    response.headers.update(HEADERS)
    return response


@contextmanager
def shown_or_refused() -> Iterator[None]:
    """The API's errors as the console's error page: a store or record of another organisation
    is not found, worded as one that does not exist; a read that could not be recorded is not
    shown; a refusal names the permit missing; a bad value in the address names its field."""
    try:
        yield
    except NotFound as exc:
        raise ConsoleError(404, "Not found", str(exc)) from exc
    except Refused as exc:
        first = exc.decision.refusals[0]
        message = (
            f"Missing permit: {exc.decision.missing} (refused by the {first.level}"
            f" {first.who}: {first.reason})."
        )
        raise ConsoleError(403, "Not permitted", message) from exc
    except ValidationError as exc:  # an address edited by hand: a filter out of range, ...
        raise ConsoleError(400, "This address cannot be shown", str(exc)) from exc
    except AuditFailed as exc:
        raise ConsoleError(503, "This page cannot be shown now", str(exc)) from exc
