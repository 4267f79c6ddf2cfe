"""Chats and their append-only turns."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np
from psycopg import sql

from memory_pipelines.core.inputs import TurnInput
from memory_pipelines.core.types import Chat, Turn
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import columns, fetch_all, fetch_one, one, with_vector
from memory_pipelines.store.visibility import VISIBLE_CHATS

PREV_WEIGHT = 0.3  # how much a word of the turn before counts towards a turn (BM25 tf)
_POSITIONS = "(SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest({}))"
TURN_COLUMNS = columns(Turn)

# A sentence of a turn: (ord, start, end, vector), offsets into the turn's text.
Sentence = tuple[int, int, int, np.ndarray]


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
    if row is not None:
        return int(row["chat_id"])
    chat = get_chat(conn, store_id, external_id)
    # A chat is one person's, or shared: a turn for somebody else never lands in it.
    if person_id is not None and chat.person_id != person_id:
        owner = "shared" if chat.person_id is None else f"for {chat.person_id!r}"
        raise ValidationError(
            "person",
            f"chat {external_id!r} is {owner}; a turn for {person_id!r} goes in a chat of"
            " their own",
        )
    return chat.chat_id


def get_chat(conn: Conn, store_id: str, external_id: str) -> Chat:
    """A store's conversation by its external id (NotFound when it has none)."""
    chat = fetch_one(
        conn,
        Chat,
        sql.SQL("SELECT {} FROM chats WHERE store_id = %s AND external_id = %s").format(
            columns(Chat)
        ),
        (store_id, external_id),
    )
    if chat is None:
        raise NotFound(f"chat {external_id!r} does not exist in store {store_id!r}")
    return chat


def stored_external_ids(
    conn: Conn, store_id: str, chat: str, external_ids: Sequence[str]
) -> set[str]:
    """Which of these external ids the store's chat (by its external id) holds already."""
    rows = conn.execute(
        "SELECT t.external_id FROM chats c JOIN turns t USING (chat_id)"
        " WHERE c.store_id = %s AND c.external_id = %s AND t.external_id = ANY(%s)",
        (store_id, chat, list(external_ids)),
    ).fetchall()
    return {r["external_id"] for r in rows}


def chat_by_id(conn: Conn, store_id: str, chat_id: int) -> Chat | None:
    """A store's conversation by its chat_id (None: no such chat in the store)."""
    return fetch_one(
        conn,
        Chat,
        sql.SQL("SELECT {} FROM chats WHERE store_id = %s AND chat_id = %s").format(columns(Chat)),
        (store_id, chat_id),
    )


def last_seq(conn: Conn, chat_id: int) -> int:
    """The seq of a chat's last turn (0: none yet)."""
    row = conn.execute(
        "SELECT coalesce(max(seq), 0) AS n FROM turns WHERE chat_id = %s", (chat_id,)
    ).fetchone()
    return int(one(row, "reading a chat's last turn")["n"])


def check_reader(conn: Conn, store_id: str, external_id: str, person: str | None) -> int:
    """The chat_id of a conversation the reader may read (a shared chat, or their own); the
    same NotFound for another person's chat as for a missing one."""
    chat = get_chat(conn, store_id, external_id)
    if chat.person_id is not None and chat.person_id != person:
        raise NotFound(f"chat {external_id!r} does not exist in store {store_id!r}")
    return chat.chat_id


def append_turns(
    conn: Conn,
    store_id: str,
    chat_id: int,
    turns: Sequence[TurnInput],
    embeddings: np.ndarray | None = None,
    sentences: Sequence[list[Sentence]] | None = None,
) -> list[tuple[int, int, bool]]:
    """Append checked turns in order; returns (turn_id, seq, written_now) per turn.

    Call inside a transaction. The chat row stays locked until it commits, so concurrent
    writers get dense, unique seqs, and a turn whose external_id the chat already has is not
    written again (re-ingesting a file is harmless, even two ingests at once).
    """
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
                sql.SQL(
                    "INSERT INTO turns (store_id, chat_id, seq, created_at, role, speaker, text,"
                    " trace_ref, external_id, embedding, tsv, doc_len)"
                    " SELECT %s, %s, %s, coalesce(%s, now()), %s, %s, %s, %s, %s, %s,"
                    " setweight(own, 'A') || setweight(prev, 'B'), {} + {} * {}"
                    " FROM (SELECT to_tsvector('english', %s) AS own,"
                    " to_tsvector('english', %s) AS prev) AS words"
                    " RETURNING turn_id"
                ).format(
                    sql.SQL(_POSITIONS.format("own")),
                    sql.Literal(PREV_WEIGHT),
                    sql.SQL(_POSITIONS.format("prev")),
                ),
                rows,
                returning=True,
            )
            while True:
                ids.append(int(one(cur.fetchone(), "inserting a turn")["turn_id"]))
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


def unembedded_turns(conn: Conn, store_id: str, limit: int) -> list[Turn]:
    """The store's turns written without an embedding, oldest first."""
    return fetch_all(
        conn,
        Turn,
        sql.SQL(
            "SELECT {} FROM turns WHERE store_id = %s AND embedding IS NULL"
            " ORDER BY turn_id LIMIT %s"
        ).format(TURN_COLUMNS),
        (store_id, limit),
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


def top_turn_id(conn: Conn, store_id: str) -> int:
    """The store's newest turn id (0 with none): what a step sees when it starts."""
    row = conn.execute(
        "SELECT coalesce(max(turn_id), 0) AS top FROM turns WHERE store_id = %s", (store_id,)
    ).fetchone()
    return int(row["top"]) if row else 0


def embedding_counts(conn: Conn, store_id: str, upto: int | None = None) -> tuple[int, int]:
    """(turns of the store, those without an embedding yet), of turn ids up to `upto` if given."""
    row = one(
        conn.execute(
            "SELECT count(*) AS n, count(*) FILTER (WHERE embedding IS NULL) AS missing"
            " FROM turns WHERE store_id = %s AND (%s::bigint IS NULL OR turn_id <= %s)",
            (store_id, upto, upto),
        ).fetchone(),
        "counting turns",
    )
    return int(row["n"]), int(row["missing"])


def recent_turns(conn: Conn, chat_id: int, before_seq: int | None, n: int) -> list[Turn]:
    """The n turns before before_seq (or the last n), oldest first."""
    rows = fetch_all(
        conn,
        Turn,
        sql.SQL(
            "SELECT {} FROM turns WHERE chat_id = %s"
            " AND (%s::int IS NULL OR seq < %s) ORDER BY seq DESC LIMIT %s"
        ).format(TURN_COLUMNS),
        (chat_id, before_seq, before_seq, n),
    )
    return list(reversed(rows))


_BETWEEN = sql.SQL(
    "SELECT {}{} FROM turns WHERE chat_id = %s AND seq BETWEEN %s AND %s ORDER BY seq"
)


def turns_between(conn: Conn, chat_id: int, first: int, last: int) -> list[Turn]:
    """Turns first..last of a chat in seq order."""
    return fetch_all(conn, Turn, _BETWEEN.format(TURN_COLUMNS, sql.SQL("")), (chat_id, first, last))


def turns_with_vectors(
    conn: Conn, chat_id: int, first: int, last: int
) -> list[tuple[Turn, np.ndarray | None]]:
    """Turns first..last of a chat in seq order, each with its stored embedding (None: not
    embedded yet)."""
    rows = conn.execute(
        _BETWEEN.format(TURN_COLUMNS, sql.SQL(", embedding AS vector")), (chat_id, first, last)
    ).fetchall()
    return [with_vector(Turn, r) for r in rows]


def turns_by_ids(conn: Conn, turn_ids: Sequence[int]) -> list[Turn]:
    """These turns, in seq order."""
    return fetch_all(
        conn,
        Turn,
        sql.SQL("SELECT {} FROM turns WHERE turn_id = ANY(%s) ORDER BY seq").format(TURN_COLUMNS),
        (list(turn_ids),),
    )


def in_history(conn: Conn, store_id: str, text: str, person: str | None) -> bool:
    """Whether a turn that `person`'s records may point to (one of a shared chat or of the
    person's own; None: shared chats only) already holds this text word for word (it is
    drillable). Another person's chats never count: their words would decide the answer, which
    would tell the caller what they hold."""
    row = conn.execute(
        sql.SQL(
            "SELECT 1 FROM turns WHERE store_id = %(store)s AND chat_id IN ({chats})"
            " AND md5(lower(btrim(text))) = md5(lower(btrim(%(text)s))) LIMIT 1"
        ).format(chats=sql.SQL(VISIBLE_CHATS)),
        {"store": store_id, "person": person, "text": text},
    ).fetchone()
    return row is not None


def take_budget(conn: Conn, chat_id: int, seq: int, budget: int, person: str | None) -> bool:
    """Count one save against `person`'s budget for the turn (turn_saves; None: the shared
    one); False when it is spent. In a shared chat each person has a budget of their own and
    the shared records one, so another person's saves are none of theirs; the caller names a
    person's own chat's person for every save made there (one budget, as before 022)."""
    if budget < 1:
        return False
    row = conn.execute(
        "INSERT INTO turn_saves (chat_id, seq, person_id, saves) VALUES (%s, %s, %s, 1)"
        " ON CONFLICT (chat_id, seq, person_id) DO UPDATE SET saves = turn_saves.saves + 1"
        " WHERE turn_saves.saves < %s RETURNING saves",
        (chat_id, seq, person or "", budget),
    ).fetchone()
    return row is not None and row["saves"] <= budget


def tool_turns(conn: Conn, chat_id: int, from_seq: int, to_seq: int) -> set[int]:
    """The seqs of a chat's turns from_seq..to_seq said by a tool (role `tool`): text from
    outside the conversation (a fetched page, a search result), which nobody in it vouched
    for."""
    rows = conn.execute(
        "SELECT seq FROM turns WHERE chat_id = %s AND seq BETWEEN %s AND %s"
        " AND lower(role) = 'tool'",
        (chat_id, from_seq, to_seq),
    ).fetchall()
    return {int(r["seq"]) for r in rows}


def turn_time(conn: Conn, chat_id: int, seq: int) -> datetime | None:
    """When a turn of a chat was said (None when the chat has no such turn)."""
    row = conn.execute(
        "SELECT created_at FROM turns WHERE chat_id = %s AND seq = %s", (chat_id, seq)
    ).fetchone()
    return row["created_at"] if row else None
