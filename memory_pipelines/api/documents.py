"""Documents and emails of a store: validated, split into passages, embedded, stored."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory_pipelines.core.inputs import DocumentInput, validate_document
from memory_pipelines.core.types import AddedDocument
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
) -> AddedDocument:
    """Store a document (kind `basic`) or an email (kind `email`) for recall's scopes of the
    same names, split into passages and embedded. Re-adding the same id replaces it, for the
    same person (or to make a shared one a person's): another person's id is refused. A text past
    MAX_DOCUMENT_CHARS characters or MAX_PASSAGES passages (core/inputs.py) is refused before
    any work."""
    doc = validate_document(
        external_id,
        text,
        kind=kind,
        title=title,
        sender=sender,
        recipients=recipients,
        person=person,
        created_at=created_at,
    )
    write_documents(db, embedder, store_id, [doc])
    return AddedDocument(id=doc.external_id, kind=doc.kind, passages=len(doc.passages))


def write_documents(
    db: Database, embedder: Embedder, store_id: str, docs: Sequence[DocumentInput]
) -> None:
    """Embed and store checked documents in one transaction: all of them, or none."""
    persons = {d.person for d in docs if d.person is not None}
    with db.connection() as conn:
        missing = sorted(p for p in persons if not stores_db.person_exists(conn, store_id, p))
    if missing:
        raise ValidationError("person", f"{missing[0]!r} is not a person of this store")
    vecs = [embedder.embed([f"{d.title}. {p}" if d.title else p for p in d.passages]) for d in docs]
    with db.transaction() as conn:
        # in one order of ids, so two writers of the same documents never wait on each other
        # in a circle (replace_document locks each id)
        pairs = sorted(zip(docs, vecs, strict=True), key=lambda dv: (dv[0].kind, dv[0].external_id))
        for doc, doc_vecs in pairs:
            documents_db.replace_document(
                conn,
                store_id,
                doc.kind,
                doc.external_id,
                doc.title,
                doc.passages,
                doc_vecs,
                sender=doc.sender,
                recipients=doc.recipients,
                person_id=doc.person,
                created_at=doc.created_at,
            )
