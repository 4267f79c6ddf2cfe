"""The Records list and one record's page (api/records.py) on the real database: the console's
filters over one store or all the reader may use, keyset pages that add up to the total, whose
records each reader sees, written by, confidence as the reading key reads it, the read audit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memory_pipelines.api import access
from memory_pipelines.api.audit import readers, reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.records import list_records, read_record, record_history
from memory_pipelines.core.access import Principal
from memory_pipelines.core.listing import decode_cursor, record_filters
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import ALL, new_key, new_org, new_store


def _principal(db: Database, key: str) -> Principal:
    principal = access.authenticate(db, key)
    assert principal is not None
    return principal


def _save(memory: Memory, context: str, **fields: Any) -> int:
    item = {"category": "fact", "context": context, "confidence": 8, **fields}
    res = memory.save(item, written_by="test")
    assert res.saved, res
    return int(res.id or 0)


@pytest.fixture
def org(db: Database, embedder: Embedder) -> dict[str, Any]:
    """An organisation with two stores: a has shared, ana's and ben's records; b one shared."""
    org = new_org(db)
    a, b = new_store(db, org), new_store(db, org)
    ma, mb = Memory(a, db=db, embedder=embedder), Memory(b, db=db, embedder=embedder)
    for p in ("ana", "ben"):
        ma.add_person(p)
    ids = {
        "shared": _save(ma, "The office closes at six on Fridays.", metadata={"team": "ops"}),
        "ana": _save(
            ma,
            "Ana prefers tea over coffee in the morning.",
            person="ana",
            category="preference",
            confidence=6,
            metadata={"team": "ops", "tier": 3},
        ),
        "ben": _save(ma, "Ben is allergic to peanuts and shellfish.", person="ben"),
        "b": _save(mb, "The Lisbon office opened in March.", metadata={"team": "sales"}),
    }
    return {"org": org, "a": a, "b": b, "ids": ids, "memory": ma}


def test_filters_narrow_the_list_and_the_total(db: Database, org: dict[str, Any]) -> None:
    key_id, key = new_key(db, org["org"])
    p = _principal(db, key)
    ids = org["ids"]
    readers = access.readers_for(db, p, "read_memory")
    assert set(readers) == {org["a"], org["b"]}

    def listed(**filters: Any) -> tuple[list[int], int]:
        page = list_records(db, p, readers, record_filters(**filters))
        return [r.item_id for r in page.records], page.total

    # all stores, newest change first
    assert listed() == ([ids["b"], ids["ben"], ids["ana"], ids["shared"]], 4)
    assert listed(store=org["b"]) == ([ids["b"]], 1)
    assert listed(type="preference") == ([ids["ana"]], 1)
    assert listed(min_confidence=0.7) == ([ids["b"], ids["ben"], ids["shared"]], 3)
    assert listed(min_confidence=0.6) == ([ids["b"], ids["ben"], ids["ana"], ids["shared"]], 4)
    assert listed(metadata={"team": "ops"}) == ([ids["ana"], ids["shared"]], 2)
    # a value typed as text matches the number stored; a pair without a key is ignored
    assert listed(metadata=[("tier", "3"), ("", "x")]) == ([ids["ana"]], 1)
    assert listed(metadata=[("team", "ops"), ("tier", "4")]) == ([], 0)
    assert listed(person="ben") == ([ids["ben"]], 1)
    assert listed(state="superseded") == ([], 0)
    assert listed(state="All", store=org["a"])[1] == 3
    # every list was audited with exactly the ids it returned
    rows = reads_by_key(db, key_id, 100)
    assert len(rows) == 11
    assert rows[0]["record_ids"] == [ids["ben"], ids["ana"], ids["shared"]]
    assert rows[0]["filters"]["state"] == "all" and rows[0]["store_id"] == org["a"]
    assert rows[3]["record_ids"] == [] and rows[3]["filters"]["metadata"] == [
        ["team", ["ops"]],
        ["tier", ["4", 4]],
    ]
    assert [r["record_ids"] for r in reversed(rows)][:2] == [
        [ids["b"], ids["ben"], ids["ana"], ids["shared"]],
        [ids["b"]],
    ]
    assert rows[-1]["filters"]["read_as"] == {org["a"]: "*", org["b"]: "*"}


def test_pages_add_up_to_the_total_and_never_cap(db: Database, org: dict[str, Any]) -> None:
    memory = org["memory"]
    more = [_save(memory, f"Room {n} has a projector and {n + 2} chairs.") for n in range(7)]
    _, key = new_key(db, org["org"])
    p = _principal(db, key)
    readers = access.readers_for(db, p, "read_memory", org["a"])
    seen: list[int] = []
    after = None
    while True:
        page = list_records(db, p, readers, record_filters(limit=3, after=after))
        assert page.total == 10
        seen += [r.item_id for r in page.records]
        if page.next is None:
            break
        after = page.next
    assert len(seen) == len(set(seen)) == 10
    assert seen[:7] == list(reversed(more))
    with pytest.raises(ValidationError) as err:
        record_filters(limit=501)
    assert err.value.field == "limit"
    for bad in ("nope", "e30", "W10"):
        with pytest.raises(ValidationError) as err:
            decode_cursor(bad)
        assert err.value.field == "after"


def test_a_person_limited_key_sees_the_shared_and_its_persons(
    db: Database, org: dict[str, Any]
) -> None:
    ids = org["ids"]
    _, key = new_key(
        db, org["org"], [{"effect": "permit", "actions": ["read_memory"], "persons": ["ana"]}]
    )
    p = _principal(db, key)
    readers = access.readers_for(db, p, "read_memory")
    assert readers == {org["a"]: "ana", org["b"]: "ana"}
    page = list_records(db, p, readers, record_filters(state="all"))
    assert [r.item_id for r in page.records] == [ids["b"], ids["ana"], ids["shared"]]
    assert page.total == 3
    # ben's record is absent, and asking for it by filter or by id finds nothing
    assert list_records(db, p, readers, record_filters(person="ben")).total == 0
    with pytest.raises(NotFound):
        read_record(db, p, org["a"], ids["ben"], readers[org["a"]])
    with pytest.raises(access.Refused):
        access.readers_for(db, p, "read_memory", org["a"], person="ben")
    # a key limited to one store lists that store only, and another's store is not found
    _, one = new_key(
        db, org["org"], [{"effect": "permit", "actions": ["read_memory"], "stores": [org["b"]]}]
    )
    p1 = _principal(db, one)
    assert access.readers_for(db, p1, "read_memory") == {org["b"]: access.EVERYONE}
    with pytest.raises(NotFound):
        list_records(
            db, p1, access.readers_for(db, p1, "read_memory"), record_filters(store=org["a"])
        )
    other = new_org(db)
    _, stranger = new_key(db, other, ALL)
    with pytest.raises(NotFound):
        access.readers_for(db, _principal(db, stranger), "read_memory", org["a"])


def test_one_record_with_its_life_and_readers(db: Database, org: dict[str, Any]) -> None:
    memory: Memory = org["memory"]
    ids = org["ids"]
    key_id, key = new_key(db, org["org"], decay_per_type={"preference": 1.0})
    p = _principal(db, key)
    res = memory.save(
        {
            "category": "commitment",
            "context": "Ana will send Ben the slides by Monday.",
            "confidence": 7,
            "person": "ana",
            "status": "open",
            "owed_to": "ben",
        },
        key_id=key_id,
    )
    assert res.saved and res.id
    life = read_record(db, p, org["a"], res.id, access.EVERYONE)
    assert life.record.written.kind == "key" and life.record.written.key_id == key_id
    assert life.record.status == "open" and life.record.owed_to == "ben"
    assert life.still_valid and life.replaced_by is None and life.contradicts == []
    assert life.trust.origin == "explicit" and life.trust.trusted
    assert [(r.key_id, r.endpoint) for r in life.readers] == [
        (key_id, "GET /v1/stores/{store}/records/{item_id}")
    ]
    assert [r["key_id"] for r in readers(db, res.id)] == [key_id]
    # the application's own save names the application
    shared = read_record(db, p, org["a"], ids["shared"], access.EVERYONE)
    assert shared.record.written.kind == "application" and shared.record.written.name == "test"
    # the key's decay per type: preference halves in a day, for this key only
    later = shared.record.updated_at + timedelta(days=2)
    mine = read_record(db, p, org["a"], ids["ana"], access.EVERYONE, now=later)
    assert mine.record.confidence_as_read == pytest.approx(0.6 / 4, abs=1e-3)
    _, plain = new_key(db, org["org"])
    theirs = read_record(
        db, _principal(db, plain), org["a"], ids["ana"], access.EVERYONE, now=later
    )
    assert theirs.record.confidence_as_read > 0.59
    assert theirs.record.confidence == mine.record.confidence == 6


def test_history_is_audited_with_every_version_returned(
    db: Database, org: dict[str, Any], embedder: Embedder
) -> None:
    memory: Memory = org["memory"]
    old = _save(memory, "The standup is at nine every weekday.")
    new = memory.save_with_dedup(
        {"category": "fact", "context": "The standup moved to ten every weekday.", "confidence": 8}
    )
    key_id, key = new_key(db, org["org"])
    p = _principal(db, key)
    versions = record_history(db, p, org["a"], old, access.EVERYONE)
    assert {v.item_id for v in versions} >= {old}
    [row] = reads_by_key(db, key_id)
    assert row["record_ids"] == sorted({v.item_id for v in versions})
    assert new.saved


def test_who_wrote_a_derived_record_says_whose_conversation_it_was() -> None:
    from memory_pipelines.core.listing import HIDDEN_WRITER, written_by

    by_key = written_by("derived", None, "extraction@v1", "local-rules-v1", "k1", chat_seen=True)
    assert by_key.name == "the model above key k1"
    # a conversation written with no key (the command line, Python) was the application's
    mine = written_by("derived", None, "extraction@v1", "local-rules-v1", None, chat_seen=True)
    assert mine.name == "the model above the application"
    # one the reader may not see keeps its key to itself
    hidden = written_by("derived", None, "extraction@v1", "local-rules-v1", None)
    assert hidden.name == f"the model above {HIDDEN_WRITER}"
