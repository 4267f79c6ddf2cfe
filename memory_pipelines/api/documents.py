"""Documents and emails of a store: validated, split into passages, embedded, stored."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memory_pipelines.core.passages import split_passages
from memory_pipelines.core.records import parse_time
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import documents as documents_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database


def add_document(
    db: Database,
    embedder: Embedder,
    store_id: str,
    external_id: str,
    text: str,
    *,
    kind: str = "basic",
    title: str = "",
    sender: str | None = None,
    recipients: Sequence[str] = (),
    person: str | None = None,
    created_at: datetime | str | None = None,
) -> dict[str, Any]:
    """Store a document (kind `basic`) or an email (kind `email`) for recall's scopes of the
    same names, split into passages and embedded. Re-adding the same id replaces it."""
    if kind not in ("basic", "email"):
        raise ValidationError("kind", f"must be basic or email, got {kind!r}")
    if not isinstance(external_id, str) or not external_id.strip():
        raise ValidationError("id", "is required: the document or message id")
    if not isinstance(text, str) or not text.strip():
        raise ValidationError("text", "is required: the document's text")
    when = parse_time("created_at", created_at)
    passages = split_passages(text)
    vecs = embedder.embed([f"{title}. {p}" if title else p for p in passages])
    with db.transaction() as conn:
        if person is not None and not stores_db.person_exists(conn, store_id, person):
            raise ValidationError("person", f"{person!r} is not a person of this store")
        documents_db.replace_document(
            conn,
            store_id,
            kind,
            external_id,
            title,
            passages,
            vecs,
            sender=sender,
            recipients=recipients,
            person_id=person,
            created_at=when,
        )
    return {"id": external_id, "kind": kind, "passages": len(passages)}
