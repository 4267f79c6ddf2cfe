"""A shared record's recall counters through the HTTP API: they count every person's searches
that returned it, so a key limited to one person reads them as null (its own reads are in
`readers`); a key of the whole store reads them as they are."""

from __future__ import annotations

from typing import Any

import httpx

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, only_person, tenant


def test_another_persons_search_does_not_show_on_a_shared_record(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ana")
    memory.add_person("bob")
    ana = t.auth(new_key(db, t.org, only_person(t.store, "ana"))[1])
    bob = t.auth(new_key(db, t.org, only_person(t.store, "bob"))[1])
    shared = memory.save(
        {"category": "fact", "context": "The office moves to the Lisbon building in May"}
    ).id
    own = memory.save(
        {"category": "fact", "context": "Ana's desk moves to the Lisbon building", "person": "ana"}
    ).id
    base = f"/v1/stores/{t.store}"

    def search(who: dict[str, str]) -> set[int]:
        r = client.post(
            f"{base}/search",
            json={"query": "Lisbon building move", "scopes": ["agent"], "k": 5},
            headers=who,
        )
        assert r.status_code == 200, r.text
        return {h["id"] for h in r.json()["hits"]}

    def record(who: dict[str, str], item: int) -> dict[str, Any]:
        r = client.get(f"{base}/records/{item}", headers=who)
        assert r.status_code == 200, r.text
        return r.json()["record"]

    assert shared in search(bob)
    assert {shared, own} <= search(ana)
    for seen in (
        record(ana, shared),
        record(bob, shared),
        next(r for r in client.get(f"{base}/records", headers=ana).json()["records"]
             if r["id"] == shared),
    ):  # fmt: skip
        assert (seen["access_count"], seen["last_recalled_at"]) == (None, None)
    mine = record(ana, own)  # her own record: only her searches (and the store's) count
    assert mine["access_count"] == 1 and mine["last_recalled_at"] is not None
    whole = record(t.auth(), shared)  # the store's key reads every person's
    assert whole["access_count"] == 2 and whole["last_recalled_at"] is not None
    assert memory.get(shared).access_count == 2
    assert memory.get(shared, reader="ana").access_count is None
