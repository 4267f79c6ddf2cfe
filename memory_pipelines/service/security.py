"""Who is calling and whether they may: the dependencies every route declares.

`caller` authenticates the Bearer key (no key, or an unknown, expired or revoked one, is the
same 401) and counts the request against the key's rate limit (429 with Retry-After). `require`
then checks the policy intersection for the route's action and store: 403 names the missing
permit and the level that refused it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memory_pipelines.api import access
from memory_pipelines.core.access import Decision, Principal, persons_permitted
from memory_pipelines.service.errors import (
    UNAUTHORIZED,
    ApiError,
    Error,
    Forbidden,
    RateLimited,
    RefusingLevel,
)
from memory_pipelines.store.db import Database
from memory_pipelines.store.visibility import EVERYONE, Reader

# auto_error=False: a missing or non-Bearer header is answered by us, exactly as a bad key.
_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer mp_...`")


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The key making the request, counted against its rate limit."""
    db = database(request)
    principal = access.authenticate(db, credentials.credentials) if credentials else None
    if principal is None:
        raise ApiError(
            401, Error(error="unauthorized", message=UNAUTHORIZED), {"WWW-Authenticate": "Bearer"}
        )
    wait = access.take_request(db, principal)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            RateLimited(
                message=f"rate limit of this key spent; retry in {seconds} s", retry_after=seconds
            ),
            {"Retry-After": str(seconds)},
        )
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

    def check(self, person: str | None) -> Decision:
        decision = access.authorize(self.db, self.principal, self.action, self.store, person)
        if not decision.allowed:
            raise ApiError(403, forbidden(decision))
        return decision


def forbidden(decision: Decision) -> Forbidden:
    if decision.level is None:
        raise ValueError("only a refused decision is forbidden")
    first = decision.refusals[0]
    return Forbidden(
        message=f"missing permit: {decision.missing} (refused by the {first.level} "
        f"{first.who!r}: {first.reason})",
        missing_permit=decision.missing,
        action=decision.request.action,
        level=decision.level,
        refused_by=[
            RefusingLevel(level=r.level, who=r.who, reason=r.reason) for r in decision.refusals
        ],
    )


def require(action: str) -> Callable[..., Guard]:
    """A dependency checking `action` on the path's store for every person (routes that do not
    act for one person: the event feed, settings)."""

    def dependency(request: Request, principal: Caller) -> Guard:
        guard = Guard(database(request), principal, action, request.path_params.get("store"))
        guard.check(None)
        return guard

    return dependency


def guard_for(action: str) -> Callable[..., Guard]:
    """A dependency giving the route its Guard; the route calls `guard.check(person)` once it
    has read the person from its body."""

    def dependency(request: Request, principal: Caller) -> Guard:
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
        if person is not None:
            guard.check(person)
            return Reading(guard, person)
        everyone = access.authorize(guard.db, principal, action, guard.store, None)
        if everyone.allowed:
            return Reading(guard, EVERYONE)
        may = [
            p
            for p in sorted(persons_permitted(principal.policy, action))
            if access.authorize(guard.db, principal, action, guard.store, p).allowed
        ]
        if len(may) == 1:
            return Reading(guard, may[0])
        body = forbidden(everyone)
        if may:
            body.message += f"; this key may read as one of {', '.join(may)}: pass ?person="
        raise ApiError(403, body)

    return dependency
