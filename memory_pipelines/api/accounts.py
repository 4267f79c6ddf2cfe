"""Administrator accounts of the console: created on the command line with a password or a
one-time sign-in link, signed in to sessions kept in Postgres, signed out.

A session is a random token in an HttpOnly cookie; the database keeps its SHA-256, the CSRF
token of its forms, and when it ends: after SESSION_IDLE without a request, SESSION_LIFETIME
after sign-in, at sign-out, or when the account is disabled or its password set anew. Only
the newest sign-in link of an account works.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import psycopg

from memory_pipelines.api.access import organisation_of
from memory_pipelines.core import accounts as acc
from memory_pipelines.core.access import Principal
from memory_pipelines.core.records import text_field
from memory_pipelines.errors import MemoryPipelinesError, NotFound, ValidationError
from memory_pipelines.store import accounts as accounts_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Database

LINK_VALID = timedelta(hours=24)
SESSION_LIFETIME = timedelta(days=7)
SESSION_IDLE = timedelta(hours=12)
# Password attempts for one organisation and name typed before each further one locks the pair:
# 1 s, then twice as long each time, LONGEST_LOCK at most (from the sixteenth attempt of a day
# without a right password). A lock stops password guessing, not the owner: a link works.
FREE_FAILURES = 5
LONGEST_LOCK = timedelta(minutes=15)


class TooManyAttempts(MemoryPipelinesError):
    """Too many wrong passwords for this organisation and name: `seconds` until the next try."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"too many wrong passwords; try again in {seconds:.0f} s")
        self.seconds = seconds


@dataclass(frozen=True)
class Session:
    """A signed-in administrator. `token` is the cookie's value (known only at sign-in)."""

    account_id: int
    org_id: str
    name: str
    csrf_token: str
    token: str = ""


def create_admin(
    db: Database, org_id: str, name: str, *, password: str | None = None, created_by: str = ""
) -> tuple[dict[str, Any], str]:
    """A new administrator of `org_id`: (its row, a one-time sign-in link token valid for
    LINK_VALID). With `password` it may also sign in with it (kept as an argon2 hash)."""
    acc.check_name(name)
    created_by = text_field("created_by", created_by, max_len=200, one_line=True)
    hashed = acc.hash_password(password) if password is not None else None
    token = acc.new_token()
    with db.transaction() as conn:
        if not orgs_db.exists(conn, org_id):
            raise ValidationError("organisation", f"{org_id!r} does not exist")
        try:
            with conn.transaction():
                row = accounts_db.insert(conn, org_id, name, hashed, created_by)
        except psycopg.errors.UniqueViolation:
            raise ValidationError(
                "name", f"organisation {org_id!r} already has an administrator {name!r}"
            ) from None
        accounts_db.add_link(conn, row["account_id"], acc.digest(token), LINK_VALID)
    return row, token


def _account(conn: Any, org_id: str, name: str) -> dict[str, Any]:
    row = accounts_db.find(conn, org_id, name)
    if row is None:
        raise NotFound(f"organisation {org_id!r} has no administrator {name!r}")
    return row


def issue_link(db: Database, org_id: str, name: str) -> str:
    """A new one-time sign-in link token for an enabled administrator (a lost password); the
    links issued before it stop working (one printed or sent earlier may be in other hands)."""
    token = acc.new_token()
    with db.transaction() as conn:
        row = _account(conn, org_id, name)
        if row["disabled_at"] is not None:
            raise ValidationError("name", f"administrator {name!r} is disabled")
        accounts_db.void_links(conn, row["account_id"])
        accounts_db.add_link(conn, row["account_id"], acc.digest(token), LINK_VALID)
    return token


def set_password(db: Database, org_id: str, name: str, password: str) -> None:
    """Set an administrator's password; its sessions end and its unused links stop working."""
    hashed = acc.hash_password(password)
    with db.transaction() as conn:
        accounts_db.set_password(conn, _account(conn, org_id, name)["account_id"], hashed)


def disable_admin(db: Database, org_id: str, name: str) -> dict[str, Any]:
    """Disable an administrator: its sessions end and its links stop working at once."""
    with db.transaction() as conn:
        row = _account(conn, org_id, name)
        accounts_db.disable(conn, row["account_id"])
        out = accounts_db.find(conn, org_id, name)
    if out is None:  # _account found it in this transaction
        raise NotFound(f"administrator {name!r} does not exist in organisation {org_id!r}")
    out.pop("password_hash", None)
    return out


def list_admins(db: Database, org_id: str | None = None) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return accounts_db.list_accounts(conn, org_id)


def sign_in(db: Database, org_id: str, name: str, password: str) -> Session | None:
    """A new session when the organisation has an enabled administrator of that name with
    that password; None otherwise (one answer, and the same argon2 work, for every cause).
    TooManyAttempts, before any work, while the organisation and name typed are locked after
    wrong passwords (FREE_FAILURES): counted whether or not they name an account, so a lock
    tells nobody which names exist, and counted before the password is checked, so guesses
    sent at once meet the lock of those before them."""
    pair = acc.digest(f"{org_id}\x00{name}")
    with db.connection() as conn:
        wait = accounts_db.take_attempt(conn, pair, FREE_FAILURES, LONGEST_LOCK)
        row = accounts_db.find(conn, org_id, name) if wait is None and org_id and name else None
    if wait is not None:  # raised outside the block: a pooled connection that saw an error
        raise TooManyAttempts(wait)  # is retired, and a locked guess must cost next to nothing
    usable = row is not None and row["disabled_at"] is None
    stored = row["password_hash"] if row is not None and usable else None
    if not acc.password_matches(password, stored) or row is None:
        return None
    with db.transaction() as conn:
        # the password checked is still the account's (set anew meanwhile: no session)
        now = accounts_db.lock_account(conn, row["account_id"])
        if now is None or now["disabled_at"] is not None or now["password_hash"] != stored:
            return None
        accounts_db.attempt_succeeded(conn, pair)
        return _open(conn, row["account_id"], row["org_id"], row["name"])


def link_usable(db: Database, token: str) -> bool:
    """Whether a sign-in link is still good (shown before it is used, which a POST does)."""
    with db.connection() as conn:
        return accounts_db.link_usable(conn, acc.digest(token))


def sign_in_with_link(db: Database, token: str) -> Session | None:
    """Use a one-time link: a new session, or None when the link is unknown, used, expired or
    its account disabled. The link is used and the session opened in one transaction, the
    account's row held: a password set meanwhile voids the link or ends the session."""
    digest = acc.digest(token)
    with db.transaction() as conn:
        accounts_db.lock_account_of_link(conn, digest)
        row = accounts_db.use_link(conn, digest)
        if row is None:
            return None
        return _open(conn, row["account_id"], row["org_id"], row["name"])


def _open(conn: Any, account_id: int, org_id: str, name: str) -> Session:
    token, csrf = acc.new_token(), acc.new_token()
    accounts_db.open_session(conn, account_id, acc.digest(token), csrf, SESSION_LIFETIME)
    return Session(account_id, org_id, name, csrf, token)


def current(db: Database, token: str | None) -> Session | None:
    """The live session of a cookie's token (its last use moved to now), or None."""
    if not token or len(token) > 100:
        return None
    with db.connection() as conn:
        row = accounts_db.touch_session(conn, acc.digest(token), SESSION_IDLE)
    if row is None:
        return None
    return Session(row["account_id"], row["org_id"], row["name"], row["csrf_token"])


def sign_out(db: Database, token: str) -> None:
    with db.connection() as conn:
        accounts_db.end_session(conn, acc.digest(token))


def principal_of(db: Database, session: Session) -> Principal:
    """The administrator as a principal: every right in its organisation within the ceilings
    of its organisation and those above (core/access.decide_administrator)."""
    with db.connection() as conn:
        chain = orgs_db.chain(conn, session.org_id)
    return Principal(
        org_id=session.org_id,
        policy=(),
        chain=tuple(organisation_of(o) for o in chain),
        account_id=session.account_id,
    )
