"""Chats and their append-only turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from memory_pipelines.core.inputs import MAX_TURN_CHARS
from memory_pipelines.core.policy import sentence_spans
from memory_pipelines.core.vocabulary import ROLES
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store.db import Conn

if TYPE_CHECKING:
    from memory_pipelines.models.embedder import Embedder

PREV_WEIGHT = 0.3  # how much a word of the turn before counts towards a turn (BM25 tf)
_POSITIONS = "(SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest({}))"


def embedding_text(speaker: str, text: str) -> str:
    """What a turn's embedding is computed from: who said it and what."""
    return f"{speaker}: {text}" if speaker else text


# A sentence of a turn: (ord, start, end, vector), offsets into the turn's text.
Sentence = tuple[int, int, int, np.ndarray]


def embed_turns(
    embedder: Embedder, turns: Sequence[tuple[str, str]]
) -> tuple[np.ndarray, list[list[Sentence]]]:
    """Vectors of (speaker, text) turns, and of each turn's sentences (as the save policy
    splits them) from the same pass of the model (Embedder.embed_with_parts)."""
    texts = [embedding_text(speaker, text) for speaker, text in turns]
    spans = [sentence_spans(text) for _, text in turns]
    shifts = [len(full) - len(text) for full, (_, text) in zip(texts, turns, strict=True)]
    parts = [[(a + d, z + d) for a, z in sp] for sp, d in zip(spans, shifts, strict=True)]
    vecs, part_vecs = embedder.embed_with_parts(texts, parts)
    sentences = [
        [(j, a, z, pv[j]) for j, (a, z) in enumerate(sp)]
        for sp, pv in zip(spans, part_vecs, strict=True)
    ]
    return vecs, sentences


def insert_sentences(
    conn: Conn, turn_ids: Sequence[int], sentences: Sequence[list[Sentence]]
) -> None:
    rows = [
        (tid, j, a, z, vec)
        for tid, sents in zip(turn_ids, sentences, strict=True)
        for j, a, z, vec in sents
    ]
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO turn_sentences (turn_id, ord, start_char, end_char, embedding)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                rows,
            )


@dataclass(frozen=True)
class NewTurn:
    text: str
    role: str = "user"
    speaker: str = ""
    created_at: datetime | None = None
    trace_ref: str | None = None
    external_id: str | None = None

    def validate(self, index: int | None = None) -> None:
        where = "" if index is None else f"turns[{index}]."
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValidationError(f"{where}text", "is required: the message text")
        if len(self.text) > MAX_TURN_CHARS:
            raise ValidationError(
                f"{where}text", f"at most {MAX_TURN_CHARS} characters, got {len(self.text)}"
            )
        if self.role not in ROLES:
            raise ValidationError(
                f"{where}role", f"must be one of {', '.join(ROLES)}, got {self.role!r}"
            )


def ensure_chat(
    conn: Conn,
    store_id: str,
    external_id: str,
    *,
    key_id: str | None = None,
    person_id: str | None = None,
    title: str = "",
) -> int:
    """The chat_id of a store's conversation, created on first use."""
    if not isinstance(external_id, str) or not external_id.strip() or len(external_id) > 200:
        raise ValidationError(
            "chat", f"must be a conversation id of 1-200 chars, got {external_id!r}"
        )
    row = conn.execute(
        "INSERT INTO chats (store_id, external_id, key_id, person_id, title)"
        " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (store_id, external_id) DO NOTHING"
        " RETURNING chat_id",
        (store_id, external_id, key_id, person_id, title),
    ).fetchone()
    if row is None:
        row = conn.execute(
            "SELECT chat_id, person_id FROM chats WHERE store_id = %s AND external_id = %s",
            (store_id, external_id),
        ).fetchone()
        assert row is not None
        # A chat is one person's, or shared: a turn for somebody else never lands in it.
        if person_id is not None and row["person_id"] != person_id:
            owner = "shared" if row["person_id"] is None else f"for {row['person_id']!r}"
            raise ValidationError(
                "person",
                f"chat {external_id!r} is {owner}; a turn for {person_id!r} goes in a chat of"
                " their own",
            )
    return int(row["chat_id"])


def chat_owner(conn: Conn, store_id: str, external_id: str) -> tuple[int, str | None]:
    """(chat_id, the person the chat is for or None when shared) of a store's conversation."""
    row = conn.execute(
        "SELECT chat_id, person_id FROM chats WHERE store_id = %s AND external_id = %s",
        (store_id, external_id),
    ).fetchone()
    if row is None:
        raise NotFound(f"chat {external_id!r} does not exist in store {store_id!r}")
    return int(row["chat_id"]), row["person_id"]


def check_reader(conn: Conn, store_id: str, external_id: str, person: str | None) -> int:
    """The chat_id of a conversation the reader may read (a shared chat, or their own); the
    same NotFound for another person's chat as for a missing one."""
    chat_id, owner = chat_owner(conn, store_id, external_id)
    if owner is not None and owner != person:
        raise NotFound(f"chat {external_id!r} does not exist in store {store_id!r}")
    return chat_id


def chat_id_of(conn: Conn, store_id: str, external_id: str) -> int:
    row = conn.execute(
        "SELECT chat_id FROM chats WHERE store_id = %s AND external_id = %s",
        (store_id, external_id),
    ).fetchone()
    if row is None:
        raise NotFound(f"chat {external_id!r} does not exist in store {store_id!r}")
    return int(row["chat_id"])


def append_turns(
    conn: Conn,
    store_id: str,
    chat_id: int,
    turns: Sequence[NewTurn],
    embeddings: np.ndarray | None = None,
    sentences: Sequence[list[Sentence]] | None = None,
) -> list[tuple[int, int, bool]]:
    """Append turns in order; returns (turn_id, seq, written_now) per turn.

    Call inside a transaction. The chat row stays locked until it commits, so concurrent
    writers get dense, unique seqs, and a turn whose external_id the chat already has is not
    written again (re-ingesting a file is harmless, even two ingests at once).
    """
    for i, t in enumerate(turns):
        t.validate(i if len(turns) > 1 else None)
    if (
        conn.execute("SELECT 1 FROM chats WHERE chat_id = %s FOR UPDATE", (chat_id,)).fetchone()
        is None
    ):
        raise NotFound(f"chat {chat_id} does not exist")
    ext = [t.external_id for t in turns if t.external_id]
    existing: dict[str, tuple[int, int, bool]] = {}
    if ext:
        for r in conn.execute(
            "SELECT external_id, turn_id, seq FROM turns"
            " WHERE chat_id = %s AND external_id = ANY(%s)",
            (chat_id, ext),
        ):
            existing[r["external_id"]] = (r["turn_id"], r["seq"], False)
    fresh = [i for i, t in enumerate(turns) if not (t.external_id and t.external_id in existing)]
    row = conn.execute(
        "UPDATE chats SET next_seq = next_seq + %s WHERE chat_id = %s RETURNING next_seq",
        (len(fresh), chat_id),
    ).fetchone()
    if row is None:
        raise NotFound(f"chat {chat_id} does not exist")
    first = int(row["next_seq"]) - len(fresh)
    before = conn.execute(
        "SELECT text FROM turns WHERE chat_id = %s AND seq = %s", (chat_id, first - 1)
    ).fetchone()
    prev = before["text"] if before else ""
    rows = []
    for n, i in enumerate(fresh):
        t = turns[i]
        emb = embeddings[i] if embeddings is not None else None
        rows.append(
            (
                store_id,
                chat_id,
                first + n,
                t.created_at,
                t.role,
                t.speaker,
                t.text,
                t.trace_ref,
                t.external_id,
                emb,
                f"{t.speaker} {t.text}",
                prev,
            )
        )
        prev = t.text
    ids: list[int] = []
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO turns (store_id, chat_id, seq, created_at, role, speaker, text,"
                " trace_ref, external_id, embedding, tsv, doc_len)"
                " SELECT %s, %s, %s, coalesce(%s, now()), %s, %s, %s, %s, %s, %s,"
                f" setweight(own, 'A') || setweight(prev, 'B'), {_POSITIONS.format('own')}"
                f" + {PREV_WEIGHT} * {_POSITIONS.format('prev')}"
                " FROM (SELECT to_tsvector('english', %s) AS own,"
                " to_tsvector('english', %s) AS prev) AS words"
                " RETURNING turn_id",
                rows,
                returning=True,
            )
            while True:
                got = cur.fetchone()
                assert got is not None
                ids.append(int(got["turn_id"]))
                if not cur.nextset():
                    break
        if sentences is not None:
            insert_sentences(conn, ids, [sentences[i] for i in fresh])
    out: list[tuple[int, int, bool]] = []
    it = iter(zip(ids, range(first, first + len(fresh)), strict=True))
    for t in turns:
        if t.external_id and t.external_id in existing:
            out.append(existing[t.external_id])
        else:
            tid, seq = next(it)
            out.append((tid, seq, True))
    return out


def unembedded_turns(conn: Conn, store_id: str, limit: int) -> list[dict]:
    return list(
        conn.execute(
            "SELECT turn_id, speaker, text FROM turns WHERE store_id = %s AND embedding IS NULL"
            " ORDER BY turn_id LIMIT %s",
            (store_id, limit),
        )
    )


def set_turn_embeddings(
    conn: Conn,
    turn_ids: Sequence[int],
    embeddings: np.ndarray,
    sentences: Sequence[list[Sentence]],
) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE turns SET embedding = %s WHERE turn_id = %s AND embedding IS NULL",
            [(embeddings[i], tid) for i, tid in enumerate(turn_ids)],
        )
    insert_sentences(conn, turn_ids, sentences)


def recent_turns(conn: Conn, chat_id: int, before_seq: int | None, n: int) -> list[dict]:
    """The n turns before before_seq (or the last n), oldest first."""
    rows = conn.execute(
        "SELECT seq, role, speaker, text FROM turns WHERE chat_id = %s"
        " AND (%s::int IS NULL OR seq < %s) ORDER BY seq DESC LIMIT %s",
        (chat_id, before_seq, before_seq, n),
    ).fetchall()
    return list(reversed(rows))
