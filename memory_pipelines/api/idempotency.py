"""Idempotent writes: the first response to a write sent with an Idempotency-Key is kept per
key, and a retry with the same key and the same request gets that response, not a second write.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from memory_pipelines.errors import MemoryPipelinesError, ValidationError
from memory_pipelines.store import idempotency as idem_db
from memory_pipelines.store.db import Database

_KEY = re.compile(r"[\x21-\x7e]{1,255}")  # visible ASCII, as the IETF draft's examples
BEAT_SECONDS = 30.0  # how often a claim being served says so (idem_db.STALE_MINUTES: silent)
_log = logging.getLogger(__name__)


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
        raise InFlight(
            "the first request with this Idempotency-Key is still being served (its server"
            f" said so in the last {idem_db.STALE_MINUTES} minutes): retry after a moment"
        )
    return Replay(int(row["status_code"]), row["response"])


def finish(db: Database, key_id: str, idem_key: str, status_code: int, body: Any) -> None:
    """Keep the response of the first request (replayed to retries for 24 hours)."""
    with db.connection() as conn:
        idem_db.finish(conn, key_id, idem_key, status_code, body)


def release(db: Database, key_id: str, idem_key: str) -> None:
    """Give the key up after the first request failed unexpectedly, so a retry runs it."""
    with db.connection() as conn:
        idem_db.release(conn, key_id, idem_key)


# The claims this process is serving, by database; one thread says they are alive.
_serving: dict[Database, set[tuple[str, str]]] = {}
_serving_lock = threading.Lock()
_beater: threading.Thread | None = None


@contextmanager
def served(db: Database, key_id: str, idem_key: str) -> Iterator[None]:
    """While the first request under a claim runs, the claim is said alive every
    BEAT_SECONDS, so a retry meanwhile is told it is in flight however long it takes; a claim
    whose server died falls silent, and a retry is told its outcome is unknown."""
    global _beater
    claim = (key_id, idem_key)
    with _serving_lock:
        _serving.setdefault(db, set()).add(claim)
        if _beater is None:
            _beater = threading.Thread(target=_beat_forever, name="idempotency-beat", daemon=True)
            _beater.start()
    try:
        yield
    finally:
        with _serving_lock:
            claims = _serving.get(db, set())
            claims.discard(claim)
            if not claims:
                _serving.pop(db, None)


def beat_served() -> None:
    """Say every claim this process is serving is alive (one statement per database)."""
    with _serving_lock:
        now = {db: sorted(claims) for db, claims in _serving.items()}
    for db, claims in now.items():
        try:
            idem_db.beat(db.dsn, claims)
        except Exception:  # the database away: the claims fall silent, as their writes fail
            _log.warning("could not say %d idempotent writes are in flight", len(claims))


def _beat_forever() -> None:
    while True:
        time.sleep(BEAT_SECONDS)
        beat_served()
