"""Who said which turns of a chat, when they are people talking (named turns of role user)."""

from __future__ import annotations

from collections.abc import Iterable

from memory_pipelines.store.db import Conn


def people_speaking(conn: Conn, chat_id: int, seqs: Iterable[int]) -> dict[int, str]:
    """seq -> speaker of each of these turns said by a named person (role user); turns of the
    assistant, of an unnamed user or not in the chat are left out."""
    rows = conn.execute(
        "SELECT seq, speaker FROM turns WHERE chat_id = %s AND seq = ANY(%s)"
        " AND lower(role) = 'user' AND speaker <> ''",
        (chat_id, sorted(set(seqs))),
    ).fetchall()
    return {int(r["seq"]): str(r["speaker"]) for r in rows}
