"""A store deleted by one organisation and made again under the same id by another: the new
owner reads nothing of the old store, not even its `delete_store` event naming who deleted it
(found by an audit helper; the event outlived the store it belonged to). Nor does a retry of a
write to the old store get the old write's answer (found by a later audit: the response kept
for the Idempotency-Key held the deleted record's text, and said "created" for a store where
nothing was written)."""

from __future__ import annotations

import json

import httpx

from memory_pipelines.api.memory import Memory
from memory_pipelines.api.organisations import assign_store
from memory_pipelines.api.stores import delete_store
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person, tenant


def _feed(client: httpx.Client, store: str, key: str) -> list[dict]:
    res = client.get(
        f"/v1/stores/{store}/events",
        headers={"Authorization": f"Bearer {key}"},
        params={"follow": "false"},
    )
    assert res.status_code == 200, res.text
    return [json.loads(line[6:]) for line in res.text.splitlines() if line.startswith("data: ")]


def test_a_store_made_again_under_a_deleted_ones_id_has_an_empty_feed(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    x = tenant(db)
    memory = Memory(x.store, db=db, embedder=embedder, create=False)
    assert memory.save({"category": "fact", "context": "The lamps came from Oslo.",
                        "confidence": 8, "person": None}).saved  # fmt: skip
    memory.configure(extraction={"enabled": False})
    delete_store(db, x.store, actor=f"key {x.key_id}")
    y = new_org(db)
    with db.transaction() as conn:
        stores_db.ensure_store(conn, x.store)
        stores_db.ensure_store(conn, x.store)  # made once: a second call keeps what it holds
    assign_store(db, x.store, y)
    _, ykey = new_key(db, y)
    assert _feed(client, x.store, ykey) == []
    # the new store's own events are its owner's, and a later ensure keeps them
    Memory(x.store, db=db, embedder=embedder, create=False).save(
        {"category": "fact", "context": "Y's first record.", "confidence": 8, "person": None}
    )
    with db.transaction() as conn:
        stores_db.ensure_store(conn, x.store)
    assert [e["kind"] for e in _feed(client, x.store, ykey)] == ["create"]


def test_a_retry_after_the_store_was_deleted_and_made_again_writes_anew(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    Memory(store, db=db, embedder=embedder, create=False).add_person("ana")
    _, key = new_key(db, org, only_person(store, "ana"))
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": "retry-1"}
    body = {"category": "fact", "confidence": 8, "person": "ana",
            "context": "Ana's biopsy came back benign."}  # fmt: skip
    first = client.post(f"/v1/stores/{store}/records", json=body, headers=headers)
    assert first.status_code == 201, first.text
    again = client.post(f"/v1/stores/{store}/records", json=body, headers=headers)
    assert again.headers.get("Idempotent-Replayed") == "true"  # a retry, while the store lives
    memory = Memory(store, db=db, embedder=embedder, create=False)
    memory.configure(extraction={"enabled": False})
    memory.delete_store(actor="admin")
    with db.connection() as conn:
        kept = conn.execute(
            "SELECT count(*) AS n FROM idempotent_requests WHERE store_id = %s", (store,)
        ).fetchone()
    assert kept["n"] == 0
    with db.transaction() as conn:
        stores_db.ensure_store(conn, store)
    assign_store(db, store, org)
    Memory(store, db=db, embedder=embedder, create=False).add_person("ana")
    retry = client.post(f"/v1/stores/{store}/records", json=body, headers=headers)
    assert retry.status_code == 201, retry.text
    assert retry.headers.get("Idempotent-Replayed") is None
    assert retry.json()["id"] != first.json()["id"]
    # what it answers is in the new store
    got = client.get(f"/v1/stores/{store}/records/{retry.json()['id']}",
                     headers={"Authorization": f"Bearer {key}"})  # fmt: skip
    assert got.status_code == 200, got.text
    assert body["context"] in got.text
