"""API keys: created (the text shown once), listed, revoked. Only a hash is stored."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg

from memory_pipelines.core import keys as key_text
from memory_pipelines.core.access import parse_policy, policy_to_json
from memory_pipelines.core.decay import parse_half_lives
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.records import parse_time, text_field
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Database


def create_key(
    db: Database,
    org_id: str,
    *,
    name: str = "",
    policy: Any = (),
    expires_at: datetime | str | None = None,
    decay_per_type: dict[str, Any] | None = None,
    trust_envelope: bool | None = None,
    rate_per_minute: int = 600,
    rate_burst: int = 60,
    created_by: str = "",
) -> tuple[dict[str, Any], str]:
    """A new key of `org_id`: (its row, its text `mp_<key id>_<secret>`). The text is not kept
    anywhere: show it once. `decay_per_type` (type -> half-life days) goes before the store's
    for what this key reads; `trust_envelope` None follows the store's setting."""
    name = text_field("name", name, max_len=200, one_line=True)
    created_by = text_field("created_by", created_by, max_len=200, one_line=True)
    rules = policy_to_json(parse_policy(list(policy)))
    decay = parse_half_lives(decay_per_type or {})
    if trust_envelope is not None and not isinstance(trust_envelope, bool):
        raise ValidationError("trust_envelope", "must be true, false or absent (the store's)")
    for field, value in (("rate_per_minute", rate_per_minute), ("rate_burst", rate_burst)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
            raise ValidationError(field, f"must be an integer 1-1000000, got {value!r}")
    expires = parse_time("expires_at", expires_at)
    with db.transaction() as conn:
        if not orgs_db.exists(conn, org_id):
            raise ValidationError("organisation", f"{org_id!r} does not exist")
        for _ in range(3):  # 48-bit key ids: a clash is near impossible, but not an error
            key_id, text = key_text.new_key()
            try:
                with conn.transaction():
                    row = keys_db.insert(
                        conn,
                        key_id,
                        org_id,
                        key_text.digest(text),
                        name=name,
                        policy=rules,
                        decay_per_type=decay,
                        trust_envelope=trust_envelope,
                        rate_per_minute=rate_per_minute,
                        rate_burst=rate_burst,
                        expires_at=expires,
                        created_by=created_by,
                    )
                return row, text
            except psycopg.errors.UniqueViolation:
                continue
    raise RuntimeError("could not draw an unused key id")


def list_keys(db: Database, org_id: str | None = None) -> list[dict[str, Any]]:
    """Keys (of one organisation, or all), without anything secret."""
    with db.connection() as conn:
        return keys_db.list_keys(conn, org_id)


def revoke_key(db: Database, key_id: str, *, actor: str) -> dict[str, Any]:
    """Revoke a key at once: its next request is refused like an unknown key's."""
    key_id = id_field("key_id", key_id)
    actor = text_field("actor", actor, max_len=200, one_line=True)
    if not actor.strip():
        raise ValidationError("actor", "is required: who revokes the key")
    with db.connection() as conn:
        row = keys_db.revoke(conn, key_id, actor)
    if row is None:
        raise NotFound(f"key {key_id!r} does not exist")
    return row
