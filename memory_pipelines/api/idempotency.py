"""Idempotent writes: the first response to a write sent with an Idempotency-Key is kept per
key, and a retry with the same key and the same request gets that response, not a second write.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from memory_pipelines.errors import MemoryPipelinesError, ValidationError
from memory_pipelines.store import idempotency as idem_db
from memory_pipelines.store.db import Database

_KEY = re.compile(r"[\x21-\x7e]{1,255}")  # visible ASCII, as the IETF draft's examples


class InFlight(MemoryPipelinesError):
    """The first request with this Idempotency-Key is still being served."""


class Unanswered(MemoryPipelinesError):
    """The first request with this Idempotency-Key died unanswered: it may have been written,
    so it is not run again under the key."""


@dataclass(frozen=True)
class Replay:
    status_code: int
    body: Any


def fingerprint(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(b"%s %s\n%s" % (method.encode(), path.encode(), body)).hexdigest()


def begin(
    db: Database, key_id: str, idem_key: str, print_: str, store_id: str | None = None
) -> Replay | None:
    """Claim `idem_key` for this request to `store_id`: None when claimed (go ahead, then
    `finish` or `release`), else the first response to replay. Deleting the store forgets
    the responses kept for it.
    ValidationError when the key was used for another request; InFlight while the first is
    still being served; Unanswered when it died without an answer (STALE_MINUTES)."""
    if not _KEY.fullmatch(idem_key):
        raise ValidationError("Idempotency-Key", "must be 1-255 visible ASCII characters")
    with db.connection() as conn:
        row = idem_db.claim(conn, key_id, idem_key, print_, store_id)
    if row is None:
        return None
    if row["fingerprint"] != print_:
        raise ValidationError(
            "Idempotency-Key", "was already used for a different request; use a new key"
        )
    if row["status_code"] is None and row["stale"]:
        raise Unanswered(
            "the first request with this Idempotency-Key stopped without an answer (its server"
            " went away), and may have been written: it is never run twice under one key. Read"
            " back what it would have written; if it is not there, send it with a new key"
        )
    if row["status_code"] is None:
        raise InFlight("the first request with this Idempotency-Key is still being served")
    return Replay(int(row["status_code"]), row["response"])


def finish(db: Database, key_id: str, idem_key: str, status_code: int, body: Any) -> None:
    """Keep the response of the first request (replayed to retries for 24 hours)."""
    with db.connection() as conn:
        idem_db.finish(conn, key_id, idem_key, status_code, body)


def release(db: Database, key_id: str, idem_key: str) -> None:
    """Give the key up after the first request failed unexpectedly, so a retry runs it."""
    with db.connection() as conn:
        idem_db.release(conn, key_id, idem_key)
