"""The boot window of a chat: all its history within a token budget (see core.boot)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from memory_pipelines.core import boot, pyramid
from memory_pipelines.core.inputs import id_field
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import EVERYONE, Everyone, Reader


class _Records:
    """Records of one chat fetched by (level, seq) in runs, each once, priced in tokens."""

    def __init__(self, conn: Conn, chat_id: int, embedder: Embedder) -> None:
        self.conn, self.chat_id, self.embedder = conn, chat_id, embedder
        self.rows: dict[boot.Unit, dict[str, Any]] = {}

    def _fetch(self, units: Sequence[boot.Unit]) -> None:
        todo = sorted(u for u in units if u not in self.rows)
        # Consecutive seqs of one level come back in one query.
        for _, run in groupby(enumerate(todo), key=lambda iu: (iu[1][0], iu[1][1] - iu[0])):
            got = [u for _, u in run]
            level, first, last = got[0][0], got[0][1], got[-1][1]
            if level == 0:
                for r in chunks_db.turns_between(self.conn, self.chat_id, first, last):
                    self.rows[(0, r["seq"])] = _turn(r)
            else:
                for r in chunks_db.chunks_between(self.conn, self.chat_id, level, first, last):
                    self.rows[(level, r["seq"])] = _chunk(r)

    def cost(self, units: Sequence[boot.Unit]) -> list[int]:
        """Tokens of each record with its full frame (dated), an upper bound of its line."""
        self._fetch(units)
        out = []
        for u in units:
            rec = self.rows[u]
            rec.setdefault("text_tokens", self.embedder.count_tokens(rec["text"]))
            out.append(rec["text_tokens"] + self.embedder.count_tokens(_frame(rec, None)))
        return out


def _turn(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "turn",
        "id": r["turn_id"],
        "level": 0,
        "seq": r["seq"],
        "from_seq": r["seq"],
        "to_seq": r["seq"],
        "period_start": r["created_at"],
        "period_end": r["created_at"],
        "speaker": r["speaker"] or r["role"],
        "text": " ".join(r["text"].split()),
    }


def _chunk(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "chunk",
        "id": r["chunk_id"],
        "level": r["level"],
        "seq": r["seq"],
        "from_seq": r["from_seq"],
        "to_seq": r["to_seq"],
        "period_start": r["period_start"],
        "period_end": r["period_end"],
        "speaker": "",
        "text": r["summary"],
    }


def _frame(rec: dict[str, Any], prev_day: str | None) -> str:
    if rec["kind"] == "chunk":
        return boot.chunk_frame(
            rec["level"], rec["from_seq"], rec["to_seq"], rec["period_start"], rec["period_end"]
        )
    # A turn's date is said once per day: the records before it already carry it.
    same = prev_day == boot.day(rec["period_start"])
    return boot.turn_frame(rec["seq"], rec["speaker"], None if same else rec["period_start"])


def boot_window(
    db: Database,
    store_id: str,
    chat: str,
    budget_tokens: int,
    embedder: Embedder,
    reader: Reader = EVERYONE,
) -> dict[str, Any]:
    """A chat's whole history within `budget_tokens`: the newest turns raw, older history as
    level-1 summaries, older still as level 2 and up (whatever the rollup has built so far).

    Returns `records` oldest first (each with kind turn/chunk, id, level, seq, from_seq,
    to_seq, period_start, period_end, speaker, text, line, tokens, frame_tokens), `text` (the
    lines joined), `tokens`, `frame_tokens`, `overhead` (frame tokens / tokens), `complete`
    (every turn is represented) and `dropped` (oldest records left out when even the coarsest
    view does not fit). Tokens are word pieces of the embedder's tokenizer. A `reader` (a
    person, or None for shared only) may open a shared chat or their own: another person's
    chat is NotFound, as a missing one.
    """
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
        raise ValidationError("budget_tokens", f"must be a positive integer, got {budget_tokens!r}")
    id_field("chat", chat)
    with db.connection() as conn:
        if isinstance(reader, Everyone):
            chat_id = turns_db.chat_id_of(conn, store_id, chat)
        else:  # a turn for a person reads a shared chat or their own, nobody else's
            chat_id = turns_db.check_reader(conn, store_id, chat, reader)
        [state] = chunks_db.pyramid_states(conn, store_id, chat_id)
        records = _Records(conn, chat_id, embedder)
        fitted = boot.fit(pyramid.cover(state.turns, state.built), records.cost, budget_tokens)
    out: list[dict[str, Any]] = []
    prev_day: str | None = None
    for unit in fitted.units:
        rec = dict(records.rows[unit])
        frame = _frame(rec, prev_day)
        rec["frame_tokens"] = embedder.count_tokens(frame)
        # Word pieces never span a space, so frame and text tokens add up exactly.
        rec["tokens"] = rec.pop("text_tokens") + rec["frame_tokens"]
        rec["line"] = f"{frame} {rec['text']}"
        prev_day = boot.day(rec["period_end"])
        out.append(rec)
    tokens = sum(r["tokens"] for r in out)
    frame_tokens = sum(r["frame_tokens"] for r in out)
    return {
        "chat": chat,
        "budget_tokens": budget_tokens,
        "records": out,
        "text": "\n".join(r["line"] for r in out),
        "tokens": tokens,
        "frame_tokens": frame_tokens,
        "overhead": round(frame_tokens / tokens, 4) if tokens else 0.0,
        "complete": fitted.complete,
        "dropped": fitted.dropped,
    }
