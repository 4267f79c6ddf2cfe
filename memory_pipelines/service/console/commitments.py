"""Memory > Commitments: what was promised, to whom and by when, across the organisation's
stores; filtered on Status and Overdue only, every filter in the address. Read-only."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from memory_pipelines.api import commitments as commitments_api
from memory_pipelines.core.vocabulary import COMMITMENT_STATUSES
from memory_pipelines.service.console.render import page, shown_or_refused
from memory_pipelines.service.console.session import PATH, Administrator, ConsoleError

router = APIRouter(prefix=PATH, include_in_schema=False)
ENDPOINT = "GET /console/commitments"


def _page_number(text: str) -> int:
    if not text:
        return 1
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise ConsoleError(400, "This address cannot be shown", "page must be a number 1-100000")
    return int(text)


@router.get("/commitments")
def commitments(request: Request, who: Administrator) -> Response:
    """Commitments, the one due soonest first, a hundred a page; audited with the ids shown."""
    q = request.query_params
    status = q.get("status", "")
    if status and status not in COMMITMENT_STATUSES:
        allowed = ", ".join(COMMITMENT_STATUSES)
        raise ConsoleError(
            400, "This address cannot be shown", f"status must be one of {allowed}, got {status!r}"
        )
    overdue = q.get("overdue", "") in ("1", "on", "true")
    number = _page_number(q.get("page", ""))
    kept = {k: v for k, v in (("status", status), ("overdue", "1" if overdue else "")) if v}

    def params(n: int) -> list[tuple[str, str]]:
        return [*kept.items(), *([("page", str(n))] if n > 1 else [])]

    def url(n: int) -> str:
        text = urlencode(params(n))
        return f"{PATH}/commitments" + (f"?{text}" if text else "")

    # the short address of these filters (a form also sends its empty fields)
    if parse_qsl(request.url.query, keep_blank_values=True) != params(number):
        return RedirectResponse(url(number), status_code=303)
    size = commitments_api.PAGE_SIZE
    with shown_or_refused():
        result = commitments_api.organisation_commitments(
            who.db,
            who.principal,
            status=status or None,
            overdue=overdue,
            offset=(number - 1) * size,
            endpoint=ENDPOINT,
        )
    shown = len(result.rows)
    return page(
        request,
        "commitments.html",
        session=who.session,
        segment="commitments",
        rows=result.rows,
        total=result.total,
        first=result.offset + 1,
        last=result.offset + shown,
        prev_url=url(number - 1) if number > 1 else "",
        next_url=url(number + 1) if result.offset + shown < result.total else "",
        status=status,
        overdue=overdue,
        filtered=bool(kept),
        statuses=COMMITMENT_STATUSES,
    )
