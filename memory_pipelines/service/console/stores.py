"""Memory > Stores: the organisation's stores, one store's page with its settings cards (each
saved on its own), its extraction passes, and deleting a store (refused while extraction is on).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from memory_pipelines.api import stores as stores_api
from memory_pipelines.errors import ValidationError
from memory_pipelines.service.console import cards
from memory_pipelines.service.console.charts import pass_chart
from memory_pipelines.service.console.render import page, shown_or_refused
from memory_pipelines.service.console.session import (
    PATH,
    Admin,
    AdminForm,
    Administrator,
    ConsoleError,
)

router = APIRouter(prefix=PATH, include_in_schema=False)
HOME = "GET /console"  # the audit's endpoint of the Stores list
STORE = "GET /console/stores/{store}"
# `memory-pipelines dev` loads the definitions as this code location (dagster dev -m ...)
CODE_LOCATION = "memory_pipelines.definitions"


@router.get("")
def home(request: Request, who: Administrator) -> Response:
    """Memory > Stores: the organisation's stores, audited under the administrator's account."""
    with shown_or_refused():
        rows = stores_api.list_stores(who.db, who.principal, HOME)
    deleted = request.query_params.get("deleted", "")
    ours = who.actor.rsplit("/", 1)[0] + "/"  # any administrator of this organisation
    if deleted in {r["store"] for r in rows} or not (
        deleted and stores_api.deleted_by_actor(who.db, deleted, ours)
    ):
        deleted = ""
    return page(
        request,
        "stores.html",
        session=who.session,
        segment="stores",
        stores=rows,
        deleted=deleted,
    )


def dagster_links(request: Request, store_id: str) -> dict[str, str]:
    """Open collection (the conversation windows asset, at the store's partition) and Open
    pipeline (the extraction job) in the Dagster UI, whose address is the app's setting; none
    when it is not set. The Dagster UI shows every organisation's stores, partitions and run
    logs to whoever opens it: linked by default to where `dev` serves it, it took an
    administrator of one organisation to the others' (a console audit)."""
    base = str(getattr(request.app.state, "dagster_url", "") or "").rstrip("/")
    if not base:
        return {}
    partition = quote(store_id, safe="")
    return {
        "collection": f"{base}/assets/conversation_windows?view=partitions&partition={partition}",
        "pipeline": f"{base}/locations/{CODE_LOCATION}/jobs/extraction",
        "runs": f"{base}/runs?q%5B0%5D=tag%3Adagster%2Fpartition%3D{partition}",
    }


def _store_page(
    request: Request,
    who: Admin,
    store_id: str,
    status: int = 200,
    *,
    posted: tuple[str, dict[str, Any], str, str] | None = None,
    delete_error: str = "",
) -> Response:
    """The store's page; `posted` is a card sent back with its error: (card, values as typed,
    the field it is beside, the message)."""
    with shown_or_refused():
        detail = stores_api.store_detail(who.db, who.principal, store_id, STORE)
    values = {
        name: cards.form_values(name, getattr(detail.settings, name)) for name in cards.CARD_NAMES
    }
    errors: dict[str, dict[str, str]] = {}
    if posted is not None:
        card, typed, target, message = posted
        values[card] = typed
        errors[card] = {target: message}
    return page(
        request,
        "store.html",
        status,
        session=who.session,
        segment="stores",
        store=detail.overview,
        settings=detail.settings,
        passes=detail.passes,
        last_pass=detail.last_pass,
        decay_active=detail.decay_active,
        chart=pass_chart(detail.passes),
        values=values,
        errors=errors,
        cards=cards.SHOWN,
        saved=request.query_params.get("saved", ""),
        links=dagster_links(request, store_id),
        delete_error=delete_error,
    )


@router.get("/stores/{store_id}")
def store(request: Request, store_id: str, who: Administrator) -> Response:
    """One store: its settings cards and extraction passes (audited, no record ids)."""
    return _store_page(request, who, store_id)


@router.post("/stores/{store_id}/cards/{card}")
def save_card(request: Request, store_id: str, card: str, posted: AdminForm) -> Response:
    """Save one card: only its fields were sent. A bad value is shown beside its field in the
    card, with what was typed, and nothing is saved."""
    who, form = posted
    if card not in cards.CARD_NAMES:
        raise ConsoleError(404, "Not found", f"a store has no settings card {card!r}")
    with shown_or_refused():
        current = stores_api.settings_of(who.db, who.principal, store_id)
        try:
            raw = cards.card_json(card, getattr(current, card), form)
            stores_api.save_card(who.db, who.principal, store_id, card, raw, actor=who.actor)
        except ValidationError as exc:
            typed = cards.posted_values(card, form)
            target = cards.error_target(card, exc.field)
            message = f"{exc.field}: {exc.message}"
            return _store_page(request, who, store_id, 422, posted=(card, typed, target, message))
    url = f"{PATH}/stores/{quote(store_id, safe='')}?saved={card}#{card}"
    return RedirectResponse(url, status_code=303)


@router.post("/stores/{store_id}/delete")
def delete_store(request: Request, store_id: str, posted: AdminForm) -> Response:
    """Delete the store once its id is typed to confirm; refused while extraction is on."""
    who, form = posted
    if form.get("confirm", "").strip() != store_id:
        return _store_page(
            request,
            who,
            store_id,
            422,
            delete_error=f"Type the store's id, {store_id}, to confirm; nothing was deleted.",
        )
    with shown_or_refused():
        try:
            stores_api.delete_store_as(who.db, who.principal, store_id, actor=who.actor)
        except ValidationError as exc:
            return _store_page(request, who, store_id, 409, delete_error=exc.message)
    return RedirectResponse(f"{PATH}?deleted={quote(store_id, safe='')}", status_code=303)
