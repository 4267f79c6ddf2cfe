"""Who is at the console, and whether a form really came from it.

The session cookie (HttpOnly, SameSite=Lax, Secure when the request came over https) carries a
random token; the database keeps its hash (api/accounts.py). Every form POST carries a CSRF
token in a hidden field, compared in constant time: the session's token once signed in, and
before that (the sign-in and link forms) the value of a short-lived cookie set with the form
(double submit). SameSite=Lax already keeps a cross-site POST from carrying either cookie; the
token also refuses a form posted from a page of this site that is not the console's.

Lax still sends the cookie when another site links to a page of the console, and every page
audits what it shows under the administrator who opened it: a page opened from another site
(the browser's Sec-Fetch-Site says so) shows only a link to itself, so no other site can make
an administrator's browser read records into the audit.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import Depends, Request, Response

from memory_pipelines.api import accounts
from memory_pipelines.api.accounts import Session
from memory_pipelines.core.access import Principal
from memory_pipelines.core.access import Request as AccessRequest
from memory_pipelines.service.security import database
from memory_pipelines.store.db import Database

SESSION_COOKIE = "mp_console"
SIGNIN_COOKIE = "mp_signin"  # the CSRF token of the forms shown before sign-in
PATH = "/console"
MAX_FIELDS = 250  # a Decay per type card has two fields per type


class SignInRequired(Exception):
    """No live session: answered with a redirect to the sign-in page."""


class OpenedFromAnotherSite(Exception):
    """A page of the console asked for by a link, form or redirect of another site: answered
    with a page that links to it, read and audited only when followed from here."""


# Sec-Fetch-Site of a page the administrator asked for: typed, bookmarked, or linked from the
# console itself. A browser too old to send it sends nothing, and is taken at its word.
FIRST_PARTY = ("same-origin", "none")


class ConsoleError(Exception):
    """Answered with the console's error page."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.title = title
        self.message = message


def csrf_refused() -> ConsoleError:
    return ConsoleError(
        403,
        "This form cannot be accepted",
        "It did not come from this console, or the page was open too long. Reload the page "
        "and send the form again.",
    )


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=PATH,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(request: Request, response: Response, name: str) -> None:
    response.delete_cookie(
        name, path=PATH, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def admin_session(request: Request) -> Session:
    """The signed-in administrator, or SignInRequired; OpenedFromAnotherSite for a page asked
    for from another site (a form posted from one carries no cookie and no token)."""
    site = request.headers.get("sec-fetch-site", "none")
    if request.method in ("GET", "HEAD") and site not in FIRST_PARTY:
        raise OpenedFromAnotherSite
    session = accounts.current(database(request), request.cookies.get(SESSION_COOKIE))
    if session is None:
        raise SignInRequired
    return session


AdminSession = Annotated[Session, Depends(admin_session)]


class MemoryOff(Exception):
    """Memory is off in a ceiling above the administrator: answered with the spec's message
    about Permitted capabilities, naming the organisations whose ceiling has it off."""

    def __init__(self, session: Session, off: list[str]) -> None:
        super().__init__(", ".join(off))
        self.session = session
        self.off = off


@dataclass(frozen=True)
class Admin:
    """A signed-in administrator whose ceilings permit memory, as a principal of the API."""

    session: Session
    principal: Principal
    db: Database

    @property
    def actor(self) -> str:
        """How a change made at the console names who made it (events, versions)."""
        return f"console:{self.session.org_id}/{self.session.name}"


def admin(request: Request, session: AdminSession) -> Admin:
    """The signed-in administrator, or MemoryOff when a ceiling has memory off."""
    db = database(request)
    principal = accounts.principal_of(db, session)
    decision = principal.decide(AccessRequest("read_memory"))
    if not decision.allowed:
        raise MemoryOff(session, [r.who for r in decision.refusals])
    return Admin(session, principal, db)


Administrator = Annotated[Admin, Depends(admin)]


async def posted_form(request: Request) -> dict[str, str]:
    """The fields of a urlencoded form (the first value of each)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise csrf_refused()
    try:
        text = (await request.body()).decode("utf-8")
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        unreadable = ConsoleError(400, "This form cannot be read", "Send it again from the page.")
        raise unreadable from None
    return {k: v[0] for k, v in fields.items()}


def _same(sent: str | None, expected: str | None) -> bool:
    return bool(sent and expected) and hmac.compare_digest(
        (sent or "").encode(), (expected or "").encode()
    )


async def session_form(request: Request, session: AdminSession) -> tuple[Session, dict[str, str]]:
    """A form posted by a signed-in administrator, its CSRF token checked."""
    form = await posted_form(request)
    if not _same(form.get("csrf"), session.csrf_token):
        raise csrf_refused()
    return session, form


async def signin_form(request: Request) -> dict[str, str]:
    """A form posted before sign-in, its token checked against the cookie set with the form."""
    form = await posted_form(request)
    if not _same(form.get("csrf"), request.cookies.get(SIGNIN_COOKIE)):
        raise csrf_refused()
    return form


async def admin_form(request: Request, who: Administrator) -> tuple[Admin, dict[str, str]]:
    """A form posted by a signed-in administrator (memory permitted), its CSRF token checked."""
    form = await posted_form(request)
    if not _same(form.get("csrf"), who.session.csrf_token):
        raise csrf_refused()
    return who, form


SessionForm = Annotated[tuple[Session, dict[str, str]], Depends(session_form)]
AdminForm = Annotated[tuple[Admin, dict[str, str]], Depends(admin_form)]
SigninForm = Annotated[dict[str, str], Depends(signin_form)]
