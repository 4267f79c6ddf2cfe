"""One way for extraction tests to run a chat window: turns as (speaker, role, text), said on
one day, every name read as "he"; the items' (category, text)."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.extract import WindowTurn, extract_window

SAID = datetime(2025, 6, 2, tzinfo=UTC)


def window_items(*turns: tuple[str, str, str]) -> list[tuple[str, str]]:
    window = [WindowTurn(n, role, who, text, SAID) for n, (who, role, text) in enumerate(turns, 1)]
    return [
        (c["category"], c["context"]) for c in extract_window(window, pronoun_of=lambda n: "he")
    ]
