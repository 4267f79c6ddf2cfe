"""Recall's other axes over HTTP (hydrate, a period, a record's neighbours) and closing a
commitment: a key limited to one person reads and closes only what that person may, every read
is audited with exactly the records returned (real server on loopback, real Postgres)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from memory_pipelines.api.audit import reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person


@pytest.fixture
def world(db: Database, embedder: Embedder, client: httpx.Client) -> dict[str, Any]:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("ana")
    memory.add_person("bob")
    _, app = new_key(db, org)
    ana_id, ana = new_key(db, org, only_person(store, "ana"))
    h = {"Authorization": f"Bearer {app}"}

    def save(body: dict[str, Any]) -> int:
        res = client.post(f"/v1/stores/{store}/records", json=body, headers=h)
        assert res.status_code == 201, res.text
        return int(res.json()["id"])

    fact = {"category": "fact", "confidence": 8, "validFrom": "2025-03-02T10:00:00Z"}
    bobs = save({**fact, "context": "Bob's locker code is 4471", "person": "bob"})
    shared = save({**fact, "context": "The office closes at 7pm"})
    anas = save(
        {
            **fact,
            "context": "Ana keeps the spare office keys",
            "person": "ana",
            "edges": [{"type": "relates_to", "target": shared}],
        }
    )
    promise = {"category": "commitment", "confidence": 8, "dueAt": "2025-04-01T09:00:00Z"}
    return {
        "store": store,
        "ana_id": ana_id,
        "h": {"Authorization": f"Bearer {ana}"},
        "anas": anas,
        "bobs": bobs,
        "shared": shared,
        "ana_promise": save({**promise, "context": "Ana sends the rota", "person": "ana"}),
        "bob_promise": save({**promise, "context": "Bob books the van", "person": "bob"}),
        "shared_promise": save({**promise, "context": "The team renews the domain"}),
    }


def test_hydrate_period_and_neighbors_read_as_the_keys_person_and_are_audited(
    db: Database, client: httpx.Client, world: dict[str, Any]
) -> None:
    store, h = world["store"], world["h"]
    res = client.post(
        f"/v1/stores/{store}/hydrate",
        json={"refs": [f"item:{world['bobs']}", f"item:{world['anas']}"]},
        headers=h,
    )
    assert res.status_code == 200, res.text
    assert [r["item_id"] for r in res.json()["records"]] == [world["anas"]]
    [row] = reads_by_key(db, world["ana_id"], 1)
    assert row["endpoint"] == "POST /v1/stores/{store}/hydrate"
    assert row["record_refs"] == [f"item:{world['anas']}"]

    res = client.get(
        f"/v1/stores/{store}/period",
        params={"start": "2025-03-01", "end": "2025-03-03"},
        headers=h,
    )
    assert res.status_code == 200, res.text
    period = {(r["kind"], r["id"]) for r in res.json()["records"]}
    assert ("item", world["anas"]) in period and ("item", world["bobs"]) not in period
    [row] = reads_by_key(db, world["ana_id"], 1)
    assert sorted(row["record_refs"]) == sorted(f"{k}:{i}" for k, i in period)
    bad = client.get(
        f"/v1/stores/{store}/period", params={"start": "2025-03-03", "end": "2025-03-01"}, headers=h
    )
    assert bad.status_code == 422 and bad.json()["field"] == "end"

    # ana's record links to a shared one; bob's record is no record of hers
    res = client.get(f"/v1/stores/{store}/neighbors/item:{world['anas']}", headers=h)
    assert res.status_code == 200, res.text
    assert [(n["direction"], n["id"]) for n in res.json()["neighbors"]] == [
        ("out", world["shared"])
    ]
    [row] = reads_by_key(db, world["ana_id"], 1)
    assert row["record_refs"] == [f"item:{world['shared']}"]
    assert row["filters"]["ref"] == f"item:{world['anas']}"
    bare = client.get(f"/v1/stores/{store}/neighbors/{world['anas']}", headers=h)  # an item's id
    assert bare.status_code == 200 and bare.json() == res.json()
    hidden = client.get(f"/v1/stores/{store}/neighbors/item:{world['bobs']}", headers=h)
    assert hidden.status_code == 404 and "Bob" not in hidden.text


def test_a_commitment_is_closed_once_by_a_key_that_may_write_it(
    client: httpx.Client, world: dict[str, Any], db: Database, embedder: Embedder
) -> None:
    store, h = world["store"], world["h"]
    url = f"/v1/stores/{store}/commitments/{{}}/{{}}"
    done = client.post(url.format(world["ana_promise"], "fulfil"), headers=h)
    assert done.status_code == 200 and done.json()["status"] == "fulfilled", done.text
    again = client.post(url.format(world["ana_promise"], "cancel"), headers=h)
    assert again.status_code == 422 and again.json()["field"] == "status"
    # another person's is a 404 worded as a missing one; a shared one is a 403 for her key
    assert client.post(url.format(world["bob_promise"], "fulfil"), headers=h).status_code == 404
    shared = client.post(url.format(world["shared_promise"], "cancel"), headers=h)
    assert shared.status_code == 403, shared.text
    memory = Memory(store, db=db, embedder=embedder)
    assert memory.get(world["bob_promise"]).status == "open"
    assert memory.get(world["shared_promise"]).status == "open"
    assert client.post(url.format(world["anas"], "fulfil"), headers=h).status_code == 422


def test_closing_a_commitment_tells_a_write_only_key_nothing_of_the_record(
    db: Database, client: httpx.Client, world: dict[str, Any]
) -> None:
    """A key that may write but not read closes a commitment and learns its new status only:
    not its text, nor what another record is (found by a review of this endpoint)."""
    store = world["store"]
    with db.connection() as conn:
        org = conn.execute("SELECT org_id FROM stores WHERE store_id = %s", (store,)).fetchone()
    _, writer = new_key(db, org["org_id"], [{"effect": "permit", "actions": ["write_memory"]}])
    h = {"Authorization": f"Bearer {writer}"}
    promise = world["bob_promise"]
    assert client.get(f"/v1/stores/{store}/records/{promise}", headers=h).status_code == 403
    res = client.post(f"/v1/stores/{store}/commitments/{promise}/fulfil", headers=h)
    assert res.status_code == 200 and res.json() == {
        "store": store,
        "item_id": promise,
        "status": "fulfilled",
    }, res.text
    fact = client.post(f"/v1/stores/{store}/commitments/{world['bobs']}/fulfil", headers=h)
    assert fact.status_code == 422 and "fact" not in fact.text, fact.text
    assert fact.json()["message"].endswith("is not an open commitment")
