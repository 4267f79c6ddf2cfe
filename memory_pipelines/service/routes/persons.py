"""PUT and GET /v1/stores/{store}/persons: the persons a store's records can be for
(administer_settings: who the store holds is not for a key limited to one of them)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Response
from pydantic import BaseModel, Field

from memory_pipelines.api.memory import Memory
from memory_pipelines.service.errors import documented
from memory_pipelines.service.models import Body, answer
from memory_pipelines.service.security import Guard, require

router = APIRouter(tags=["persons"])


class PersonIn(Body):
    name: str = Field("", max_length=200, description="a display name (optional)")


class PersonOut(BaseModel):
    person: str = Field(description="the person's id, as records, chats and keys name them")
    name: str = Field(description="the display name, '' when none was given")


class PersonList(BaseModel):
    persons: list[PersonOut]


@router.put(
    "/v1/stores/{store}/persons/{person:path}",
    response_model=PersonOut,
    responses=documented(401, 403, 404, 413, 422, 429, 503),
)
def add_person(
    store: str,
    person: Annotated[str, Path(min_length=1, max_length=100, description="the person's id")],
    guard: Annotated[Guard, Depends(require("administer_settings"))],
    body: PersonIn,
) -> Response:
    """Add a person to the store, so records, chats and keys can be for them (as
    `Memory.add_person`); the body `{}` or `{"name": "..."}`. Idempotent: adding one again
    keeps it, and a name sent replaces its name."""
    memory = Memory(store, db=guard.db, create=False)
    memory.add_person(person, body.name)
    [row] = [p for p in memory.persons() if p["person"] == person]
    return answer(PersonOut(**row))


@router.get(
    "/v1/stores/{store}/persons",
    response_model=PersonList,
    responses=documented(401, 403, 404, 422, 429, 503),
)
def list_persons(
    store: str, guard: Annotated[Guard, Depends(require("administer_settings"))]
) -> Response:
    """The store's persons, by id."""
    rows = Memory(store, db=guard.db, create=False).persons()
    return answer(PersonList(persons=[PersonOut(**r) for r in rows]))
