"""Which turns of a chat are ready for extraction, grouped into windows by the settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memory_pipelines.core.settings import Extraction


@dataclass(frozen=True)
class ChatState:
    chat_id: int
    key_id: str | None
    total_turns: int
    covered_to: int  # last seq already in a window (0: none)
    last_seq: int
    last_turn_at: datetime
    first_seq_in_lookback: int  # first seq not older than the lookback (1 without a limit)


def chat_selected(chat: ChatState, settings: Extraction) -> bool:
    """The conversation filter: keys, minimum number of messages."""
    if settings.keys and chat.key_id not in settings.keys:
        return False
    return chat.total_turns >= settings.min_messages


def windows_for(chat: ChatState, settings: Extraction, now: datetime) -> list[tuple[int, int]]:
    """(from_seq, to_seq) of new windows: every full batch; the tail once the chat is quiet."""
    if not chat_selected(chat, settings):
        return []
    start = max(chat.covered_to + 1, chat.first_seq_in_lookback)
    size = max(1, settings.batch_size)
    out = []
    while start + size - 1 <= chat.last_seq:
        out.append((start, start + size - 1))
        start += size
    quiet = now - chat.last_turn_at >= timedelta(minutes=settings.quiet_minutes)
    if start <= chat.last_seq and quiet:
        out.append((start, chat.last_seq))
    return out
