"""Closed vocabularies shared by validation, the record types, the link graph and the judge.

Each is a Literal (what the record types in core/types declare) and the tuple of its values
(what validation lists in its errors), one from the other."""

from __future__ import annotations

from typing import Literal, get_args

LinkType = Literal[
    "relates_to", "caused_by", "supersedes", "decided_in", "part_of", "owned_by", "discussed_in"
]
ObjectKind = Literal["item", "chunk", "turn", "chat"]
State = Literal["current", "superseded", "archived"]
Origin = Literal["explicit", "derived", "outside"]
Source = Literal["user", "machine"]
CommitmentStatus = Literal["open", "fulfilled", "cancelled"]
Role = Literal["user", "assistant", "system", "tool"]

LINK_TYPES: tuple[str, ...] = get_args(LinkType)
OBJECT_KINDS: tuple[str, ...] = get_args(ObjectKind)
STATES: tuple[str, ...] = get_args(State)
ORIGINS: tuple[str, ...] = get_args(Origin)
SOURCES: tuple[str, ...] = get_args(Source)
COMMITMENT_STATUSES: tuple[str, ...] = get_args(CommitmentStatus)
ROLES: tuple[str, ...] = get_args(Role)
STABLE_CATEGORIES: tuple[str, ...] = ("preference", "decision", "fact", "lesson", "commitment")
# Background jobs that ship disabled and activate one at a time behind an evaluation.
GATED_JOBS: tuple[str, ...] = ("reflection", "evolution", "decay")
