"""The event feed through the HTTP API read by a key limited to persons: it reads as that
person, so another person's events never reach it, not as an event, an id nor in a payload."""

from __future__ import annotations

import json
from typing import Any

import httpx

from memory_pipelines.api.audit import reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, tenant

FEED = "/v1/stores/{store}/events"


def _events(res: httpx.Response) -> list[dict[str, Any]]:
    assert res.status_code == 200, res.text
    out = []
    for block in res.text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                out.append(json.loads(line[len("data: ") :]))
    return out


def _limited(persons: list[str]) -> list[dict[str, Any]]:
    return [{"effect": "permit", "actions": ["read_feed"], "persons": persons}]


def _fill(memory: Memory) -> dict[str, list[int]]:
    """Records of ana, ben and shared, with creates, a fulfilment and a delete of ben's."""
    memory.add_person("ana")
    memory.add_person("ben")
    ids: dict[str, list[int]] = {"ana": [], "ben": [], "shared": []}
    for who, text in (
        ("ana", "Ana is allergic to penicillin."),
        ("ben", "Ben's salary is 93,000 euros."),
        ("shared", "The office moves to Lisbon in May."),
        ("ben", "Ben promised to send the contract."),
        ("ana", "Ana promised to review the budget."),
    ):
        kind = "commitment" if "promised" in text else "fact"
        item = {"category": kind, "context": text, "confidence": 8}
        if who != "shared":
            item["person"] = who
        res = memory.save(item, written_by="test")
        assert res.saved, res
        ids[who].append(int(res.id))
    memory.fulfil(ids["ben"][1], "ben")
    memory.cancel(ids["ana"][1], "ana")
    memory.delete(ids["ben"][0], actor="ben")
    return ids


def test_a_key_limited_to_one_person_never_sees_anothers_events(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    t = tenant(db, key_policy=_limited(["ana"]))
    memory = Memory(t.store, db=db, embedder=embedder)
    ids = _fill(memory)
    everything = list(memory.subscribe(0, idle_timeout=0.2))
    ben_events = {e.event_id for e in everything if e.item_id in ids["ben"]}
    assert len(ben_events) == 4  # two creates, a fulfil and a delete: there is something to leak

    res = client.get(FEED.format(store=t.store), params={"follow": "false"}, headers=t.auth())
    events = _events(res)
    seen = {e["item_id"] for e in events}
    assert seen == set(ids["ana"]) | set(ids["shared"])
    assert not ben_events & {e["event_id"] for e in events}
    # nothing of ben's in any field or payload: not his ids, his name as actor, or his words
    raw = res.text
    for bad in ("ben", "93,000", "contract", *(f'"item_id":{i}' for i in ids["ben"])):
        assert bad not in raw, bad
    assert {e["kind"] for e in events} == {"create", "cancel"}
    # the audit names the person read as and exactly the records returned
    [row] = reads_by_key(db, t.key_id)
    assert row["filters"]["person"] == "ana"
    assert sorted(row["record_ids"]) == sorted(ids["ana"] + ids["shared"])
    # and it may not ask for ben's feed
    res = client.get(
        FEED.format(store=t.store), params={"follow": "false", "person": "ben"}, headers=t.auth()
    )
    assert res.status_code == 403
    assert res.json()["missing_permit"] == f"read_feed on store {t.store!r} for person 'ben'"


def test_a_key_limited_to_several_persons_names_one(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    t = tenant(db, key_policy=_limited(["ana", "ben"]))
    ids = _fill(Memory(t.store, db=db, embedder=embedder))
    url = FEED.format(store=t.store)
    res = client.get(url, params={"follow": "false"}, headers=t.auth())
    assert res.status_code == 403
    assert "may read as one of ana, ben: pass ?person=" in res.json()["message"]
    ben = _events(client.get(url, params={"follow": "false", "person": "ben"}, headers=t.auth()))
    assert {e["item_id"] for e in ben} == set(ids["ben"]) | set(ids["shared"])
    # a key of the whole store reads everyone's, or one person's when it asks
    _, whole = new_key(db, t.org)
    auth = {"Authorization": f"Bearer {whole}"}
    every = _events(client.get(url, params={"follow": "false"}, headers=auth))
    assert {e["item_id"] for e in every} == {i for v in ids.values() for i in v}
    ana = _events(client.get(url, params={"follow": "false", "person": "ana"}, headers=auth))
    assert {e["item_id"] for e in ana} == set(ids["ana"]) | set(ids["shared"])
