"""Who said which turns of a chat, when they are people talking (named turns of role user)."""

from __future__ import annotations

from collections.abc import Iterable

from memory_pipelines.store.db import Conn


def _speaking(conn: Conn, chat_id: int, seqs: Iterable[int]) -> dict[int, str | None]:
    """seq -> speaker of each of these turns the chat holds; None for a turn of the assistant
    or of an unnamed user. Turns the chat does not hold (yet) are left out."""
    rows = conn.execute(
        "SELECT seq, CASE WHEN lower(role) = 'user' AND speaker <> '' THEN speaker END AS who"
        " FROM turns WHERE chat_id = %s AND seq = ANY(%s)",
        (chat_id, sorted(set(seqs))),
    ).fetchall()
    return {int(r["seq"]): r["who"] for r in rows}


def people_speaking(conn: Conn, chat_id: int, seqs: Iterable[int]) -> dict[int, str]:
    """seq -> speaker of each of these turns said by a named person (role user); turns of the
    assistant, of an unnamed user or not in the chat are left out."""
    return {s: str(who) for s, who in _speaking(conn, chat_id, seqs).items() if who is not None}


class Speakers:
    """people_speaking, remembered: each turn asked once. For a run of many saves
    (api/dedup_near.DedupPool), where every candidate asks who said its own turns and its
    neighbours' (two statements a candidate otherwise). Turns are appended and never changed,
    so what a turn's row said holds while the memo lives; a turn not written yet is asked
    again."""

    def __init__(self) -> None:
        self._said: dict[tuple[int, int], str | None] = {}

    def of(self, conn: Conn, chat_id: int, seqs: Iterable[int]) -> dict[int, str]:
        wanted = set(seqs)
        missing = [s for s in wanted if (chat_id, s) not in self._said]
        if missing:
            found = _speaking(conn, chat_id, missing)
            self._said.update({(chat_id, s): who for s, who in found.items()})
        return {s: who for s in wanted if (who := self._said.get((chat_id, s))) is not None}
