"""Traces > a conversation: the turns of one chat, a window at a time, where a derived record's
Trust and origin card links to (the record's own turns marked). Opening it is audited on its
own, with every turn shown (api/conversations.py). Read-only."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response

from memory_pipelines.api import access
from memory_pipelines.api.conversations import read_conversation
from memory_pipelines.service.console.render import page, shown_or_refused
from memory_pipelines.service.console.session import PATH, Administrator, ConsoleError

router = APIRouter(prefix=PATH, include_in_schema=False)
ENDPOINT = "GET /console/traces/stores/{store}/chats/{chat_id}"


def _number(name: str, text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 2**31 - 1:
        raise ConsoleError(400, "This address cannot be shown", f"{name} must be a turn number")
    return int(text)


def conversation_url(
    store: str,
    chat_id: int,
    *,
    start: int | None = None,
    marked: tuple[int | None, int | None] = (None, None),
) -> str:
    """The address of a conversation's page: `start` the first turn asked for, `marked` the
    turns to mark (first, last)."""
    pairs = (("start", start), ("from", marked[0]), ("to", marked[1]))
    query = urlencode([(k, str(v)) for k, v in pairs if v is not None])
    return f"{PATH}/traces/stores/{store}/chats/{chat_id}" + (f"?{query}" if query else "")


@router.get("/traces/stores/{store_id}/chats/{chat_id}")
def conversation(request: Request, store_id: str, chat_id: str, who: Administrator) -> Response:
    """A conversation's turns, WINDOW at a time, the marked ones (a record's) highlighted."""
    if not chat_id.isdigit() or not 0 < int(chat_id) < 2**63:
        raise ConsoleError(404, "Not found", f"there is no conversation {chat_id!r}")
    q = request.query_params
    start = _number("start", q.get("start", ""))
    marked_from = _number("from", q.get("from", ""))
    marked_to = _number("to", q.get("to", "")) or marked_from
    with shown_or_refused():
        [reader] = access.readers_for(who.db, who.principal, "read_memory", store_id).values()
        view = read_conversation(
            who.db,
            who.principal,
            store_id,
            int(chat_id),
            reader,
            start=start or marked_from,
            endpoint=ENDPOINT,
        )
    marks = (marked_from, marked_to if marked_from else None)
    return page(
        request,
        "conversation.html",
        session=who.session,
        segment="records",
        view=view,
        store=store_id,
        marked=range(marked_from, (marked_to or marked_from) + 1) if marked_from else range(0),
        earlier_url=(
            conversation_url(store_id, view.chat.chat_id, start=view.earlier, marked=marks)
            if view.earlier
            else ""
        ),
        later_url=(
            conversation_url(store_id, view.chat.chat_id, start=view.later, marked=marks)
            if view.later
            else ""
        ),
    )
