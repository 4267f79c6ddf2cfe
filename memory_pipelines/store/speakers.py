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


class Speakers:
    """people_speaking, remembered: each turn asked once. For one transaction of many saves
    (api/dedup.DedupPool starts a new one with each), where every candidate asks who said its
    own turns and its neighbours' (two statements a candidate otherwise)."""

    def __init__(self) -> None:
        self._said: dict[tuple[int, int], str | None] = {}

    def of(self, conn: Conn, chat_id: int, seqs: Iterable[int]) -> dict[int, str]:
        wanted = set(seqs)
        missing = [s for s in wanted if (chat_id, s) not in self._said]
        if missing:
            found = people_speaking(conn, chat_id, missing)
            self._said.update({(chat_id, s): found.get(s) for s in missing})
        return {s: who for s in wanted if (who := self._said[(chat_id, s)]) is not None}
