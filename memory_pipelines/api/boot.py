"""The boot window of a chat: all its history within a token budget (see core.boot)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from itertools import groupby

from memory_pipelines.core import boot, pyramid
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.types import BootRecord, BootWindow, Chunk, Turn
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import EVERYONE, Everyone, Reader


class _Records:
    """Records of one chat fetched by (level, seq) in runs, each once, priced in tokens."""

    def __init__(self, conn: Conn, chat_id: int, embedder: Embedder) -> None:
        self.conn, self.chat_id, self.embedder = conn, chat_id, embedder
        self.rows: dict[boot.Unit, Turn | Chunk] = {}
        self.text_tokens: dict[boot.Unit, int] = {}

    def _fetch(self, units: Sequence[boot.Unit]) -> None:
        todo = sorted(u for u in units if u not in self.rows)
        # Consecutive seqs of one level come back in one query.
        for _, run in groupby(enumerate(todo), key=lambda iu: (iu[1][0], iu[1][1] - iu[0])):
            got = [u for _, u in run]
            level, first, last = got[0][0], got[0][1], got[-1][1]
            if level == 0:
                for t in turns_db.turns_between(self.conn, self.chat_id, first, last):
                    self.rows[(0, t.seq)] = t
            else:
                for c in chunks_db.chunks_between(self.conn, self.chat_id, level, first, last):
                    self.rows[(level, c.seq)] = c

    def cost(self, units: Sequence[boot.Unit]) -> list[int]:
        """Tokens of each record with its full frame (dated), an upper bound of its line."""
        self._fetch(units)
        out = []
        for u in units:
            rec = self.rows[u]
            if u not in self.text_tokens:
                self.text_tokens[u] = self.embedder.count_tokens(_text(rec))
            out.append(self.text_tokens[u] + self.embedder.count_tokens(_frame(rec, None)))
        return out


def _text(rec: Turn | Chunk) -> str:
    """What a record shows in the window: a turn's words on one line, a chunk's summary."""
    return " ".join(rec.text.split()) if isinstance(rec, Turn) else rec.summary


def _frame(rec: Turn | Chunk, prev_day: str | None) -> str:
    if isinstance(rec, Chunk):
        return boot.chunk_frame(
            rec.level, rec.from_seq, rec.to_seq, rec.period_start, rec.period_end
        )
    # A turn's date is said once per day: the records before it already carry it.
    same = prev_day == boot.day(rec.created_at)
    return boot.turn_frame(rec.seq, rec.speaker or rec.role, None if same else rec.created_at)


def _boot_record(rec: Turn | Chunk, frame: str, text_tokens: int, frame_tokens: int) -> BootRecord:
    text = _text(rec)
    turn = isinstance(rec, Turn)
    return BootRecord(
        kind="turn" if turn else "chunk",
        id=rec.id,
        level=rec.level if isinstance(rec, Chunk) else 0,
        seq=rec.seq,
        from_seq=rec.from_seq if isinstance(rec, Chunk) else rec.seq,
        to_seq=rec.to_seq if isinstance(rec, Chunk) else rec.seq,
        period_start=rec.period_start if isinstance(rec, Chunk) else rec.created_at,
        period_end=rec.period_end if isinstance(rec, Chunk) else rec.created_at,
        speaker=(rec.speaker or rec.role) if isinstance(rec, Turn) else "",
        text=text,
        line=f"{frame} {text}",
        frame_tokens=frame_tokens,
        # Word pieces never span a space, so frame and text tokens add up exactly.
        tokens=text_tokens + frame_tokens,
    )


def boot_window(
    db: Database,
    store_id: str,
    chat: str,
    budget_tokens: int,
    embedder: Embedder,
    reader: Reader = EVERYONE,
    on_read: Callable[[Conn, list[str]], None] | None = None,
) -> BootWindow:
    """A chat's whole history within `budget_tokens`: the newest turns raw, older history as
    level-1 summaries, older still as level 2 and up (whatever the rollup has built so far).

    Returns the `records` oldest first (each a turn or chunk with its level, seqs, period,
    speaker, text, line and tokens), `text` (the lines joined), `tokens`, `frame_tokens`,
    `overhead` (frame tokens / tokens), `complete` (every turn is represented) and `dropped`
    (oldest records left out when even the coarsest view does not fit). Tokens are word
    pieces of the embedder's tokenizer. A `reader` (a person, or None for shared only) may
    open a shared chat or their own: another person's chat is NotFound, as a missing one.
    `on_read(conn, refs)` gets the records of the window as kind:id in the transaction that
    read them (the HTTP API audits the read there; if it raises, nothing is returned).
    """
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
        raise ValidationError("budget_tokens", f"must be a positive integer, got {budget_tokens!r}")
    id_field("chat", chat)
    with db.connection() as conn, conn.transaction() if on_read else nullcontext():
        if isinstance(reader, Everyone):
            chat_id = turns_db.get_chat(conn, store_id, chat).chat_id
        else:  # a turn for a person reads a shared chat or their own, nobody else's
            stores_db.require_person(conn, store_id, reader)
            chat_id = turns_db.check_reader(conn, store_id, chat, reader)
        [state] = chunks_db.pyramid_states(conn, store_id, chat_id)
        records = _Records(conn, chat_id, embedder)
        fitted = boot.fit(pyramid.cover(state.turns, state.built), records.cost, budget_tokens)
        if on_read is not None:
            on_read(
                conn, [f"{'chunk' if u[0] else 'turn'}:{records.rows[u].id}" for u in fitted.units]
            )
    out: list[BootRecord] = []
    prev_day: str | None = None
    for unit in fitted.units:
        rec = records.rows[unit]
        frame = _frame(rec, prev_day)
        out.append(
            _boot_record(rec, frame, records.text_tokens[unit], embedder.count_tokens(frame))
        )
        prev_day = boot.day(out[-1].period_end)
    tokens = sum(r.tokens for r in out)
    frame_tokens = sum(r.frame_tokens for r in out)
    return BootWindow(
        chat=chat,
        budget_tokens=budget_tokens,
        records=out,
        text="\n".join(r.line for r in out),
        tokens=tokens,
        frame_tokens=frame_tokens,
        overhead=round(frame_tokens / tokens, 4) if tokens else 0.0,
        complete=fitted.complete,
        dropped=fitted.dropped,
    )
