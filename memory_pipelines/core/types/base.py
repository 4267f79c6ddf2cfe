"""What every record type shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A stored record as a caller sees it: typed, read-only, and never with its vector. A
    record type's fields are its table's columns (the store derives its SELECT lists from them),
    so adding a column to the type is what makes the store read it."""

    model_config = ConfigDict(frozen=True)


class Result(BaseModel):
    """What an API call returns besides records (counts, outcomes), read-only."""

    model_config = ConfigDict(frozen=True)
