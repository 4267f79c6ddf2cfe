"""How auto-recall hits reach the model: a synthetic `run_cell` call whose code is the literal
recall idiom, a digest-shaped result, and the records as data, one JSON line each, in a message
of their own (never a system instruction)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from memory_pipelines.core.types import Commitment

RECALL_IDIOM = (
    'r = use("agent:recall@v1").recall(c, space)\n'
    'r.search({query}, scopes=["agent", "history", "basic", "email"])'
)


# Characters a record must never show raw in the data message: the envelope's brackets (so no
# record can close or open `<untrusted>` / `[memory]`), the line separators JSON leaves raw
# (one record is one line), and lone surrogates (the message must encode as UTF-8).
_UNSAFE = re.compile("[<>\\[\\]\u0085\u2028\u2029\ud800-\udfff]")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def data_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON whose strings show none of the envelope's characters:
    they are written as JSON unicode escapes (`\\u003c` for `<`), which read back the same."""
    line = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return _STRING.sub(lambda m: _UNSAFE.sub(lambda c: f"\\u{ord(c.group()):04x}", m.group()), line)


def _day(at: Any) -> str | None:
    return at.date().isoformat() if isinstance(at, datetime) else (str(at)[:10] if at else None)


def memory_line(hit: dict[str, Any]) -> dict[str, Any]:
    """A memory hit as a distilled fact with its provenance date and confidence."""
    return {
        "type": "memory",
        "ref": f"item:{hit['id']}",
        "fact": hit["text"],
        "category": hit.get("category"),
        "date": _day(hit.get("at")),
        "confidence": hit.get("confidence"),
    }


def history_line(hit: dict[str, Any]) -> dict[str, Any]:
    """A history hit as a pointer to related past discussion, with a drill-down handle."""
    who = hit.get("speaker")
    text = f"{who}: {hit['text']}" if who else hit["text"]
    return {
        "type": "related past discussion",
        "ref": f"{hit['kind']}:{hit['id']}",
        "excerpt": text[:300],
        "date": _day(hit.get("at")),
        "drill_down": f'r.drill_down("{hit["kind"]}:{hit["id"]}")',
    }


def passage_line(hit: dict[str, Any]) -> dict[str, Any]:
    """A document or an email of the space: its title (an email's sender), an excerpt and a
    handle that reads it whole (hydrate; it has no conversation to drill into)."""
    ref = f"{hit['kind']}:{hit['id']}"
    return {
        "type": hit["kind"],  # "document" or "email"
        "ref": ref,
        "title": hit.get("title"),
        "sender": hit.get("sender"),
        "excerpt": hit["text"][:300],
        "date": _day(hit.get("at")),
        "read": f'r.hydrate(["{ref}"])',
    }


def commitment_line(c: Commitment) -> dict[str, Any]:
    """An open commitment the turn carries: the promise, when it is due, to whom."""
    return {
        "type": "open commitment",
        "ref": f"item:{c.item_id}",
        "promise": c.context,
        "due": c.due_at.isoformat() if c.due_at else None,
        "owed_to": c.owed_to,
    }


def render(query: str, lines: list[dict[str, Any]], trust_envelope: bool) -> list[dict[str, Any]]:
    """Chat messages to prepend to the turn: the synthetic call, its digest, the data."""
    code = RECALL_IDIOM.format(query=json.dumps(query))
    kinds: dict[str, int] = {}
    for line in lines:
        kinds[line["type"]] = kinds.get(line["type"], 0) + 1
    digest = ", ".join(f"{n} {t}" for t, n in kinds.items()) or "nothing relevant"
    body = "\n".join(data_line(line) for line in lines)
    data = (
        f'<untrusted source="memory">\n{body}\n</untrusted>'
        if trust_envelope
        else f"[memory]\n{body}\n[/memory]"
    )
    return [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "autorecall",
                    "type": "function",
                    "function": {"name": "run_cell", "arguments": json.dumps({"code": code})},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "autorecall",
            "content": f"{len(lines)} records: {digest}. Evidence from memory, possibly stale; "
            "the records follow as data.",
        },
        {"role": "user", "content": data},
    ]


def injected_text(messages: list[dict[str, Any]]) -> str:
    """What the messages put before the model: their contents and the synthetic call's
    arguments, one after another (what auto-recall's budget counts)."""
    parts: list[str] = []
    for message in messages:
        parts.append(message.get("content") or "")
        for call in message.get("tool_calls") or ():
            parts.append(call["function"]["arguments"])
    return "\n".join(parts)
