"""Conversation files: LoCoMo samples and JSON Lines of turns, parsed into plain chats."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_pipelines.errors import ValidationError


@dataclass
class Chat:
    external_id: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""


def parse_locomo_datetime(value: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> 2023-05-08T13:56:00+00:00."""
    try:
        dt = datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        raise ValidationError(
            "session_date_time", f"expected like '1:56 pm on 8 May, 2023', got {value!r}"
        ) from None
    return dt.replace(tzinfo=UTC)


def locomo_turn_text(turn: dict[str, Any]) -> str:
    """The turn's text with its image caption appended, as the evaluation protocol says."""
    text = str(turn.get("text", ""))
    caption = turn.get("blip_caption")
    return f"{text} [image: {caption}]" if caption else text


def locomo_chats(samples: list[dict[str, Any]]) -> list[Chat]:
    """One chat per sample: all sessions in order, turns dated by their session's date_time."""
    chats = []
    for s_i, sample in enumerate(samples):
        conv = sample.get("conversation")
        if not isinstance(conv, dict):
            raise ValidationError(f"[{s_i}].conversation", "missing: not a LoCoMo sample")
        sessions = sorted(
            (int(m.group(1)), key)
            for key in conv
            if (m := re.fullmatch(r"session_(\d+)", key)) and isinstance(conv[key], list)
        )
        chat = Chat(
            external_id=str(sample.get("sample_id") or f"locomo-{s_i}"),
            title=f"{conv.get('speaker_a', '')} & {conv.get('speaker_b', '')}",
        )
        for _, key in sessions:
            when = parse_locomo_datetime(conv[f"{key}_date_time"])
            for turn in conv[key]:
                chat.turns.append(
                    {
                        "text": locomo_turn_text(turn),
                        "role": "user",
                        "speaker": turn.get("speaker", ""),
                        "created_at": when,
                        "external_id": turn.get("dia_id"),
                    }
                )
        chats.append(chat)
    return chats


def jsonl_chats(lines: Iterator[str], default_chat: str = "default") -> list[Chat]:
    """JSON Lines, one turn per line: {"chat", "text", "role", "speaker", "created_at",
    "external_id", "trace_ref"}; only text is required. Chats keep first-seen order."""
    chats: dict[str, Chat] = {}
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"line {n}", f"not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise ValidationError(f"line {n}.text", "each line needs a string `text`")
        chat_id = str(obj.pop("chat", default_chat))
        chats.setdefault(chat_id, Chat(external_id=chat_id)).turns.append(obj)
    return list(chats.values())


def load_chats(path: Path, fmt: str = "auto") -> tuple[list[Chat], list[dict[str, Any]]]:
    """Chats from a file, plus the raw LoCoMo samples (empty for JSON Lines)."""
    if fmt not in ("auto", "locomo", "jsonl"):
        raise ValidationError("format", f"must be auto, locomo or jsonl, got {fmt!r}")
    if fmt == "auto":
        fmt = "jsonl" if path.suffix in (".jsonl", ".ndjson") else "locomo"
    with path.open(encoding="utf-8") as fh:
        if fmt == "jsonl":
            return jsonl_chats(iter(fh)), []
        samples = json.load(fh)
    if isinstance(samples, dict):
        samples = [samples]
    return locomo_chats(samples), samples
