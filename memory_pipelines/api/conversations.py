"""One conversation read whole, a window of turns at a time: what a derived record's Trust and
origin card links to (the console's page under Traces). Audited on its own, with every turn
shown: a record's page shows only the ids of what fed it, the words are read here."""

from __future__ import annotations

from memory_pipelines.api.audit import record as audit_read
from memory_pipelines.api.strangers import ANOTHER, Strangers
from memory_pipelines.core.access import Principal
from memory_pipelines.core.records import int_field
from memory_pipelines.core.types import Chat, Turn
from memory_pipelines.core.types.base import Result
from memory_pipelines.errors import NotFound
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Database
from memory_pipelines.store.visibility import Reader, reads

WINDOW = 50  # turns a read shows
BEFORE = 5  # turns shown before the first one asked for (what led to it)
MAX_SEQ = 2**31 - 1


class Conversation(Result):
    """A window of a conversation's turns: `turns` from `first` to `last` of `total`, with the
    first seq of the window before (`earlier`) and after (`later`), None at either end."""

    chat: Chat
    turns: list[Turn]
    first: int
    last: int
    total: int
    earlier: int | None
    later: int | None


def read_conversation(
    db: Database,
    principal: Principal,
    store: str,
    chat_id: int,
    reader: Reader,
    *,
    start: int | None = None,
    endpoint: str,
) -> Conversation:
    """Turns of a chat of the store as `reader` may read them (a shared chat, or the reader's
    person's; every chat for EVERYONE), WINDOW at a time from `start` (default: the first;
    BEFORE turns ahead of it are shown too). NotFound, worded as for a chat that does not
    exist, for a chat the reader may not read. Audited with every turn shown."""
    int_field("chat_id", chat_id, 1, 2**63 - 1)
    if start is not None:
        int_field("start", start, 1, MAX_SEQ)
    with db.transaction() as conn:
        chat = turns_db.chat_by_id(conn, store, chat_id)
        if chat is None or not reads(reader, chat.person_id):
            raise NotFound(f"chat {chat_id} does not exist in store {store!r}")
        total = turns_db.last_seq(conn, chat.chat_id)
        first = max(1, (start or 1) - BEFORE) if total else 0
        last = min(total, first + WINDOW - 1)
        turns = turns_db.turns_between(conn, chat.chat_id, first, last) if total else []
        audit_read(
            conn,
            principal,
            endpoint,
            store,
            {"chat_id": chat.chat_id, "from": first, "to": last},
            [],
            [f"turn:{t.turn_id}" for t in turns],
        )
    if Strangers(db, principal, store).key(chat.key_id):  # the former owner's key
        chat = chat.model_copy(update={"key_id": ANOTHER})
    return Conversation(
        chat=chat,
        turns=turns,
        first=first,
        last=last,
        total=total,
        earlier=max(1, first - WINDOW + BEFORE) if first > 1 else None,
        later=last + 1 + BEFORE if last < total else None,
    )
