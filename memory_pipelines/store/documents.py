"""Documents and emails of a store, stored as passages."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Conn


def replace_document(
    conn: Conn,
    store_id: str,
    kind: str,
    external_id: str,
    title: str,
    passages: Sequence[str],
    embeddings: np.ndarray,
    *,
    sender: str | None = None,
    recipients: Sequence[str] = (),
    person_id: str | None = None,
    created_at: datetime | None = None,
) -> None:
    """Write a document's passages, replacing an earlier version of the same document. A
    document is one person's or shared, as a chat is: the same id for anybody else is refused,
    never a replacement of theirs; a shared one may be made one person's."""
    # two writers of one new id, for different persons, wait for each other here: the second
    # then sees whose it is (and never deletes the first's passages as its own old version)
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (f"document:{store_id}:{kind}:{external_id}",),
    )
    held = conn.execute(
        "SELECT DISTINCT person_id FROM documents WHERE store_id = %s AND kind = %s"
        " AND external_id = %s",
        (store_id, kind, external_id),
    ).fetchall()
    owners = {r["person_id"] for r in held}
    # a shared document may be made one person's (it narrows who reads it: the way to take
    # back one shared by mistake); never another person's, nor a person's made shared
    narrows = owners == {None} and person_id is not None
    if owners and owners != {person_id} and not narrows:
        # the refusal names no other person: an application may pass it on to this one
        held_by = "shared" if owners - {person_id} == {None} else "another person's"
        now = "a shared one" if person_id is None else f"one for {person_id!r}"
        noun = "email" if kind == "email" else "document"
        raise ValidationError(
            "external_id", f"{noun} {external_id!r} is {held_by}; {now} needs an id of its own"
        )
    conn.execute(
        "DELETE FROM documents WHERE store_id = %s AND kind = %s AND external_id = %s",
        (store_id, kind, external_id),
    )
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO documents (store_id, kind, external_id, part, title, text, sender,"
            " recipients, person_id, created_at, embedding)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, coalesce(%s, now()), %s)",
            [
                (
                    store_id,
                    kind,
                    external_id,
                    i + 1,
                    title,
                    text,
                    sender,
                    list(recipients),
                    person_id,
                    created_at,
                    embeddings[i],
                )
                for i, text in enumerate(passages)
            ],
        )
