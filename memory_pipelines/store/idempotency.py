"""Responses of writes sent with an Idempotency-Key, so that a retry is answered, not redone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from memory_pipelines.store.db import Conn

KEEP_HOURS = 24
# A first request unfinished and silent this long died with its server: the server serving it
# says it is still at it every 30 seconds (`beat`, api/idempotency.BEAT_SECONDS). Its write may
# have committed before the server went away, so it is never run again under the key: a retry
# is told the outcome is unknown (api/idempotency.begin).
STALE_MINUTES = 2
PURGE_EACH = 20  # expired rows removed with each claim (more than one claim makes)


def claim(
    conn: Conn, key_id: str, idem_key: str, fingerprint: str, store_id: str | None
) -> dict[str, Any] | None:
    """Claim the Idempotency-Key for a first request to `store_id` (None: a request under no
    store); None when claimed now, else the row that holds it (its response, or status_code
    NULL while that first request is served or after it died; `stale` says which). A row
    older than KEEP_HOURS is claimed anew. Deleting the store deletes its rows
    (stores.drop_store)."""
    # A few rows past their time go first, in a statement of their own (what they hold is kept
    # 24 hours), skipping rows another claim holds: inside the claim's transaction, two claims
    # each taking over an expired key waited for each other's row (a deadlock).
    conn.execute(
        "DELETE FROM idempotent_requests WHERE ctid = ANY(ARRAY(SELECT ctid FROM"
        " idempotent_requests WHERE created_at < now() - make_interval(hours => %s)"
        " LIMIT %s FOR UPDATE SKIP LOCKED))",
        (KEEP_HOURS, PURGE_EACH),
    )
    with conn.transaction():
        row = conn.execute(
            "INSERT INTO idempotent_requests (key_id, idempotency_key, fingerprint, store_id)"
            " VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (key_id, idempotency_key) DO UPDATE"
            " SET fingerprint = EXCLUDED.fingerprint, status_code = NULL, response = NULL,"
            " store_id = EXCLUDED.store_id, created_at = now(), alive_at = now()"
            " WHERE idempotent_requests.created_at < now() - make_interval(hours => %s)"
            " RETURNING 1",
            (key_id, idem_key, fingerprint, store_id, KEEP_HOURS),
        ).fetchone()
        if row is not None:
            return None
        return conn.execute(
            "SELECT fingerprint, status_code, response,"
            " alive_at < now() - make_interval(mins => %s) AS stale"
            " FROM idempotent_requests WHERE key_id = %s AND idempotency_key = %s",
            (STALE_MINUTES, key_id, idem_key),
        ).fetchone()


def finish(conn: Conn, key_id: str, idem_key: str, status_code: int, response: Any) -> None:
    conn.execute(
        "UPDATE idempotent_requests SET status_code = %s, response = %s"
        " WHERE key_id = %s AND idempotency_key = %s",
        (status_code, Jsonb(response), key_id, idem_key),
    )


def release(conn: Conn, key_id: str, idem_key: str) -> None:
    """Forget an unfinished claim (the first request failed, a retry may run it)."""
    conn.execute(
        "DELETE FROM idempotent_requests"
        " WHERE key_id = %s AND idempotency_key = %s AND status_code IS NULL",
        (key_id, idem_key),
    )


def beat(dsn: str, claims: Sequence[tuple[str, str]]) -> None:
    """The unfinished claims (key_id, idempotency_key) are still being served. On a connection
    of its own, never the pool's: the writes it vouches for may hold every pooled one (held
    on locks), and a beat waiting for one would fall silent."""
    if not claims:
        return
    with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
        conn.execute(
            "UPDATE idempotent_requests SET alive_at = now() WHERE status_code IS NULL"
            " AND (key_id, idempotency_key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
            ([k for k, _ in claims], [i for _, i in claims]),
        )
