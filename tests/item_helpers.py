"""An Item built in memory for the pure functions that take one (merge, maintenance's union)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memory_pipelines.core.types import Item

NOW = datetime(2024, 5, 1, tzinfo=UTC)
DEFAULTS: dict[str, Any] = {
    "item_id": 1,
    "store_id": "s",
    "person_id": None,
    "category": "fact",
    "context": "",
    "body": "",
    "confidence": 5,
    "importance": None,
    "tags": [],
    "entities": [],
    "keywords": [],
    "edges": [],
    "metadata": {},
    "valid_from": NOW,
    "valid_until": None,
    "state": "current",
    "superseded_by": None,
    "contested": False,
    "contested_with": [],
    "source": "user",
    "origin": "explicit",
    "trusted": True,
    "written_by": "",
    "chat_id": None,
    "from_seq": None,
    "to_seq": None,
    "model": None,
    "fed_by": [],
    "status": None,
    "due_at": None,
    "owed_to": None,
    "access_count": 0,
    "last_recalled_at": None,
    "last_confirmed_at": None,
    "confirm_count": 0,
    "created_at": NOW,
    "updated_at": NOW,
}


def make_item(**fields: Any) -> Item:
    """An Item with these fields and plain defaults for the rest."""
    return Item(**{**DEFAULTS, **fields})
