"""Who is calling and whether they may: the dependencies every route declares.

`caller` authenticates the Bearer key (no key, or an unknown, expired or revoked one, is the
same 401) and counts the request against the key's rate limit (429 with Retry-After). `require`
then checks the policy intersection for the route's action and store: 403 names the missing
permit and the level that refused it.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memory_pipelines.api import access
from memory_pipelines.core.access import Decision, Principal
from memory_pipelines.errors import NotFound
from memory_pipelines.models.embedder import Embedder, get_embedder
from memory_pipelines.service.errors import UNAUTHORIZED, ApiError, Error, RateLimited, forbidden
from memory_pipelines.store.db import Database
from memory_pipelines.store.visibility import Reader

# auto_error=False: a missing or non-Bearer header is answered by us, exactly as a bad key.
_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer mp_...`")


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def embedder(request: Request) -> Embedder:
    """The server's embedder (loaded on first use when the app was made without one)."""
    if request.app.state.embedder is None:
        request.app.state.embedder = get_embedder()
    model: Embedder = request.app.state.embedder
    return model


def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The key making the request, counted against its rate limit."""
    db = database(request)
    store = request.path_params.get("store")
    named = None if store is not None and "\x00" in store else store  # no store has a NUL
    principal, wait = (
        access.admit(db, credentials.credentials, named) if credentials else (None, 0.0)
    )
    if principal is None:
        raise ApiError(
            401, Error(error="unauthorized", message=UNAUTHORIZED), {"WWW-Authenticate": "Bearer"}
        )
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            RateLimited(
                message=f"rate limit of this key spent; retry in {seconds} s", retry_after=seconds
            ),
            {"Retry-After": str(seconds)},
        )
    if store is not None and named is None:
        raise NotFound(f"store {store!r} does not exist")
    return principal


Caller = Annotated[Principal, Depends(caller)]


@dataclass(frozen=True)
class Guard:
    """A route's access check, bound to its caller, action and store; `check(person)` for a
    route whose person comes in the body."""

    db: Database
    principal: Principal
    action: str
    store: str | None

    def check(self, person: str | None, hint: str = "") -> Decision:
        decision = access.authorize(self.db, self.principal, self.action, self.store, person)
        if not decision.allowed:
            raise ApiError(403, forbidden(decision, hint))
        return decision


def require(action: str) -> Callable[..., Guard]:
    """A dependency checking `action` on the path's store for every person (routes that do not
    act for one person: the event feed, settings)."""

    def dependency(request: Request, principal: Caller) -> Guard:
        guard = Guard(database(request), principal, action, request.path_params.get("store"))
        guard.check(None)
        return guard

    return dependency


def guard_for(action: str) -> Callable[..., Awaitable[Guard]]:
    """A dependency giving the route its Guard; the route calls `guard.check(person)` once it
    has read the person from its body. It does no I/O, so it is async: FastAPI runs it on the
    event loop instead of handing it to a worker thread and back (a sync dependency's hop)."""

    async def dependency(request: Request, principal: Caller) -> Guard:
        return Guard(database(request), principal, action, request.path_params.get("store"))

    return dependency


@dataclass(frozen=True)
class Reading:
    """A read route's access check passed, and whose records it may return: `reader` is
    EVERYONE (the key may read every person's) or one person (their records and the shared)."""

    guard: Guard
    reader: Reader

    @property
    def person(self) -> str | None:
        """The person read as, None when reading everyone's (for the audit's filters)."""
        return self.reader if isinstance(self.reader, str) else None


PersonQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        description="read as this person (their records and the shared ones). Default: every "
        "person's when the key may, else the one person the key is limited to",
    ),
]


def read_as(action: str) -> Callable[..., Reading]:
    """A dependency for a read route: the reader the key reads as. A key limited to one person
    reads as that person (shared records and theirs), never everyone's; a key limited to
    several names one with `?person=`."""

    def dependency(request: Request, principal: Caller, person: PersonQuery = None) -> Reading:
        guard = Guard(database(request), principal, action, request.path_params.get("store"))
        readers = access.readers_for(guard.db, principal, action, guard.store, person)
        return Reading(guard, readers[guard.store or ""])

    return dependency
