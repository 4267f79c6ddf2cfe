"""Settings > Permitted capabilities: the organisation's own ceiling (set by the organisation
above it, or the operator) and the ceiling of each organisation directly below it, which its
administrators turn on and off here (memory-console.md: "The administrator of the organisation
above turns it on under Permitted capabilities on Settings"). Open to an administrator whose
own memory is off: this is where the one above turns it on."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from memory_pipelines.api import organisations as orgs_api
from memory_pipelines.core.access import CAPABILITIES
from memory_pipelines.errors import ValidationError
from memory_pipelines.service.console.render import page, shown_or_refused
from memory_pipelines.service.console.session import PATH, AdminSession, SessionForm
from memory_pipelines.service.security import database

router = APIRouter(prefix=PATH, include_in_schema=False)


def _page(
    request: Request,
    session: Any,
    status: int = 200,
    *,
    posted: tuple[str, list[str], str] | None = None,
) -> Response:
    """The Settings page; `posted`: a child's form sent back with its error (child, the
    capabilities as ticked, the message)."""
    with shown_or_refused():
        caps = orgs_api.permitted_capabilities(database(request), session.org_id)
    ticked = {c["org_id"]: c["ceiling"] for c in caps["children"]}
    errors: dict[str, str] = {}
    if posted is not None:
        child, sent, message = posted
        ticked[child] = sent
        errors[child] = message
    return page(
        request,
        "settings.html",
        status,
        session=session,
        segment="settings",
        caps=caps,
        ticked=ticked,
        errors=errors,
        capabilities=CAPABILITIES,
        saved=request.query_params.get("saved", ""),
    )


@router.get("/settings")
def settings(request: Request, session: AdminSession) -> Response:
    """Permitted capabilities: this organisation's and those directly below it."""
    return _page(request, session)


@router.post("/settings/capabilities/{child}")
def save_capabilities(request: Request, child: str, posted: SessionForm) -> Response:
    """Set the ceiling of an organisation directly below: only what is ticked is permitted.
    A ceiling beyond this organisation's own, or memory without knowledge, is shown beside the
    form, and nothing is saved."""
    session, form = posted
    sent = [c for c in CAPABILITIES if form.get(c) == "on"]
    with shown_or_refused():  # another organisation's, or none: not found
        try:
            orgs_api.set_child_ceiling(database(request), session.org_id, child, sent)
        except ValidationError as exc:
            return _page(request, session, 422, posted=(child, sent, exc.message))
    return RedirectResponse(
        f"{PATH}/settings?saved={quote(child, safe='')}#org-{quote(child, safe='')}",
        status_code=303,
    )
