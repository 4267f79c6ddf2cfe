"""The one way the sentence readers compile their patterns: case-insensitive."""

from __future__ import annotations

import re


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)
