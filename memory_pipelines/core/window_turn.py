"""A turn as extraction sees it (core/extract.py and the reads across turns it makes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

# The speaker's pronoun (she, he or they), as the backend judges it from the name.
PronounOf = Callable[[str], str]


@dataclass(frozen=True)
class WindowTurn:
    """A turn as extraction sees it."""

    seq: int
    role: str
    speaker: str
    text: str
    created_at: datetime
    embedding: np.ndarray | None = None  # the stored one, so no text is embedded twice
    sentences: Mapping[str, np.ndarray] = field(default_factory=dict)  # sentence -> vector
    # Said before the window, shown for what the window's turns answer, restate or point back
    # to: read, never extracted from (its own window extracted it).
    context: bool = False

    @property
    def who(self) -> str:
        """Its speaker's name, or what its role calls them."""
        return self.speaker or ("User" if self.role == "user" else "Assistant")
