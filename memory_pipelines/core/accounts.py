"""Administrator accounts: names, passwords and the tokens of sign-in links and sessions (pure).

A password is something a person chose, so it can be guessed: it is kept as an argon2id hash
(argon2-cffi's defaults, RFC 9106's second recommended profile), slow on purpose. A sign-in
link or a session is a 256-bit random token: not guessable, so like API keys (core/keys.py) only
its SHA-256 is kept and compared in constant time.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from memory_pipelines.errors import ValidationError

MIN_PASSWORD = 12
MAX_PASSWORD = 1024  # argon2 reads all of it; a bound keeps a sign-in from being a CPU sink
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}")
_hasher = PasswordHasher()
# Verified against when no account has the name, so a wrong name costs what a wrong password
# does and the time of an answer does not tell which accounts exist.
_NO_ACCOUNT = _hasher.hash(secrets.token_urlsafe(16))


def check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValidationError(
            "name",
            "must be 1-100 letters, digits or _ . @ - (starting with a letter or digit), "
            f"got {name!r}",
        )
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValidationError("password", f"must be {MIN_PASSWORD}-{MAX_PASSWORD} characters long")
    if "\x00" in password:
        raise ValidationError("password", "must not contain a NUL character")
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(check_password(password))


def password_matches(password: str, stored: str | None) -> bool:
    """Whether the password is the one hashed in `stored` (None: no account, or no password:
    the same work is done and the answer is no)."""
    if not isinstance(password, str) or not 0 < len(password) <= MAX_PASSWORD:
        return False
    try:
        return _hasher.verify(stored or _NO_ACCOUNT, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A sign-in link's or a session's token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()
