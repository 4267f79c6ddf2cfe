"""The one way the sentence readers compile their patterns: case-insensitive, with the word
boundary that starts many alternatives tested once (`shared_boundary`)."""

from __future__ import annotations

import re

_BOUNDARY = r"\b"


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(shared_boundary(pattern), re.IGNORECASE)


def shared_boundary(pattern: str) -> str:
    r"""The same pattern with each run of top-level alternatives that begin with a word
    boundary written as one: `\bmaybe\b|\bmight\b|^if` becomes `\b(?:maybe\b|might\b)|^if`.

    It matches the same text at the same places: the alternatives and their order are kept, and
    the boundary is tested where it was, before each of them. Python's engine tries every
    alternative at every position of the text; shared, the boundary turns most positions away
    at once, which makes the big hedge and sentence-kind patterns about twice as fast."""
    if pattern.startswith("(?") and pattern[2:3].isalpha():
        return pattern  # global inline flags ("(?x)") must stay first, and may change the syntax
    out: list[str] = []
    run: list[str] = []
    for branch in top_level_alternatives(pattern):
        if branch.startswith(_BOUNDARY):
            run.append(branch[len(_BOUNDARY) :])
            continue
        out += _joined(run)
        run = []
        out.append(branch)
    out += _joined(run)
    return "|".join(out)


def _joined(run: list[str]) -> list[str]:
    if len(run) < 2:
        return [_BOUNDARY + b for b in run]
    return [_BOUNDARY + "(?:" + "|".join(run) + ")"]


def top_level_alternatives(pattern: str) -> list[str]:
    r"""pattern split at each `|` outside groups and character classes (`[|]`, `\|` and
    `(a|b)` do not split)."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(pattern, i)
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    return [*parts, pattern[start:]]


def _class_end(pattern: str, i: int) -> int:
    """Where the character class opened at pattern[i] closes; a `]` first in it is a member."""
    j = i + 1
    if pattern[j : j + 1] == "^":
        j += 1
    if pattern[j : j + 1] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j
