"""Closed vocabularies shared by validation, the link graph and the judge."""

from __future__ import annotations

LINK_TYPES: tuple[str, ...] = (
    "relates_to",
    "caused_by",
    "supersedes",
    "decided_in",
    "part_of",
    "owned_by",
    "discussed_in",
)
OBJECT_KINDS: tuple[str, ...] = ("item", "chunk", "turn", "chat")
STATES: tuple[str, ...] = ("current", "superseded", "archived")
ORIGINS: tuple[str, ...] = ("explicit", "derived", "outside")
SOURCES: tuple[str, ...] = ("user", "machine")
COMMITMENT_STATUSES: tuple[str, ...] = ("open", "fulfilled", "cancelled")
ROLES: tuple[str, ...] = ("user", "assistant", "system", "tool")
STABLE_CATEGORIES: tuple[str, ...] = ("preference", "decision", "fact", "lesson", "commitment")
# Background jobs that ship disabled and activate one at a time behind an evaluation.
GATED_JOBS: tuple[str, ...] = ("reflection", "evolution", "decay")
