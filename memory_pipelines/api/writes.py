"""Writes through the HTTP API under a key: save, save with dedup, delete. Each checks the
key's rights for the person the record is for (a save in a chat is for the chat's person unless
it says), and the record remembers the key that wrote it ("Written by").

A record the key may not see is answered as one that does not exist (NotFound), and so is a
chat of a person the key may not write for: a key learns nothing of other persons' records.
"""

from __future__ import annotations

from typing import Any

from memory_pipelines.api import commitments
from memory_pipelines.api.access import Refused, own_store
from memory_pipelines.api.memory import Memory
from memory_pipelines.core.access import Principal, Request
from memory_pipelines.core.inputs import id_field, record_id
from memory_pipelines.core.types import Item, SaveResult, TurnWritten
from memory_pipelines.core.types.base import Result
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Database
from memory_pipelines.store.visibility import Reader, reads

PROVENANCE = ("chat", "turn_seq", "from_seq", "to_seq", "fed_by", "origin", "model")


class Deleted(Result):
    """A record really deleted (with its versions, embedding and links); the `delete` event on
    the feed names the key."""

    store: str
    item_id: int
    deleted: bool = True


def shared_hint(what: str, person: str | None) -> str:
    """What a refused write without a person was: a shared one (a key limited to persons
    writes for one of them); "" for a write for a person."""
    if person is not None:
        return ""
    return (
        f"{what} without `person` is shared with everyone; a key limited to persons writes for"
        " one of them: send `person`"
    )


def actor(principal: Principal) -> str:
    """How versions and events name the principal: `key <id>` or `account <id>`."""
    return principal.name


def write_turns(
    db: Database,
    embedder: Embedder | None,
    principal: Principal,
    store: str,
    chat: str,
    turns: list[dict[str, Any]],
    person: str | None,
) -> list[TurnWritten]:
    """Append turns to a conversation as this key: Refused unless it may write for `person`.
    A conversation id already taken by a chat of somebody the key may not write for is refused
    without naming whose it is (the chat's person is not the key's to learn). Another
    organisation's store is NotFound, as for a store that does not exist."""
    own_store(db, principal, store)
    decision = principal.decide(Request("write_memory", store, person))
    if not decision.allowed:
        raise Refused(decision, shared_hint("a conversation", person))
    if isinstance(chat, str):
        id_field("chat", chat)
        _not_foreign(db, principal, store, chat, person)
    memory = Memory(store, db=db, embedder=embedder, create=False)
    try:
        return memory.write_turns(chat, turns, person=person, key_id=principal.key_id)
    except ValidationError as e:
        if e.field == "person" and isinstance(chat, str):
            # The chat was made for someone else since the check: the refusal names them.
            _not_foreign(db, principal, store, chat, person)
        raise


def _not_foreign(
    db: Database, principal: Principal, store: str, chat: str, person: str | None
) -> None:
    """Refuse a conversation id held by a chat of somebody the key may not write for, without
    naming whose it is."""
    with db.connection() as conn:
        try:
            owner = turns_db.get_chat(conn, store, chat).person_id
        except NotFound:
            return
    if owner != person and not principal.decide(Request("write_memory", store, owner)).allowed:
        raise ValidationError(
            "chat",
            f"{chat!r} is the id of a conversation this key may not write in;"
            " use another conversation id",
        )


def authorize_save(
    db: Database, principal: Principal, store: str, fields: dict[str, Any]
) -> str | None:
    """The person a save of these fields is for, once the key may write for them: Refused
    unless it may; NotFound for a chat the key may not write in, and for another
    organisation's store (before anything of the store is read: its chats are not another
    organisation's to learn). A retry of a save under its Idempotency-Key passes this again
    before its first answer is replayed."""
    own_store(db, principal, store)
    if not isinstance(fields, dict):
        raise ValidationError("body", "must be an object")
    person = fields.get("person")
    chat = fields.get("chat")
    if isinstance(chat, str):
        id_field("chat", chat)
        with db.connection() as conn:
            owner = turns_db.get_chat(conn, store, chat).person_id
        if (
            owner is not None
            and not principal.decide(Request("write_memory", store, owner)).allowed
        ):
            raise NotFound(f"chat {chat!r} does not exist in store {store!r}")
        if "person" not in fields:
            person = owner
    decision = principal.decide(Request("write_memory", store, person))
    if not decision.allowed:
        raise Refused(decision, shared_hint("a record", person))
    return person if isinstance(person, str) else None


# Skips that say what the person's memory or history holds (the statement is said there
# already); the others come from the statement's own words or the turn's save budget.
_KNOWN = frozenset({"already_in_history", "restatement"})


def save(
    db: Database,
    embedder: Embedder | None,
    principal: Principal,
    store: str,
    fields: dict[str, Any],
    *,
    dedup: bool,
    request_id: str | None = None,
) -> SaveResult:
    """Save a record from the fields of a request (the item's and the provenance keywords of
    Memory.save), as this key, once `authorize_save` lets it.

    A key that may write a person's memory but not read it (an ingestion key) is answered only
    what its own statement decides: `saved` True when the memory holds the statement now
    (written, or found said already in history or a record: which, the records it met and
    the written record are not that key's to learn), False with `skipped` for a reason in the
    statement's own words (greeting, meta_chatter, speculation) or the turn's budget. It may not
    name records (edges, fed_by): whether an id is the person's is not its to learn either."""
    person = authorize_save(db, principal, store, fields)
    item = {k: v for k, v in fields.items() if k not in PROVENANCE}
    provenance = {k: v for k, v in fields.items() if k in PROVENANCE}
    may_read = principal.decide(Request("read_memory", store, person)).allowed
    if not may_read:
        for field in ("edges", "fed_by"):
            if (item if field == "edges" else provenance).get(field):
                raise ValidationError(
                    field,
                    "names records of a person this key may not read; a key that may only"
                    " write their memory saves without edges and fed_by",
                )
    memory = Memory(store, db=db, embedder=embedder, create=False)
    kwargs: dict[str, Any] = {
        **provenance,
        "written_by": actor(principal),
        "key_id": principal.key_id,
        "request_id": request_id,
    }
    result = memory.save_with_dedup(item, **kwargs) if dedup else memory.save(item, **kwargs)
    if may_read:
        return result
    if result.saved or result.skipped in _KNOWN:
        return SaveResult(saved=True)
    return SaveResult(saved=False, skipped=result.skipped)


def delete(db: Database, principal: Principal, store: str, item_id: int, reader: Reader) -> Deleted:
    """Really delete a record the reader may see (NotFound otherwise, as for a missing one),
    if the key may delete for the record's person (Refused naming the permit otherwise). The
    deletion is an event naming the key."""
    _may(db, principal, store, item_id, reader, "delete_memory")
    Memory(store, db=db, create=False).delete(item_id, actor=actor(principal))
    return Deleted(store=store, item_id=item_id)


class Closed(Result):
    """A commitment closed: its new status (a version and a `fulfil` or `cancel` event on the
    feed name the key). Not the record: closing is a write, and a key may write without
    being allowed to read."""

    store: str
    item_id: int
    status: str


def close_commitment(
    db: Database, principal: Principal, store: str, item_id: int, reader: Reader, status: str
) -> Closed:
    """Mark a commitment the reader may see `fulfilled` or `cancelled` (api.commitments: an
    open one only, else a ValidationError naming the field), if the key may write memory for
    its person (Refused otherwise); NotFound as for a missing record when the reader may not
    see it. To a key that may not read the record, the error says no more than that it is
    not an open commitment."""
    if status not in ("fulfilled", "cancelled"):
        raise ValidationError("status", f"must be fulfilled or cancelled, got {status!r}")
    record = _may(db, principal, store, item_id, reader, "write_memory")
    close = commitments.fulfil if status == "fulfilled" else commitments.cancel
    try:
        close(db, store, item_id, actor(principal))
    except ValidationError:
        if principal.decide(Request("read_memory", store, record.person_id)).allowed:
            raise
        raise ValidationError("status", f"item {item_id} is not an open commitment") from None
    return Closed(store=store, item_id=item_id, status=status)


def _may(
    db: Database, principal: Principal, store: str, item_id: int, reader: Reader, action: str
) -> Item:
    """NotFound, worded as for a missing record, unless the reader may see the record; Refused
    (naming the permit) unless the key may do `action` for the record's person."""
    own_store(db, principal, store)
    record_id("item_id", item_id)
    with db.connection() as conn:
        record = items_db.get_item(conn, item_id, store_id=store)
    if not reads(reader, record.person_id):
        raise NotFound(f"memory item {item_id} does not exist in store {store!r}")
    decision = principal.decide(Request(action, store, record.person_id))
    if not decision.allowed:
        raise Refused(decision)
    return record
