"""Conversation files: LoCoMo samples and JSON Lines of turns, parsed into plain chats."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_pipelines.core.inputs import id_field, validate_turn
from memory_pipelines.core.records import show
from memory_pipelines.errors import ValidationError


@dataclass
class Chat:
    external_id: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    # Where each turn came from, as its errors name it: "line 290: turns." in a JSON Lines
    # file, "[0].conversation.session_3[4]." in a LoCoMo file.
    where: list[str] = field(default_factory=list)

    def where_of(self, i: int) -> str:
        return self.where[i] if i < len(self.where) else f"chat {self.external_id} turns[{i}]."


def parse_locomo_datetime(value: Any, where: str = "session_date_time") -> datetime:
    """'1:56 pm on 8 May, 2023' -> 2023-05-08T13:56:00+00:00."""
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        dt = datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        raise ValidationError(
            where, f"expected like '1:56 pm on 8 May, 2023', got {show(value)}"
        ) from None
    return dt.replace(tzinfo=UTC)


def locomo_turn_text(turn: dict[str, Any]) -> Any:
    """The turn's text with its image caption appended, as the evaluation protocol says (a text
    that is not a string is left for the turn's validation to name)."""
    text = turn.get("text", "")
    caption = turn.get("blip_caption")
    return f"{text} [image: {caption}]" if caption and isinstance(text, str) else text


def locomo_chats(samples: list[dict[str, Any]]) -> list[Chat]:
    """One chat per sample: all sessions in order, turns dated by their session's date_time."""
    chats = []
    for s_i, sample in enumerate(samples):
        conv = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(conv, dict):
            raise ValidationError(f"[{s_i}].conversation", "missing: not a LoCoMo sample")
        sessions = sorted(
            (int(m.group(1)), key)
            for key in conv
            if (m := re.fullmatch(r"session_(\d+)", key)) and isinstance(conv[key], list)
        )
        sample_id = sample.get("sample_id") or f"locomo-{s_i}"
        chat = Chat(
            external_id=id_field(f"[{s_i}].sample_id", sample_id),
            title=f"{conv.get('speaker_a', '')} & {conv.get('speaker_b', '')}",
        )
        for _, key in sessions:
            path = f"[{s_i}].conversation.{key}"
            when = parse_locomo_datetime(conv.get(f"{key}_date_time"), f"{path}_date_time")
            for t_i, turn in enumerate(conv[key]):
                if not isinstance(turn, dict):
                    raise ValidationError(f"{path}[{t_i}]", "must be an object with text")
                chat.turns.append(
                    {
                        "text": locomo_turn_text(turn),
                        "role": "user",
                        "speaker": turn.get("speaker", ""),
                        "created_at": when,
                        "external_id": turn.get("dia_id"),
                    }
                )
                chat.where.append(f"{path}[{t_i}].")
        chats.append(chat)
    return chats


def json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank line; a line that is not JSON is named."""
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"line {n}", f"not valid JSON ({exc.msg})") from None


def jsonl_chats(lines: Iterable[str], default_chat: str = "default") -> list[Chat]:
    """JSON Lines, one turn per line: {"chat", "text", "role", "speaker", "created_at",
    "external_id", "trace_ref"}; only text is required. Chats keep first-seen order."""
    chats: dict[str, Chat] = {}
    for n, obj in json_lines(lines):
        if not isinstance(obj, dict):
            raise ValidationError(f"line {n}", "each line must be a JSON object (one turn)")
        chat_id = id_field(f"line {n}: turns.chat", obj.pop("chat", default_chat))
        chat = chats.setdefault(chat_id, Chat(external_id=chat_id))
        chat.turns.append(obj)
        chat.where.append(f"line {n}: turns.")
    return list(chats.values())


def check_chats(chats: list[Chat]) -> None:
    """Every turn of every chat checked as write_turns will check it, naming the file's line
    (or LoCoMo path), before a single turn is written: an import is all or nothing."""
    for chat in chats:
        id_field("chat", chat.external_id)
        seen: dict[str, int] = {}
        for i, turn in enumerate(chat.turns):
            where = chat.where_of(i)
            ext = validate_turn(turn, where).external_id
            if ext is not None:
                if ext in seen:
                    raise ValidationError(
                        f"{where}external_id",
                        f"{ext!r} repeats {chat.where_of(seen[ext]).rstrip('. ')} of chat "
                        f"{chat.external_id!r}: one turn per external id",
                    )
                seen[ext] = i


def read_text(path: Path) -> str:
    """A file's text; a clear error when it cannot be read or is not UTF-8 (naming the line
    and the byte)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValidationError(str(path), f"cannot be read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - data.rfind(b"\n", 0, exc.start)
        raise ValidationError(
            f"line {line}",
            f"is not UTF-8 (byte 0x{data[exc.start]:02x} at byte {column} of the line);"
            " save the file as UTF-8",
        ) from None


def parse_json(text: str) -> Any:
    """One JSON document; a clear error naming the line and column where it breaks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        ends = " - the file ends early (truncated?)" if exc.pos >= len(text.rstrip()) else ""
        raise ValidationError(
            f"line {exc.lineno}", f"not valid JSON ({exc.msg} at column {exc.colno}){ends}"
        ) from None


def _lines_of_json(text: str) -> bool:
    """Whether a file not named .jsonl holds JSON Lines: not one JSON document, but its first
    line is one object ("turns.txt" had been read as LoCoMo JSON: "line 2: not valid JSON")."""
    try:
        whole = json.loads(text)
        # one line of JSON Lines: a turn, not a LoCoMo sample
        return isinstance(whole, dict) and "text" in whole and "conversation" not in whole
    except json.JSONDecodeError as exc:
        if not exc.msg.startswith("Extra data"):
            return False
    first = text.lstrip().partition("\n")[0]
    try:
        return isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        return False


def load_chats(path: Path, fmt: str = "auto") -> tuple[list[Chat], list[Any]]:
    """Chats from a file, plus the raw LoCoMo samples (empty for JSON Lines); every turn is
    checked (check_chats), so what loads can be written whole."""
    if fmt not in ("auto", "locomo", "jsonl"):
        raise ValidationError("format", f"must be auto, locomo or jsonl, got {fmt!r}")
    text = read_text(path)
    if fmt == "auto":
        fmt = "jsonl" if path.suffix in (".jsonl", ".ndjson") or _lines_of_json(text) else "locomo"
    if fmt == "jsonl":
        chats, samples = jsonl_chats(text.split("\n")), []
    else:
        samples = parse_json(text)
        if isinstance(samples, dict):
            samples = [samples]
        if not isinstance(samples, list):
            raise ValidationError("file", "must hold a LoCoMo sample or a list of them")
        chats = locomo_chats(samples)
    check_chats(chats)
    return chats, samples
