"""The record endpoints against the real server: settings cards, the Records list, one record
with its life, history, commitments, save (with dedup), delete; written by; audit rows with
exact ids."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from memory_pipelines.api.audit import reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import Tenant, new_key, new_store, tenant


@pytest.fixture
def t(db: Database, embedder: Embedder) -> Tenant:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ana")
    memory.add_person("ben")
    return t


def _save(client: httpx.Client, t: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"category": "fact", "confidence": 8, **fields}
    res = client.post(f"/v1/stores/{t.store}/records", json=body, headers=t.auth())
    assert res.status_code == 201, res.text
    return dict(res.json())


def test_settings_cards_read_and_changed_card_by_card(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    url = f"/v1/stores/{t.store}/settings"
    before = client.get(url, headers=t.auth())
    assert before.status_code == 200, before.text
    cards = before.json()
    assert cards["maintenance"]["duplicate_threshold"] == 0.92
    assert cards["trust_envelope"] is True
    res = client.patch(
        url,
        json={"maintenance": {"archive_idle_days": 30}, "trust_envelope": False},
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    after = res.json()
    assert after["maintenance"]["archive_idle_days"] == 30
    # a field not sent keeps its value; a card not sent is unchanged
    assert after["maintenance"]["duplicate_threshold"] == 0.92
    assert after["search"] == cards["search"] and after["trust_envelope"] is False
    # a bad value names card.field and nothing is saved, not even the good card beside it
    for bad, field in (
        (
            {"search": {"knowledge_graph": False}, "maintenance": {"duplicate_threshold": 5}},
            "maintenance.duplicate_threshold",
        ),
        ({"maintenance": {"archive_idle_days": "30"}}, "maintenance.archive_idle_days"),
        ({"maintenance": {"color": 1}}, "maintenance.color"),
        ({"extraction": {"cron": "every day"}}, "extraction.cron"),
        (
            {"decay_per_type": {"half_life_days": {"fact": -1}}},
            "decay_per_type.half_life_days.fact",
        ),
    ):
        res = client.patch(url, json=bad, headers=t.auth())
        assert res.status_code == 422, res.text
        assert res.json()["field"] == field, res.json()
    assert client.get(url, headers=t.auth()).json() == after
    # the change is on the feed, naming the key and the cards (the refused ones are not)
    with db.connection() as conn:
        events = conn.execute(
            "SELECT actor, payload FROM events WHERE store_id = %s AND kind = 'configure'",
            (t.store,),
        ).fetchall()
    assert [(e["actor"], e["payload"]) for e in events] == [
        (f"key {t.key_id}", {"cards": ["maintenance", "trust_envelope"]})
    ]
    # administering settings is its own permit
    _, reader = new_key(db, t.org, [{"effect": "permit", "actions": ["read_memory"]}])
    res = client.get(url, headers=t.auth(reader))
    assert res.status_code == 403 and res.json()["action"] == "administer_settings"


def test_records_list_filters_pages_and_audit(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    ids = [
        _save(client, t, context="The office closes at six on Fridays.", metadata={"team": "ops"}),
        _save(
            client,
            t,
            context="Ana prefers tea in the morning.",
            person="ana",
            category="preference",
            confidence=6,
        ),
        _save(client, t, context="Ben is allergic to peanuts.", person="ben"),
    ]
    ids_ = [r["id"] for r in ids]
    url = f"/v1/stores/{t.store}/records"
    res = client.get(url, headers=t.auth())
    assert res.status_code == 200, res.text
    page = res.json()
    assert [r["item_id"] for r in page["records"]] == ids_[::-1]
    assert page["total"] == 3 and page["next"] is None
    first = page["records"][0]
    assert first["written"] == {
        "kind": "key",
        "key_id": t.key_id,
        "model": None,
        "name": f"key {t.key_id}",
    }
    assert 0 < first["confidence_as_read"] <= 0.8
    # filters in the query string
    got = client.get(url, params={"type": "preference"}, headers=t.auth()).json()
    assert [r["item_id"] for r in got["records"]] == [ids_[1]]
    got = client.get(url, params={"min_confidence": 0.7, "person": "ben"}, headers=t.auth()).json()
    assert [r["item_id"] for r in got["records"]] == [ids_[2]]
    got = client.get(url, params=[("metadata", "team=ops"), ("metadata", "=")], headers=t.auth())
    assert [r["item_id"] for r in got.json()["records"]] == [ids_[0]]
    # pages: two then one, the total on each
    one = client.get(url, params={"limit": 2}, headers=t.auth()).json()
    two = client.get(url, params={"limit": 2, "after": one["next"]}, headers=t.auth()).json()
    assert (one["total"], two["total"], two["next"]) == (3, 3, None)
    assert [r["item_id"] for r in one["records"] + two["records"]] == ids_[::-1]
    # every store of the key's organisation: /v1/records
    other = new_store(db, t.org)
    res = client.get("/v1/records", params={"state": "all"}, headers=t.auth())
    assert res.status_code == 200 and res.json()["total"] == 3
    # bad filters are a 422 naming them
    for params, field in (
        ({"state": "gone"}, "state"),
        ({"min_confidence": 2}, "min_confidence"),
        ({"limit": 501}, "limit"),
        ({"after": "nonsense"}, "after"),
        ({"type": "Not A Slug"}, "type"),
    ):
        bad = client.get(url, params=params, headers=t.auth())
        assert bad.status_code == 422 and bad.json()["field"] == field, bad.text
    # each read audited with exactly the ids it returned
    rows = reads_by_key(db, t.key_id, 100)
    assert rows[0]["endpoint"] == "GET /v1/records" and rows[0]["store_id"] is None
    assert rows[0]["record_ids"] == ids_[::-1]
    assert rows[0]["filters"]["read_as"] == {other: "*", t.store: "*"}
    assert [r["record_ids"] for r in rows[1:3]] == [[ids_[0]], ids_[:0:-1]]
    assert rows[-1]["record_ids"] == ids_[::-1]


def test_one_record_history_and_who_read_it(db: Database, client: httpx.Client, t: Tenant) -> None:
    # a conversation written with this key, and a record derived during its turn
    res = client.post(
        f"/v1/stores/{t.store}/turns",
        json={
            "chat": "c1",
            "person": "ana",
            "turns": [{"text": "I moved to Lisbon last spring.", "speaker": "Ana"}],
        },
        headers=t.auth(),
    )
    assert res.status_code == 201, res.text
    fed = _save(client, t, context="Ana speaks Portuguese.", person="ana")["id"]
    derived = _save(
        client,
        t,
        context="Ana lives in Lisbon.",
        person="ana",
        chat="c1",
        turn_seq=1,
        model="gpt-test",
        fed_by=[fed],
    )["id"]
    res = client.get(f"/v1/stores/{t.store}/records/{derived}", headers=t.auth())
    assert res.status_code == 200, res.text
    life = res.json()
    assert life["record"]["origin"] == "derived"
    assert life["record"]["written"]["kind"] == "model"
    assert life["record"]["written"]["name"] == f"the model above key {t.key_id}"
    assert life["trust"]["model"] == "gpt-test" and life["trust"]["chat"] == "c1"
    assert life["trust"]["fed_by"] == [{"item_id": fed, "trusted": True}]
    assert life["still_valid"] and life["replaced_by"] is None
    assert [r["key_id"] for r in life["readers"]] == [t.key_id] and life["readers_total"] == 1
    again = client.get(f"/v1/stores/{t.store}/records/{derived}", headers=t.auth()).json()
    assert again["readers_total"] == 2
    hist = client.get(f"/v1/stores/{t.store}/records/{derived}/history", headers=t.auth())
    assert hist.status_code == 200
    assert [v["change"] for v in hist.json()["versions"]] == ["create"]
    rows = reads_by_key(db, t.key_id)
    assert [(r["endpoint"], r["record_ids"]) for r in rows[:3]] == [
        ("GET /v1/stores/{store}/records/{item_id}/history", [derived]),
        ("GET /v1/stores/{store}/records/{item_id}", [derived]),
        ("GET /v1/stores/{store}/records/{item_id}", [derived]),
    ]
    missing = client.get(f"/v1/stores/{t.store}/records/999999999", headers=t.auth())
    assert missing.status_code == 404


def test_commitments_list(db: Database, client: httpx.Client, t: Tenant) -> None:
    due = [
        _save(
            client,
            t,
            category="commitment",
            context=f"Ana sends report {n}.",
            person="ana",
            dueAt=f"2020-0{n}-01T10:00:00Z",
            owedTo="ben",
        )["id"]
        for n in (1, 2, 3)
    ]
    later = _save(
        client,
        t,
        category="commitment",
        context="Ben books the venue.",
        dueAt="2999-01-01T10:00:00Z",
    )["id"]
    url = f"/v1/stores/{t.store}/commitments"
    page = client.get(url, params={"limit": 2}, headers=t.auth()).json()
    assert [c["item_id"] for c in page["commitments"]] == due[:2] and page["total"] == 4
    rest = client.get(url, params={"limit": 2, "after": page["next"]}, headers=t.auth()).json()
    assert [c["item_id"] for c in rest["commitments"]] == [due[2], later] and rest["next"] is None
    overdue = client.get(url, params={"overdue": "true"}, headers=t.auth()).json()
    assert [c["item_id"] for c in overdue["commitments"]] == due
    assert all(c["overdue"] for c in overdue["commitments"])
    Memory(t.store, db=db).fulfil(due[0], actor="ana")
    done = client.get(url, params={"status": "fulfilled"}, headers=t.auth()).json()
    assert [c["item_id"] for c in done["commitments"]] == [due[0]]
    rows = reads_by_key(db, t.key_id)
    assert rows[0]["record_ids"] == [due[0]] and rows[1]["record_ids"] == due
    bad = client.get(url, params={"status": "late"}, headers=t.auth())
    assert bad.status_code == 422 and bad.json()["field"] == "status"


def test_save_with_dedup_and_delete(db: Database, client: httpx.Client, t: Tenant) -> None:
    first = _save(client, t, context="The team picked Postgres for the importer.")
    assert first["saved"] and first["item"]["key_id"] == t.key_id
    res = client.post(
        f"/v1/stores/{t.store}/records/dedup",
        json={
            "category": "fact",
            "context": "The team picked Postgres for the importer.",
            "confidence": 8,
        },
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    assert res.json()["deduplicated"] and res.json()["mergedInto"] == first["id"]
    skipped = client.post(
        f"/v1/stores/{t.store}/records",
        json={"category": "fact", "context": "hi there!", "confidence": 8},
        headers=t.auth(),
    )
    assert skipped.status_code == 200 and skipped.json()["skipped"] == "greeting"
    gone = client.delete(f"/v1/stores/{t.store}/records/{first['id']}", headers=t.auth())
    assert gone.status_code == 200, gone.text
    assert gone.json() == {"store": t.store, "item_id": first["id"], "deleted": True}
    again = client.delete(f"/v1/stores/{t.store}/records/{first['id']}", headers=t.auth())
    assert again.status_code == 404
    with db.connection() as conn:
        [event] = conn.execute(
            "SELECT actor FROM events WHERE store_id = %s AND kind = 'delete'", (t.store,)
        ).fetchall()
    assert event["actor"] == f"key {t.key_id}"
    # deleting is its own permit
    _, writer = new_key(
        db, t.org, [{"effect": "permit", "actions": ["write_memory", "read_memory"]}]
    )
    other = _save(client, t, context="Cleo runs the Tuesday standup.")["id"]
    res = client.delete(f"/v1/stores/{t.store}/records/{other}", headers=t.auth(writer))
    assert res.status_code == 403 and res.json()["action"] == "delete_memory"


def test_a_person_limited_key_saves_and_deletes_for_its_person_only(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    ben = _save(client, t, context="Ben prefers aisle seats.", person="ben")["id"]
    shared = _save(client, t, context="The wifi password changes monthly.")["id"]
    _, ana = new_key(
        db,
        t.org,
        [
            {
                "effect": "permit",
                "persons": ["ana"],
                "actions": ["write_memory", "read_memory", "delete_memory"],
            }
        ],
    )
    res = client.post(
        f"/v1/stores/{t.store}/records",
        json={"category": "fact", "context": "Ana likes jazz.", "person": "ben", "confidence": 8},
        headers=t.auth(ana),
    )
    assert res.status_code == 403
    assert res.json()["missing_permit"] == f"write_memory on store {t.store!r} for person 'ben'"
    mine = client.post(
        f"/v1/stores/{t.store}/records",
        json={"category": "fact", "context": "Ana likes jazz.", "person": "ana", "confidence": 8},
        headers=t.auth(ana),
    )
    assert mine.status_code == 201, mine.text
    assert (
        client.delete(f"/v1/stores/{t.store}/records/{ben}", headers=t.auth(ana)).status_code == 404
    )
    res = client.delete(f"/v1/stores/{t.store}/records/{shared}", headers=t.auth(ana))
    assert res.status_code == 403 and res.json()["action"] == "delete_memory"
    res = client.delete(f"/v1/stores/{t.store}/records/{mine.json()['id']}", headers=t.auth(ana))
    assert res.status_code == 200


def test_a_moved_store_shows_the_former_owners_reads_without_naming_them(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    """A store assigned to another organisation took its records' read audit along with the
    former owner's key ids, account ids and administrators' names (a console audit). The new
    owner still sees that and when a record was read, and through what; the reader is
    "another organisation"."""
    from memory_pipelines.api.organisations import assign_store
    from memory_pipelines.api.stores import change_settings
    from memory_pipelines.store.audit import record_read
    from tests.api_server import new_org
    from tests.console_helpers import new_admin

    saved = _save(client, t, context="Ana's locker code is 4471.", person="ana")["id"]
    turns = client.post(
        f"/v1/stores/{t.store}/turns",
        json={"chat": "c1", "turns": [{"text": "My locker is on floor 2.", "speaker": "Ana"}]},
        headers=t.auth(),
    )
    assert turns.status_code == 201, turns.text
    chat_id = turns.json()["turns"][0]["chat_id"]
    assert client.get(f"/v1/stores/{t.store}/records/{saved}", headers=t.auth()).status_code == 200
    audit = reads_by_key(db, t.key_id, 1)
    assert audit and saved in audit[0]["record_ids"]
    name, account = new_admin(db, t.org)
    res = client.patch(  # extraction reads only the former owner's key's conversations
        f"/v1/stores/{t.store}/settings",
        json={"extraction": {"keys": [t.key_id]}},
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    change_settings(
        db, t.store, {"search": {"knowledge_graph": False}}, actor=f"console:{t.org}/{name}"
    )
    with db.connection() as conn:  # a console read by an administrator of the former owner
        record_read(
            conn,
            key_id=None,
            account_id=account,
            actor=f"console:{t.org}/{name}",
            endpoint="GET /console/records/{item_id}",
            store_id=t.store,
            filters={},
            record_ids=[saved],
        )
    new_owner = new_org(db)
    assign_store(db, t.store, new_owner)
    key_id, key = new_key(db, new_owner)
    res = client.get(f"/v1/stores/{t.store}/records/{saved}", headers=t.auth(key))
    assert res.status_code == 200, res.text
    readers = res.json()["readers"]
    assert readers[0]["key_id"] == key_id  # the new owner's own read, named
    former = readers[1:]
    assert former and all(
        r["key_id"] is None and r["account_id"] is None and r["actor"] == "another organisation"
        for r in former
    ), former
    assert len(former) == 2 and res.json()["readers_total"] == 3
    record = res.json()["record"]  # written by the former owner's key: not named either
    assert record["key_id"] is None
    assert record["written"] == {
        "kind": "key",
        "key_id": None,
        "model": None,
        "name": "a key of another organisation",
    }
    listed = client.get(f"/v1/stores/{t.store}/records", headers=t.auth(key))
    assert listed.status_code == 200 and t.key_id not in listed.text, listed.text
    # ... nor its versions, its events, or extraction's keys (a review of this mend)
    history = client.get(f"/v1/stores/{t.store}/records/{saved}/history", headers=t.auth(key))
    assert history.status_code == 200 and t.key_id not in history.text, history.text
    assert history.json()["versions"][0]["actor"] == "another organisation"
    events = client.get(f"/v1/stores/{t.store}/events?after=0&follow=false", headers=t.auth(key))
    assert events.status_code == 200 and "another organisation" in events.text, events.text
    assert t.key_id not in events.text and t.org not in events.text and name not in events.text
    settings = client.get(f"/v1/stores/{t.store}/settings", headers=t.auth(key))
    assert t.key_id not in settings.text and settings.json()["extraction"]["enabled"] is False
    # ... nor the conversation page's key, to an administrator of the new owner
    from memory_pipelines.api.accounts import principal_of, sign_in
    from memory_pipelines.api.conversations import read_conversation
    from memory_pipelines.store.visibility import EVERYONE
    from tests.console_helpers import PASSWORD

    admin, _ = new_admin(db, new_owner)
    session = sign_in(db, new_owner, admin, PASSWORD)
    assert session is not None
    page = read_conversation(
        db, principal_of(db, session), t.store, chat_id, EVERYONE, endpoint="test"
    )
    assert page.chat.key_id == "another organisation"
    assert t.key_id not in res.text and t.org not in res.text and name not in res.text
