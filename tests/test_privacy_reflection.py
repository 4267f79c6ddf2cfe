"""Reflection's "supersede an insight whose members are a strict subset of the cluster" reads
every item of category `insight` in the store, of any person, and an insight fed by nothing is
a subset of every cluster. A key limited to bob saves its own record of category `insight`
(any slug is a category); alice's never-recalled cluster then supersedes bob's record with
alice's insight: bob's record is retired by alice's records, and bob's feed names alice's
insight."""

from __future__ import annotations

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.api.reflection import reflect
from memory_pipelines.core.records import validate_item
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person

ALICE = [  # a cluster by similarity alone (tests/test_reflection.py)
    "Ana prefers morning meetings before 10am",
    "Ana does not want meetings on Fridays",
    "Ana asked to keep standups short, under 15 minutes",
]


def _records(
    db: Database, embedder: Embedder, store: str, said: list[tuple[str, str | None]]
) -> list[int]:
    """Records written as the application writes them, (text, person) each, never recalled."""
    vecs = embedder.embed([t for t, _ in said])
    with db.transaction() as conn:
        return [
            items_db.insert_item(
                conn,
                store,
                validate_item({"category": "fact", "confidence": 8, "context": t, "person": p}),
                v,
                origin="explicit",
                trusted=True,
            ).item_id
            for (t, p), v in zip(said, vecs, strict=True)
        ]


def test_another_persons_cluster_never_supersedes_bobs_record(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    memory.add_person("bob")
    bob_id, bob = new_key(db, org, only_person(store, "bob"))
    h = {"Authorization": f"Bearer {bob}"}
    # alice's records, written through the normal insert path
    alice_ids = _records(db, embedder, store, [(t, "alice") for t in ALICE])
    # bob's own record, of category "insight", through the HTTP API with his key
    res = client.post(
        f"/v1/stores/{store}/records",
        json={
            "category": "insight",
            "context": "Bob's team ships the mobile app before the summer break.",
            "confidence": 8,
            "person": "bob",
        },
        headers=h,
    )
    assert res.status_code == 201, res.text
    bobs = res.json()["id"]

    out = reflect(db, store, memory.models, embedder)
    assert out["insights_created"] >= 1, out  # alice's cluster made her insight

    record = client.get(f"/v1/stores/{store}/records/{bobs}", headers=h).json()["record"]
    feed = client.get(f"/v1/stores/{store}/events", params={"follow": "false"}, headers=h).text
    alice_insights = [
        i.item_id for i in memory.items(category="insight", person="alice", state=None)
    ]
    assert alice_insights and set(alice_ids)  # alice's insight exists
    # bob's record is his: alice's records never retire it, and nothing bob reads names hers
    named = [i for i in alice_insights if f'"by":{i}' in feed.replace(" ", "")]
    assert (record["state"], named) == ("current", []), (record["state"], feed)


def test_another_persons_cluster_never_retires_a_shared_record(
    db: Database, embedder: Embedder
) -> None:
    """The same rule over a shared record of category `insight` (written by the application):
    alice's private cluster retires it for every reader."""
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    _records(db, embedder, store, [(t, "alice") for t in ALICE])
    shared = memory.save(
        {
            "category": "insight",
            "context": "The support team answers every ticket within one working day.",
            "confidence": 8,
        }
    )
    assert shared.saved and shared.id
    reflect(db, store, memory.models, embedder)
    assert memory.get(shared.id).state == "current"


def test_a_record_never_supersedes_another_persons(db: Database, embedder: Embedder) -> None:
    """The write itself refuses: whatever a job decides, one person's record never retires
    another's, nor a shared one."""
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    memory.add_person("bob")
    texts = ["Alice's desk is by the window", "Bob's desk is by the door", "Desks are hot-desked"]
    alice, bob, shared = _records(
        db, embedder, store, list(zip(texts, ["alice", "bob", None], strict=True))
    )
    for old, new in ((bob, alice), (shared, alice), (alice, shared)):
        with pytest.raises(ValueError, match="other persons"), db.transaction() as conn:
            items_db.supersede(conn, store, old, new, "test")
    assert {memory.get(i).state for i in (alice, bob, shared)} == {"current"}
