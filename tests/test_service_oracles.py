"""What a key limited to one person learns of another person without ever being shown one of
their records: no answer may depend on what the other person's chats hold, who else the store
holds, which key wrote in another person's chat, or when another key read a shared record.
(test_service_isolation walks every answer for the other person's words and ids; these
answers carry neither, and still told.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person


@dataclass
class Store:
    store: str
    memory: Memory
    app: str  # a key of the organisation reading every person's records
    app_id: str
    bob: str  # a key limited to person bob of the store
    bob_id: str

    def auth(self, key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def s(db: Database, embedder: Embedder) -> Store:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    memory.add_person("bob")
    app_id, app = new_key(db, org)
    bob_id, bob = new_key(db, org, only_person(store, "bob"))
    return Store(store, memory, app, app_id, bob, bob_id)


def test_whether_a_save_is_already_in_history_never_reads_another_persons_chats(
    client: httpx.Client, s: Store
) -> None:
    secret = "My bank PIN is 4821."
    s.memory.write_turns("alice-private", [{"text": secret}], person="alice")
    s.memory.write_turns("bob-own", [{"text": "My locker code is 1234."}], person="bob")
    s.memory.write_turns("team", [{"text": "The team lunch is on Friday."}])

    def save(text: str, key: str, person: str | None) -> dict[str, Any]:
        res = client.post(
            f"/v1/stores/{s.store}/records",
            json={"category": "fact", "context": text, "confidence": 8, "person": person},
            headers=s.auth(key),
        )
        assert res.status_code in (200, 201), res.text
        body: dict[str, Any] = res.json()
        return body

    # Alice's turn holds these words; for bob (and for a shared record) it is history no one
    # may drill into, so the record is saved exactly as for words nobody said.
    assert save(secret.lower(), s.bob, "bob")["saved"] is True
    assert save(secret, s.app, None)["saved"] is True
    # The turns bob's or a shared record may point to still count.
    assert save("My locker code is 1234.", s.bob, "bob")["skipped"] == "already_in_history"
    assert save("The team lunch is on Friday.", s.bob, "bob")["skipped"] == "already_in_history"
    assert save("The team lunch is on Friday.", s.app, None)["skipped"] == "already_in_history"
    # Alice's own record is held back by her own turn.
    assert save(secret, s.app, "alice")["skipped"] == "already_in_history"


def test_a_person_that_is_not_in_the_store_is_refused_without_naming_the_others(
    client: httpx.Client, s: Store
) -> None:
    res = client.post(
        f"/v1/stores/{s.store}/records",
        json={"category": "fact", "context": "Likes tea.", "confidence": 8, "person": "carol"},
        headers=s.auth(s.app),
    )
    assert res.status_code == 422, res.text
    assert res.json()["field"] == "person"
    assert "carol" in res.text
    assert "alice" not in res.text and "bob" not in res.text


def test_a_shared_record_shows_a_person_limited_key_its_own_reads_only(
    client: httpx.Client, s: Store
) -> None:
    shared = s.memory.save(
        {"category": "fact", "context": "The office moves to Oslo in May.", "confidence": 8}
    )
    assert shared.id is not None
    path = f"/v1/stores/{s.store}/records/{shared.id}"
    # The application key reads it twice (as alice's agent would), then bob once.
    for _ in range(2):
        assert client.get(path, headers=s.auth(s.app)).status_code == 200
    life = client.get(path, headers=s.auth(s.bob)).json()
    assert [r["key_id"] for r in life["readers"]] == [s.bob_id]
    assert life["readers_total"] == 1
    # A key reading every person's records sees every read.
    life = client.get(path, headers=s.auth(s.app)).json()
    assert [r["key_id"] for r in life["readers"]] == [s.app_id, s.bob_id, s.app_id, s.app_id]
    assert life["readers_total"] == 4


def test_a_record_from_another_persons_chat_does_not_name_the_key_of_that_chat(
    client: httpx.Client, s: Store
) -> None:
    turns = client.post(
        f"/v1/stores/{s.store}/turns",
        json={"chat": "alice-chat", "person": "alice", "turns": [{"text": "We move to Oslo."}]},
        headers=s.auth(s.app),
    )
    assert turns.status_code == 201, turns.text
    saved = client.post(
        f"/v1/stores/{s.store}/records",
        json={
            "category": "fact",
            "context": "The team moves to the Oslo office in May.",
            "confidence": 8,
            "person": None,  # shared, though said in alice's chat
            "chat": "alice-chat",
            "turn_seq": 1,
        },
        headers=s.auth(s.app),
    )
    assert saved.status_code == 201, saved.text
    path = f"/v1/stores/{s.store}/records/{saved.json()['id']}"
    theirs = client.get(path, headers=s.auth(s.app)).json()["record"]
    assert theirs["key_id"] == s.app_id and s.app_id in theirs["written_by"]
    assert theirs["chat_id"] is not None
    for body in (
        client.get(path, headers=s.auth(s.bob)).json(),
        client.get(f"/v1/stores/{s.store}/records", headers=s.auth(s.bob)).json(),
    ):
        assert s.app_id not in str(body), body
    record = client.get(path, headers=s.auth(s.bob)).json()["record"]
    assert record["chat_id"] is None and record["key_id"] is None
    assert record["written"]["key_id"] is None
    assert record["written"]["name"] == "the model above the key whose conversation it came from"
