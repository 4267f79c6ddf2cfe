"""GET and PATCH /v1/stores/{store}/settings: a store's settings cards (administer_settings)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from memory_pipelines.api import stores as stores_api
from memory_pipelines.core.skill import NAME
from memory_pipelines.service.errors import documented
from memory_pipelines.service.idempotent import IdempotencyKey, idempotent
from memory_pipelines.service.models import Settings, SettingsChange, answer
from memory_pipelines.service.security import Caller, Guard, database, require

router = APIRouter(tags=["settings"])
READ = "GET /v1/stores/{store}/settings"


@router.get(
    "/v1/stores/{store}/settings",
    response_model=Settings,
    responses=documented(401, 403, 404, 422, 429, 503),
)
def read_settings(
    store: str, guard: Annotated[Guard, Depends(require("administer_settings"))]
) -> Response:
    """Every card of the store's settings (the defaults where nothing was configured): decay
    per type, maintenance, search, commitments, extraction, save policy, trust envelope. The
    settings belong to the organisation, not to a key. Audited (who read them)."""
    return answer(
        Settings.model_validate(stores_api.read_settings(guard.db, guard.principal, store, READ))
    )


@router.patch(
    "/v1/stores/{store}/settings",
    response_model=Settings,
    responses=documented(401, 403, 404, 409, 413, 422, 429, 503),
)
def change_settings(
    store: str,
    body: SettingsChange,
    request: Request,
    guard: Annotated[Guard, Depends(require("administer_settings"))],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Change the cards sent, and in each only the fields sent; answers every card after the
    change. All or nothing: a bad value is a 422 naming `card.field` with what is allowed,
    and nothing is saved."""

    def write() -> Settings:
        changed = stores_api.change_settings(
            guard.db, store, body.model_dump(exclude_unset=True), actor=guard.principal.name
        )
        return Settings.model_validate(changed)

    return idempotent(request, guard, idempotency_key, body, 200, write)


class Skill(BaseModel):
    """A skill: text (Markdown) for an agent's instructions."""

    name: str = Field(description="the skill's name, `_memory`")
    format: Literal["markdown"] = "markdown"
    text: str = Field(description="the skill itself")


@router.get(
    "/v1/stores/{store}/skills/_memory",
    response_model=Skill,
    responses=documented(401, 403, 404, 422, 429, 503),
)
def memory_skill(store: str, request: Request, principal: Caller) -> Response:
    """The _memory skill: the save policy as an agent is taught it (what to save, what to skip,
    this store's budget of saves per turn, how to save), Markdown to put in the agent's
    instructions. The write path enforces the same policy. For any key that may act in the
    store; no record is read."""
    text = stores_api.memory_skill(database(request), principal, store)
    return answer(Skill(name=NAME, text=text))
