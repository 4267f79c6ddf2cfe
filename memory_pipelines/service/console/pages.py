"""The console's sign-in (password or one-time link) and sign-out, and `install`, which mounts
every segment (Stores, Records, Commitments), the CSS and the error pages on the app."""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_pipelines.api import accounts
from memory_pipelines.core.accounts import new_token
from memory_pipelines.service.console import commitments, records, settings, stores, traces
from memory_pipelines.service.console.render import HERE, page
from memory_pipelines.service.console.session import (
    PATH,
    SESSION_COOKIE,
    SIGNIN_COOKIE,
    ConsoleError,
    MemoryOff,
    OpenedFromAnotherSite,
    SessionForm,
    SigninForm,
    SignInRequired,
    clear_cookie,
    set_cookie,
)
from memory_pipelines.service.security import database
from memory_pipelines.store.db import Database

router = APIRouter(prefix=PATH, include_in_schema=False)
SIGNIN_FORM_SECONDS = 3600


def _form_token(request: Request) -> str:
    """The CSRF token of a form shown before sign-in: the browser's current one (so two open
    tabs both stay good), else a new one."""
    held = request.cookies.get(SIGNIN_COOKIE, "")
    return held if re.fullmatch(r"[A-Za-z0-9_-]{43}", held) else new_token()


def _signin_page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    """The sign-in form, with its CSRF token in a field and in a cookie."""
    token = _form_token(request)
    response = page(request, "signin.html", status, csrf=token, **context)
    set_cookie(request, response, SIGNIN_COOKIE, token, SIGNIN_FORM_SECONDS)
    return response


def _signed_in(request: Request, session: accounts.Session) -> Response:
    response = RedirectResponse(f"{PATH}", status_code=303)
    set_cookie(
        request,
        response,
        SESSION_COOKIE,
        session.token,
        int(accounts.SESSION_LIFETIME.total_seconds()),
    )
    clear_cookie(request, response, SIGNIN_COOKIE)
    return response


def _db(request: Request) -> Database:
    return database(request)


@router.get("/signin")
def signin(request: Request) -> Response:
    if accounts.current(_db(request), request.cookies.get(SESSION_COOKIE)):
        return RedirectResponse(PATH, status_code=303)
    return _signin_page(request)


@router.post("/signin")
def signin_post(request: Request, form: SigninForm) -> Response:
    org, name = form.get("organisation", "").strip(), form.get("name", "").strip()
    try:
        session = accounts.sign_in(_db(request), org, name, form.get("password", ""))
    except accounts.TooManyAttempts as locked:
        wait = max(1, round(locked.seconds))
        response = _signin_page(
            request,
            429,
            organisation=org,
            name=name,
            error=f"Too many wrong passwords for this name: try again in {wait} seconds, or"
            " ask for a sign-in link (memory-pipelines admins link).",
        )
        response.headers["Retry-After"] = str(wait)
        return response
    if session is None:
        return _signin_page(
            request,
            401,
            organisation=org,
            name=name,
            error="The organisation, name or password is not right.",
        )
    return _signed_in(request, session)


@router.get("/link/{token}")
def link(request: Request, token: str) -> Response:
    """A one-time link shows a button: using it takes a POST, so a link previewer or a
    prefetching browser that opens the address does not spend it."""
    if not accounts.link_usable(_db(request), token):
        return page(request, "link.html", 410, usable=False)
    csrf = _form_token(request)
    response = page(request, "link.html", usable=True, csrf=csrf, token=token)
    set_cookie(request, response, SIGNIN_COOKIE, csrf, SIGNIN_FORM_SECONDS)
    return response


@router.post("/link/{token}")
def link_post(request: Request, token: str, form: SigninForm) -> Response:
    session = accounts.sign_in_with_link(_db(request), token)
    if session is None:
        return page(request, "link.html", 410, usable=False)
    return _signed_in(request, session)


@router.post("/signout")
def signout(request: Request, posted: SessionForm) -> Response:
    accounts.sign_out(_db(request), request.cookies.get(SESSION_COOKIE, ""))
    response = RedirectResponse(f"{PATH}/signin", status_code=303)
    clear_cookie(request, response, SESSION_COOKIE)
    return response


class ServerTiming:
    """Every console response says how long the server took to produce it (its headers, which
    go once the page is rendered): `Server-Timing: app;dur=<ms>`, shown by a browser's
    developer tools and read by benchmarks/console.py. Plain ASGI, so streams stay streams."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(PATH):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - start) * 1000
                header = (b"server-timing", f"app;dur={ms:.1f}".encode())
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        await self.app(scope, receive, timed)


def install(app: FastAPI) -> None:
    """Serve the console under /console of `app`: its pages, its CSS, its error pages."""
    for r in (
        router,
        stores.router,
        records.router,
        commitments.router,
        traces.router,
        settings.router,
    ):
        app.include_router(r)
    app.add_middleware(ServerTiming)
    app.mount(f"{PATH}/static", StaticFiles(directory=HERE / "static"), name="console-static")

    @app.exception_handler(SignInRequired)
    async def _sign_in(request: Request, _: SignInRequired) -> Response:
        response = RedirectResponse(f"{PATH}/signin", status_code=303)
        clear_cookie(request, response, SESSION_COOKIE)
        return response

    @app.exception_handler(OpenedFromAnotherSite)
    async def _from_another_site(request: Request, _: OpenedFromAnotherSite) -> Response:
        # the address as sent (still percent-encoded: a chat id "a%41" stays itself)
        path = (request.scope.get("raw_path") or request.url.path.encode()).decode("latin-1")
        query = f"?{request.url.query}" if request.url.query else ""
        return page(request, "another_site.html", address=f"{path}{query}")

    @app.exception_handler(MemoryOff)
    async def _memory_off(request: Request, exc: MemoryOff) -> Response:
        return page(request, "memory_off.html", session=exc.session, off=exc.off)

    @app.exception_handler(ConsoleError)
    async def _error(request: Request, exc: ConsoleError) -> Response:
        return page(request, "error.html", exc.status, title=exc.title, message=exc.message)
