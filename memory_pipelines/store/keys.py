"""API keys: rows holding a hash, never the key; their use and rate limit."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one

_PUBLIC = sql.SQL(
    "key_id, org_id, name, policy, decay_per_type, trust_envelope, rate_per_minute, rate_burst,"
    " created_at, created_by, expires_at, revoked_at, revoked_by, last_used_at"
)


def insert(
    conn: Conn,
    key_id: str,
    org_id: str,
    secret_sha256: bytes,
    *,
    name: str,
    policy: Any,
    decay_per_type: dict[str, float],
    trust_envelope: bool | None,
    rate_per_minute: int,
    rate_burst: int,
    expires_at: datetime | None,
    created_by: str,
) -> dict[str, Any]:
    row = conn.execute(
        sql.SQL(
            "INSERT INTO api_keys (key_id, org_id, secret_sha256, name, policy, decay_per_type,"
            " trust_envelope, rate_per_minute, rate_burst, expires_at, created_by)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {}"
        ).format(_PUBLIC),
        (
            key_id,
            org_id,
            secret_sha256,
            name,
            Jsonb(policy),
            Jsonb(decay_per_type),
            trust_envelope,
            rate_per_minute,
            rate_burst,
            expires_at,
            created_by,
        ),
    ).fetchone()
    return one(row, "inserting a key")


def for_auth(conn: Conn, key_id: str, store: str | None = None) -> dict[str, Any] | None:
    """The key's row with its hash, whether it is usable now (not expired, not revoked), its
    organisation chain (its own first, then each one above) and whether that organisation
    owns `store` (`owns_store`), in one read."""
    return conn.execute(
        sql.SQL(
            """
        WITH RECURSIVE k AS (
            SELECT {}, secret_sha256,
                   (revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS usable
              FROM api_keys WHERE key_id = %s
        ), chain AS (
            SELECT o.org_id, o.parent_id, o.ceiling, o.policy, 0 AS depth
              FROM organisations o JOIN k ON o.org_id = k.org_id
            UNION ALL
            SELECT p.org_id, p.parent_id, p.ceiling, p.policy, c.depth + 1
              FROM organisations p JOIN chain c ON p.org_id = c.parent_id
        )
        SELECT k.*, (SELECT json_agg(chain ORDER BY depth) FROM chain) AS chain,
               EXISTS (SELECT 1 FROM stores s WHERE s.store_id = %s AND s.org_id = k.org_id)
                 AS owns_store
          FROM k
        """
        ).format(_PUBLIC),
        (key_id, store),
    ).fetchone()


# One request counted: the key's row locked, its next allowed time moved on when allowed.
_TAKE = """
WITH k AS (
    SELECT key_id,
           greatest(coalesce(rate_tat, now()), now())
             + make_interval(secs => 60.0 / rate_per_minute) AS tat,
           make_interval(secs => 60.0 * rate_burst / rate_per_minute) AS tolerance
      FROM api_keys WHERE key_id = %s FOR UPDATE
), u AS (
    UPDATE api_keys a
       SET last_used_at = now(),
           rate_tat = CASE WHEN k.tat - now() <= k.tolerance THEN k.tat ELSE a.rate_tat END
      FROM k WHERE a.key_id = k.key_id
    RETURNING a.key_id
)
SELECT greatest(extract(epoch FROM k.tat - k.tolerance - now()), 0)::float8 AS wait
  FROM k, u
"""


def take_request(conn: Conn, key_id: str) -> float:
    """Count one request against the key's rate (GCRA, atomic under concurrent requests) and
    note its last use; 0 when allowed, else the seconds until a request would be.

    Committed without waiting for the disk (synchronous_commit off, for this transaction
    only): a crash can lose the last fraction of a second of counting and of last use, which
    costs nothing, while waiting for the flush would add a disk sync to every request. The
    transaction's four statements go in one round trip (pipeline mode)."""
    with conn.pipeline(), conn.transaction():
        conn.execute("SET LOCAL synchronous_commit = off")
        cur = conn.execute(_TAKE, (key_id,))
    row = cur.fetchone()
    return float(row["wait"]) if row else 0.0


def list_keys(conn: Conn, org_id: str | None) -> list[dict[str, Any]]:
    return conn.execute(
        sql.SQL(
            "SELECT {} FROM api_keys"
            " WHERE %(org)s::text IS NULL OR org_id = %(org)s ORDER BY org_id, created_at"
        ).format(_PUBLIC),
        {"org": org_id},
    ).fetchall()


def revoke(conn: Conn, key_id: str, actor: str) -> dict[str, Any] | None:
    """Revoke a key (a second revoke keeps the first time); None when there is no such key."""
    return conn.execute(
        sql.SQL(
            "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()),"
            " revoked_by = coalesce(revoked_by, %s) WHERE key_id = %s RETURNING {}"
        ).format(_PUBLIC),
        (actor, key_id),
    ).fetchone()


def orgs_of(conn: Conn, key_ids: set[str]) -> dict[str, str]:
    """The organisation of each of these keys (a key deleted with its organisation: none)."""
    rows = conn.execute(
        "SELECT key_id, org_id FROM api_keys WHERE key_id = ANY(%s)", (sorted(key_ids),)
    ).fetchall()
    return {r["key_id"]: r["org_id"] for r in rows}
