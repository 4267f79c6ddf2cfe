"""Who is asking and whether they may: a key authenticated, counted against its rate, and
checked against the policy intersection (core/access.py) for one store and person."""

from __future__ import annotations

from typing import Any

from memory_pipelines.core import keys as key_text
from memory_pipelines.core.access import (
    Decision,
    Organisation,
    Principal,
    Request,
    parse_ceiling,
    parse_policy,
)
from memory_pipelines.errors import NotFound, Refused
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Database


def authenticate(db: Database, text: str) -> Principal | None:
    """The key behind an `mp_...` text, or None for a malformed, unknown, expired or revoked
    one (the caller answers each alike). The hash is compared in constant time."""
    key_id = key_text.key_id_of(text)
    row = None
    if key_id is not None:
        with db.connection() as conn:
            row = keys_db.for_auth(conn, key_id)
    stored = bytes(row["secret_sha256"]) if row else None
    if not key_text.matches(text, stored) or row is None or not row["usable"]:
        return None
    return principal_of(row)


def principal_of(row: dict[str, Any]) -> Principal:
    chain = tuple(organisation_of(o) for o in row["chain"] or [])
    return Principal(
        org_id=row["org_id"],
        policy=parse_policy(row["policy"], "key.policy"),
        chain=chain,
        key_id=row["key_id"],
        decay_per_type=tuple(sorted((row.get("decay_per_type") or {}).items())),
        trust_envelope=row.get("trust_envelope"),
    )


def organisation_of(row: dict[str, Any]) -> Organisation:
    return Organisation(
        org_id=row["org_id"],
        ceiling=parse_ceiling(row["ceiling"]),
        policy=parse_policy(row["policy"], f"organisations.{row['org_id']}.policy"),
        parent=row.get("parent_id"),
    )


def take_request(db: Database, principal: Principal) -> float:
    """Count a request against the key's rate limit: 0 when allowed, else the seconds to wait."""
    if principal.key_id is None:
        return 0.0
    with db.connection() as conn:
        return keys_db.take_request(conn, principal.key_id)


def authorize(
    db: Database, principal: Principal, action: str, store: str | None, person: str | None
) -> Decision:
    """Whether the principal may do `action` in `store` (None: across its stores) for `person`
    (None: not narrowed to one). A store of another organisation is NotFound, worded as for a
    store that does not exist: a key learns nothing about other organisations."""
    if store is not None:
        with db.connection() as conn:
            owner = orgs_db.store_owner(conn, store)
        if owner is None or owner != principal.org_id:
            raise NotFound(f"store {store!r} does not exist")
    return principal.decide(Request(action, store, person))


def reachable_stores(db: Database, principal: Principal) -> list[str]:
    """The stores of the principal's organisation it may do anything in."""
    with db.connection() as conn:
        stores = orgs_db.stores_of(conn, principal.org_id)
    return [s for s in stores if principal.reaches(s)]


def require(
    db: Database, principal: Principal, action: str, store: str | None, person: str | None = None
) -> Decision:
    """`authorize`, raising Refused (naming the missing permit and the nearest level that
    refused it) unless the request is allowed."""
    decision = authorize(db, principal, action, store, person)
    if not decision.allowed:
        first = decision.refusals[0]
        raise Refused(
            f"missing permit: {decision.missing} (refused by the {first.level} {first.who!r}:"
            f" {first.reason})"
        )
    return decision
