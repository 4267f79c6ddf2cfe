"""Administrator accounts, their one-time sign-in links and their sessions (013_console.sql)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from psycopg import sql

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one

_PUBLIC = sql.SQL(
    "account_id, org_id, name, password_hash IS NOT NULL AS has_password, created_at,"
    " created_by, disabled_at"
)


def insert(
    conn: Conn, org_id: str, name: str, password_hash: str | None, created_by: str
) -> dict[str, Any]:
    row = conn.execute(
        sql.SQL(
            "INSERT INTO admin_accounts (org_id, name, password_hash, created_by)"
            " VALUES (%s, %s, %s, %s) RETURNING {}"
        ).format(_PUBLIC),
        (org_id, name, password_hash, created_by),
    ).fetchone()
    return one(row, "inserting an account")


def find(conn: Conn, org_id: str, name: str) -> dict[str, Any] | None:
    """The account with its password hash (for sign-in and the CLI)."""
    return conn.execute(
        sql.SQL(
            "SELECT {}, password_hash FROM admin_accounts WHERE org_id = %s AND name = %s"
        ).format(_PUBLIC),
        (org_id, name),
    ).fetchone()


def list_accounts(conn: Conn, org_id: str | None) -> list[dict[str, Any]]:
    return conn.execute(
        sql.SQL(
            "SELECT {} FROM admin_accounts"
            " WHERE %(org)s::text IS NULL OR org_id = %(org)s ORDER BY org_id, name"
        ).format(_PUBLIC),
        {"org": org_id},
    ).fetchall()


def set_password(conn: Conn, account_id: int, password_hash: str) -> None:
    """A new password: the account's sessions end and its unused links stop working (whoever
    held the old password, or a link sent before, is signed out)."""
    conn.execute(
        "UPDATE admin_accounts SET password_hash = %s WHERE account_id = %s",
        (password_hash, account_id),
    )
    end_sessions(conn, account_id)
    void_links(conn, account_id)


def disable(conn: Conn, account_id: int) -> None:
    """Disable the account and end its sessions and unused links at once."""
    conn.execute(
        "UPDATE admin_accounts SET disabled_at = coalesce(disabled_at, now())"
        " WHERE account_id = %s",
        (account_id,),
    )
    end_sessions(conn, account_id)
    void_links(conn, account_id)


def end_sessions(conn: Conn, account_id: int) -> None:
    conn.execute(
        "UPDATE admin_sessions SET ended_at = now() WHERE account_id = %s AND ended_at IS NULL",
        (account_id,),
    )


def void_links(conn: Conn, account_id: int) -> None:
    """The account's unused sign-in links stop working (marked used)."""
    conn.execute(
        "UPDATE admin_signin_links SET used_at = now() WHERE account_id = %s AND used_at IS NULL",
        (account_id,),
    )


def add_link(conn: Conn, account_id: int, token_sha256: bytes, valid: timedelta) -> None:
    conn.execute(
        "INSERT INTO admin_signin_links (token_sha256, account_id, expires_at)"
        " VALUES (%s, %s, now() + %s)",
        (token_sha256, account_id, valid),
    )


def use_link(conn: Conn, token_sha256: bytes) -> dict[str, Any] | None:
    """Mark the link used and return its account (account_id, org_id, name), if it is unused,
    unexpired and its account enabled; None otherwise (worth nothing, whatever the reason)."""
    return conn.execute(
        "UPDATE admin_signin_links l SET used_at = now() FROM admin_accounts a"
        " WHERE l.token_sha256 = %s AND l.used_at IS NULL AND l.expires_at > now()"
        " AND a.account_id = l.account_id AND a.disabled_at IS NULL"
        " RETURNING a.account_id, a.org_id, a.name",
        (token_sha256,),
    ).fetchone()


def link_usable(conn: Conn, token_sha256: bytes) -> bool:
    row = conn.execute(
        "SELECT 1 FROM admin_signin_links l JOIN admin_accounts a USING (account_id)"
        " WHERE l.token_sha256 = %s AND l.used_at IS NULL AND l.expires_at > now()"
        " AND a.disabled_at IS NULL",
        (token_sha256,),
    ).fetchone()
    return row is not None


def open_session(
    conn: Conn, account_id: int, session_sha256: bytes, csrf_token: str, lifetime: timedelta
) -> None:
    conn.execute(
        "INSERT INTO admin_sessions (session_sha256, account_id, csrf_token, expires_at)"
        " VALUES (%s, %s, %s, now() + %s)",
        (session_sha256, account_id, csrf_token, lifetime),
    )


TOUCH_EVERY = timedelta(minutes=1)  # how stale a session's last use may get before it is moved


def touch_session(conn: Conn, session_sha256: bytes, idle: timedelta) -> dict[str, Any] | None:
    """The live session's account (enabled), organisation and CSRF token, its last use moved
    to now when it is older than TOUCH_EVERY (so most requests only read, and their commit
    waits for no disk); None when there is no such session, or it ended, expired or sat idle
    too long."""
    return conn.execute(
        "WITH live AS (SELECT s.session_sha256, s.last_seen_at, a.account_id, a.org_id, a.name,"
        "  s.csrf_token FROM admin_sessions s JOIN admin_accounts a USING (account_id)"
        "  WHERE s.session_sha256 = %(s)s AND s.ended_at IS NULL AND s.expires_at > now()"
        "  AND s.last_seen_at > now() - %(idle)s::interval AND a.disabled_at IS NULL),"
        " touched AS (UPDATE admin_sessions t SET last_seen_at = now() FROM live"
        "  WHERE t.session_sha256 = live.session_sha256"
        "  AND live.last_seen_at < now() - %(every)s::interval)"
        " SELECT account_id, org_id, name, csrf_token FROM live",
        {"s": session_sha256, "idle": idle, "every": TOUCH_EVERY},
    ).fetchone()


def end_session(conn: Conn, session_sha256: bytes) -> None:
    conn.execute(
        "UPDATE admin_sessions SET ended_at = coalesce(ended_at, now()) WHERE session_sha256 = %s",
        (session_sha256,),
    )


FAILURES_KEPT = timedelta(days=1)  # attempts this far apart are not counted together
_COUNT = "(CASE WHEN f.last_at > now() - %(kept)s THEN f.failures + 1 ELSE 1 END)"
_TAKE = sql.SQL(
    "INSERT INTO admin_signin_attempts AS f (pair_sha256, failures) VALUES (%(k)s, 1)"
    " ON CONFLICT (pair_sha256) DO UPDATE SET failures = {n}, last_at = now(),"
    " locked_until = CASE WHEN {n} > %(free)s THEN now() + least(%(longest)s,"
    " make_interval(secs => power(2, least({n} - %(free)s - 1, 30)))) END"
    " WHERE f.locked_until IS NULL OR f.locked_until <= now() RETURNING failures"
).format(n=sql.SQL(_COUNT))


def take_attempt(conn: Conn, pair_sha256: bytes, free: int, longest: timedelta) -> float | None:
    """Count a password attempt for a pair (organisation and name typed) before its password is
    checked, unless the pair is locked: None when counted (go on), else the seconds to wait.
    Counted first, in one statement, so attempts sent at once meet the lock of those before
    them. Past `free` attempts within FAILURES_KEPT of each other, each locks the pair for
    twice as long as the one before, one second first, `longest` at most; a right password
    forgets them (attempt_succeeded). Pairs quiet for FAILURES_KEPT are removed."""
    params = {"k": pair_sha256, "kept": FAILURES_KEPT, "free": free, "longest": longest}
    row = conn.execute(_TAKE, params).fetchone()
    conn.execute("DELETE FROM admin_signin_attempts WHERE last_at < now() - %s", (FAILURES_KEPT,))
    if row is not None:
        return None
    wait = conn.execute(
        "SELECT greatest(0, extract(epoch FROM locked_until - now())) AS wait"
        " FROM admin_signin_attempts WHERE pair_sha256 = %s",
        (pair_sha256,),
    ).fetchone()
    return max(float(wait["wait"] or 0) if wait else 0.0, 0.001)


def attempt_succeeded(conn: Conn, pair_sha256: bytes) -> None:
    conn.execute("DELETE FROM admin_signin_attempts WHERE pair_sha256 = %s", (pair_sha256,))


def lock_account(conn: Conn, account_id: int) -> dict[str, Any] | None:
    """The account's password hash and whether it is disabled, its row held (FOR SHARE) until
    the transaction ends: a password set or an account disabled meanwhile waits, and then ends
    the session opened in that transaction."""
    return conn.execute(
        "SELECT password_hash, disabled_at FROM admin_accounts WHERE account_id = %s FOR SHARE",
        (account_id,),
    ).fetchone()


def lock_account_of_link(conn: Conn, token_sha256: bytes) -> None:
    """lock_account for the account a sign-in link is for (if any), before the link is used."""
    conn.execute(
        "SELECT 1 FROM admin_accounts a JOIN admin_signin_links l USING (account_id)"
        " WHERE l.token_sha256 = %s FOR SHARE OF a",
        (token_sha256,),
    )
