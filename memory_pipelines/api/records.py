"""Records as the console and the HTTP API read them: the Records list (one store or every
store the reader may use, the console's filters, keyset pages with the total), one record with
its life, trust and origin and who read it, and a record's history.

Every read names its reader (a Principal: a key, or an administrator account) and whose records
it may see in each store (`readers`: {store: EVERYONE, or a person}; api.access.readers_for
computes it from the principal's rights), and writes its read_audit row with the ids of exactly
the records returned in the transaction that read them: if that row cannot be written the read
raises AuditFailed and returns nothing.

    readers = access.readers_for(db, principal, "read_memory", store=None)
    page = list_records(db, principal, readers, record_filters(state="all", type="decision"))
    life = read_record(db, principal, "acme", page.records[0].item_id, readers["acme"])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from memory_pipelines.api.audit import record as audit_read
from memory_pipelines.api.strangers import Strangers
from memory_pipelines.core import decay as decay_math
from memory_pipelines.core.access import Principal
from memory_pipelines.core.confidence import as_unit
from memory_pipelines.core.inputs import record_id
from memory_pipelines.core.listing import FOREIGN_WRITER, RecordFilters, encode_cursor, written_by
from memory_pipelines.core.types import Item, ItemVersion
from memory_pipelines.core.types.records import (
    Feeder,
    ListedRecord,
    NamedRecord,
    ReadBy,
    RecordLife,
    RecordPage,
    RecordView,
    TrustOrigin,
)
from memory_pipelines.errors import NotFound
from memory_pipelines.store import audit as audit_db
from memory_pipelines.store import records as records_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import versions as versions_db
from memory_pipelines.store.db import Conn, Database
from memory_pipelines.store.visibility import Everyone, Reader, reads, redact_items

RECORDS = "GET /v1/records"
RECORD = "GET /v1/stores/{store}/records/{item_id}"
HISTORY = "GET /v1/stores/{store}/records/{item_id}/history"
MAX_READERS = 100


def list_records(
    db: Database,
    principal: Principal,
    readers: Mapping[str, Reader],
    filters: RecordFilters,
    *,
    endpoint: str = RECORDS,
    now: datetime | None = None,
) -> RecordPage:
    """One page of the Records list over the stores of `readers` (only `filters.store` when
    it names one, which must be among them), newest change first, with the total the filters
    match and the cursor of the next page. Audited: the page's ids, the filters and the stores
    and persons read as."""
    readers = _narrow(readers, filters.store)
    with db.transaction() as conn:
        page = read_page(conn, principal, readers, filters, now)
        audit_read(
            conn,
            principal,
            endpoint,
            filters.store,
            {**filters.audit(), "read_as": _read_as(readers)},
            [r.item_id for r in page.records],
        )
    return page


def read_page(
    conn: Conn,
    principal: Principal,
    readers: Mapping[str, Reader],
    filters: RecordFilters,
    now: datetime | None = None,
) -> RecordPage:
    """The page `list_records` returns, read on `conn` and not audited: list_records audits it
    in the same transaction (benchmarks/http.py reads it to compare with the endpoint)."""
    ids = records_db.page_ids(conn, readers, filters)
    more = len(ids) > filters.limit
    ids = ids[: filters.limit]
    records = _listed(conn, principal, readers, records_db.rows(conn, ids), now)
    total = records_db.count(conn, readers, filters)
    last = records[-1] if records else None
    cursor = encode_cursor(last.updated_at, last.item_id) if more and last else None
    return RecordPage(records=records, total=total, next=cursor)


def any_record(db: Database, readers: Mapping[str, Reader]) -> bool:
    """Whether the stores of `readers` hold any record their readers may see, in any state (so
    an empty list can say whether nothing is remembered or the filters match nothing). No
    record is returned, so nothing is audited."""
    with db.connection() as conn:
        return bool(records_db.page_ids(conn, readers, RecordFilters(state=None, limit=1)))


def read_record(
    db: Database,
    principal: Principal,
    store: str,
    item_id: int,
    reader: Reader,
    *,
    endpoint: str = RECORD,
    now: datetime | None = None,
) -> RecordLife:
    """One record of the store with its life, trust and origin and who read it (this read
    included), as `reader` may see it: NotFound, worded as for a record that does not exist,
    when the reader may not see it. Audited with the record's id."""
    record_id("item_id", item_id)
    with db.transaction() as conn:
        record, chat_name = _one(conn, principal, store, item_id, reader, now)
        audit_read(
            conn, principal, endpoint, store, {"read_as": _read_as({store: reader})}, [item_id]
        )
        return _life(conn, principal, reader, store, record, chat_name)


def record_page(
    db: Database,
    principal: Principal,
    store: str,
    item_id: int,
    reader: Reader,
    *,
    endpoint: str = RECORD,
    now: datetime | None = None,
) -> RecordView:
    """A record's whole page in one read: its life (as `read_record`), every version of its
    fact (as `record_history`), the wording of the records it names (the one that replaced it,
    those it contradicts) and its type's half-life in the store. One audit row, written in the
    same transaction, holds the id of every record whose content the page shows."""
    record_id("item_id", item_id)
    strangers = Strangers(db, principal, store)
    with db.transaction() as conn:
        record, chat_name = _one(conn, principal, store, item_id, reader, now)
        try:
            versions = versions_db.history(conn, store, item_id, reader)
        except NotFound:  # a record loaded without its versions (by SQL): its page still shows
            versions = []
        wanted = [i for i in (record.superseded_by, *record.contested_with) if i is not None]
        named = [
            NamedRecord(item_id=r.item_id, context=r.context, state=r.state)
            for r, _, _ in records_db.rows(conn, wanted)
            if r.store_id == store and reads(reader, r.person_id)
        ]
        shown = {item_id, *(v.item_id for v in versions), *(n.item_id for n in named)}
        audit_read(
            conn, principal, endpoint, store, {"read_as": _read_as({store: reader})}, sorted(shown)
        )
        life = _life(conn, principal, reader, store, record, chat_name)
        decay = stores_db.get_settings(conn, store).decay_per_type.half_life_days
    half_lives = decay_math.reader_half_lives(decay, dict(principal.decay_per_type))
    return RecordView(
        life=life,
        history=[strangers.version(v) for v in versions],
        named=named,
        half_life_days=half_lives.get(record.category),
    )


def _one(
    conn: Conn,
    principal: Principal,
    store: str,
    item_id: int,
    reader: Reader,
    now: datetime | None,
) -> tuple[ListedRecord, str | None]:
    """The record as the reader may see it, with its conversation's name; NotFound when the
    reader may not see it (worded as for a record that does not exist)."""
    found = [
        row
        for row in records_db.rows(conn, [item_id])
        if row[0].store_id == store and reads(reader, row[0].person_id)
    ]
    if not found:
        raise NotFound(f"memory item {item_id} does not exist in store {store!r}")
    [record] = _listed(conn, principal, {store: reader}, found, now)
    return record, found[0][2] if record.chat_id is not None else None


def _life(
    conn: Conn,
    principal: Principal,
    reader: Reader,
    store: str,
    record: ListedRecord,
    chat_name: str | None,
) -> RecordLife:
    """The record's life, its trust and origin, and who read it (after this read's audit). A
    reader limited to one person sees only its own reads of a record: another person's reads of
    a shared one (which key, when, through which endpoint) tell what they were asking about."""
    trusts = records_db.feeders(conn, store, record.fed_by)
    only = None if isinstance(reader, Everyone) else (principal.key_id, principal.account_id)
    # Reads by another organisation's keys or administrators (the store was theirs before it
    # was assigned here) are shown without their ids: who read it there is theirs to know.
    orgs = Strangers(conn, principal, store).ours
    read_by = [
        ReadBy.model_validate(r)
        for r in audit_db.readers(conn, record.item_id, MAX_READERS, only, orgs)
    ]
    total = audit_db.count_readers(conn, record.item_id, only)
    trust = TrustOrigin(
        origin=record.origin,
        trusted=record.trusted,
        written=record.written,
        model=record.model,
        chat_id=record.chat_id,
        chat=chat_name,
        from_seq=record.from_seq,
        to_seq=record.to_seq,
        fed_by=[Feeder(item_id=i, trusted=trusts[i]) for i in record.fed_by if i in trusts],
    )
    return RecordLife(
        record=record,
        still_valid=record.state == "current",
        replaced_by=record.superseded_by,
        contradicts=record.contested_with,
        trust=trust,
        readers=read_by,
        readers_total=total,
    )


def record_history(
    db: Database,
    principal: Principal,
    store: str,
    item_id: int,
    reader: Reader,
    *,
    endpoint: str = HISTORY,
) -> list[ItemVersion]:
    """Every version of the fact the record belongs to, oldest first (what it replaced and what
    replaced it), as `reader` may see them. Audited with the ids of every record whose version
    is returned."""
    record_id("item_id", item_id)
    with db.transaction() as conn:
        versions = versions_db.history(conn, store, item_id, reader)
        ids = sorted({v.item_id for v in versions})
        audit_read(conn, principal, endpoint, store, {"read_as": _read_as({store: reader})}, ids)
    strangers = Strangers(db, principal, store)
    return [strangers.version(v) for v in versions]


# -- helpers ------------------------------------------------------------------------------


def _narrow(readers: Mapping[str, Reader], store: str | None) -> dict[str, Reader]:
    if store is None:
        return dict(readers)
    if store not in readers:
        raise NotFound(f"store {store!r} does not exist")
    return {store: readers[store]}


def _read_as(readers: Mapping[str, Reader]) -> dict[str, str | None]:
    """Whose records were read in each store, for the audit: "*" for every person's."""
    return {s: "*" if isinstance(r, Everyone) else r for s, r in sorted(readers.items())}


def _listed(
    conn: Conn,
    principal: Principal,
    readers: Mapping[str, Reader],
    rows: Sequence[tuple[Item, str | None, str | None]],
    now: datetime | None,
) -> list[ListedRecord]:
    """Records as their readers may see them (references they may not see taken out), with
    who wrote them and their confidence as this principal reads it."""
    now = now or datetime.now(UTC)
    items = [r[0] for r in rows]
    by_store: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        by_store.setdefault(item.store_id, []).append(n)
    for store, where in by_store.items():
        reader = readers[store]
        if not isinstance(reader, Everyone):
            seen = redact_items(conn, store, reader, [items[n] for n in where])
            for n, item in zip(where, seen, strict=True):
                items[n] = item
    override = dict(principal.decay_per_type)
    half_lives = {
        store: decay_math.reader_half_lives(
            stores_db.get_settings(conn, store).decay_per_type.half_life_days, override
        )
        for store in by_store
    }
    # keys of the organisation that owned a store before it was assigned here: not named
    foreign: set[str] = set()
    for store, where in by_store.items():
        strangers = Strangers(conn, principal, store)
        foreign |= strangers.keys(k for n in where for k in (items[n].key_id, rows[n][1]))
    out = []
    for item, (_, chat_key, _) in zip(items, rows, strict=True):
        visible_key = chat_key if item.chat_id is not None else None
        if item.key_id in foreign:
            item = item.model_copy(update={"key_id": None, "written_by": FOREIGN_WRITER})
        chat_foreign = visible_key in foreign
        if chat_foreign:
            visible_key = None
        as_read = decay_math.confidence_as_read(
            item.confidence, item.updated_at, half_lives[item.store_id].get(item.category), now
        )
        # The item is validated already: its fields are taken as they are (a list page builds
        # hundreds of these, and validating each again cost more than reading it).
        out.append(
            ListedRecord.model_construct(
                **{name: getattr(item, name) for name in Item.model_fields},
                written=written_by(
                    item.origin,
                    item.key_id,
                    item.written_by,
                    item.model,
                    visible_key,
                    chat_seen=item.chat_id is not None,
                    chat_foreign=chat_foreign,
                ),
                confidence_as_read=round(as_unit(as_read), 4),
            )
        )
    return out
