"""API key secrets: made, parsed, hashed and checked (pure).

A key reads `mp_<key id>_<secret>`: the key id (12 hex digits) is public and finds the row; the
secret is 256 random bits from `secrets`. Only SHA-256 of the whole key is stored.

Why a plain fast hash and not argon2 or a peppered HMAC: a slow or peppered hash protects
guessable secrets (passwords) when the hashes leak. A 256-bit random secret is not guessable:
inverting SHA-256 over it is out of reach with or without a pepper, so argon2 would only add tens
of milliseconds of CPU to every request, and a pepper would be one more secret to hand to every
server. The stored digest is compared with `hmac.compare_digest`, in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

PREFIX = "mp"
_KEY = re.compile(r"mp_([0-9a-f]{12})_([A-Za-z0-9_-]{43})")
# Compared against when no row has the key id, so a miss costs the same work as a wrong secret.
_NO_ROW = hashlib.sha256(b"no such key").digest()


def new_key() -> tuple[str, str]:
    """A new (key id, full key text). The text is shown once and never stored."""
    key_id = secrets.token_hex(6)
    return key_id, f"{PREFIX}_{key_id}_{secrets.token_urlsafe(32)}"


def key_id_of(text: str) -> str | None:
    """The key id of a well-formed key, else None (nothing about why: every bad key is alike)."""
    m = _KEY.fullmatch(text)
    return m.group(1) if m else None


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def matches(text: str, stored: bytes | None) -> bool:
    """Whether the key text hashes to the stored digest (constant time; None: no such row)."""
    return hmac.compare_digest(digest(text), stored if stored is not None else _NO_ROW) and (
        stored is not None
    )
