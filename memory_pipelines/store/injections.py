"""agent_roi_injections: what auto-recall injected at the start of each turn."""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.store.db import Conn


def record_injection(
    conn: Conn,
    store_id: str,
    chat_id: int,
    turn_seq: int | None,
    person: str | None,
    refs: Sequence[str],
    scores: Sequence[float],
    tokens: int,
) -> None:
    """Log one turn's injection: the refs injected ("kind:id"), their scores, the tokens."""
    conn.execute(
        "INSERT INTO agent_roi_injections (store_id, chat_id, turn_seq, person_id, hit_ids,"
        " scores, tokens) VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (store_id, chat_id, turn_seq, person, list(refs), list(scores), tokens),
    )
