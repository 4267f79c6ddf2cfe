"""Who is asking and whether they may: a key authenticated, counted against its rate, and
checked against the policy intersection (core/access.py) for one store and person."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from memory_pipelines.core import keys as key_text
from memory_pipelines.core.access import (
    Decision,
    Organisation,
    Principal,
    Request,
    parse_ceiling,
    parse_policy,
    persons_permitted,
)
from memory_pipelines.core.inputs import id_field
from memory_pipelines.errors import MemoryPipelinesError, NotFound
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import EVERYONE, Reader


class Refused(MemoryPipelinesError, PermissionError):
    """The principal may not do this: `decision` names the missing permit and the refusing
    levels; `hint` says what it may do instead (empty when nothing)."""

    def __init__(self, decision: Decision, hint: str = "") -> None:
        super().__init__(decision.missing)
        self.decision = decision
        self.hint = hint


def authenticate(db: Database, text: str) -> Principal | None:
    """The key behind an `mp_...` text, or None for a malformed, unknown, expired or revoked
    one (the caller answers each alike). The hash is compared in constant time."""
    with db.connection() as conn:
        return _authenticate(conn, text)


def admit(db: Database, text: str, store: str | None = None) -> tuple[Principal | None, float]:
    """A request's key: (its principal, 0) when it may go on, (its principal, the seconds to
    wait) when its rate limit is spent, (None, 0) for a key `authenticate` refuses (counted
    against nothing). The check and the count share one connection. `store`: the store the
    request is about, whose ownership is read with the key (Principal.owns), so `authorize`
    need not read it again for this request."""
    with db.connection() as conn:
        principal = _authenticate(conn, text, store)
        if principal is None or principal.key_id is None:
            return principal, 0.0
        return principal, keys_db.take_request(conn, principal.key_id)


def _authenticate(conn: Conn, text: str, store: str | None = None) -> Principal | None:
    key_id = key_text.key_id_of(text)
    row = keys_db.for_auth(conn, key_id, store) if key_id is not None else None
    stored = bytes(row["secret_sha256"]) if row else None
    if not key_text.matches(text, stored) or row is None or not row["usable"]:
        return None
    principal = principal_of(row)
    if store is not None and row["owns_store"]:
        principal = replace(principal, owns=frozenset({store}))
    return principal


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


def authorize(
    db: Database, principal: Principal, action: str, store: str | None, person: str | None
) -> Decision:
    """Whether the principal may do `action` in `store` (None: across its stores) for `person`
    (None: not narrowed to one). A store of another organisation is NotFound, worded as for a
    store that does not exist: a key learns nothing about other organisations."""
    if store is not None:
        own_store(db, principal, store)
    return principal.decide(Request(action, store, person))


def own_store(db: Database, principal: Principal, store: str) -> None:
    """NotFound, worded as for a store that does not exist, unless the store is of the
    principal's organisation. A policy naming no store allows every store id, so this check,
    not the policy, keeps a key out of other organisations' stores."""
    if store in principal.owns:
        return
    with db.connection() as conn:
        owner = orgs_db.store_owner(conn, store)
    if owner is None or owner != principal.org_id:
        raise NotFound(f"store {store!r} does not exist")


def reachable_stores(db: Database, principal: Principal) -> list[str]:
    """The stores of the principal's organisation it may do anything in."""
    with db.connection() as conn:
        stores = orgs_db.stores_of(conn, principal.org_id)
    return [s for s in stores if principal.reaches(s)]


def require(
    db: Database, principal: Principal, action: str, store: str | None, person: str | None = None
) -> Decision:
    """`authorize`, raising Refused (with the decision: the missing permit and the levels
    that refused it) unless the request is allowed."""
    decision = authorize(db, principal, action, store, person)
    if not decision.allowed:
        raise Refused(decision)
    return decision


def readers_for(
    db: Database,
    principal: Principal,
    action: str,
    store: str | None = None,
    person: str | None = None,
    shared_only: bool = False,
) -> dict[str, Reader]:
    """Whose records the principal reads with `action` in each store: {store: reader}, the
    reader being EVERYONE (every person's records) or one person (theirs and the shared), or
    with `shared_only` None (the shared records, for any key that may read in the store).

    `store` None: every store of its organisation it may read in (a store it may only write to
    is left out). `person` reads as that person. Without one, a key limited to one person reads
    as that person, never everyone's; a key limited to several must name one. Refused (with
    the decision) when the key may not read as asked, NotFound for a store of another
    organisation."""
    id_field("person", person, nullable=True)
    if store is not None:
        authorize(db, principal, action, store, None)  # NotFound for another organisation's
    stores = [store] if store is not None else reachable_stores(db, principal)
    out: dict[str, Reader] = {}
    for s in stores:
        if person is not None:
            decision = principal.decide(Request(action, s, person))
            if decision.allowed:
                out[s] = person
            elif store is not None:
                raise Refused(decision)
            continue
        everyone = principal.decide(Request(action, s, None))
        if everyone.allowed:
            out[s] = None if shared_only else EVERYONE
            continue
        may = [
            p
            for p in sorted(persons_permitted(principal.policy, action))
            if principal.decide(Request(action, s, p)).allowed
        ]
        if shared_only and may:
            out[s] = None
        elif len(may) == 1:
            out[s] = may[0]
        elif may:
            raise Refused(everyone, f"this key may read as one of {', '.join(may)}: pass ?person=")
        elif store is not None:
            raise Refused(everyone)
    return out
