"""A shared record saved in alice's chat by the application key: for bob (a key limited to bob)
the record, its list row and its Trust and origin name no key (README: 'a shared record derived
in another person's chat shows no chat, nor the key that wrote there'). Its history and the
event feed must not name it either."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person


@pytest.fixture
def world(db: Database, embedder: Embedder, client: httpx.Client) -> dict[str, Any]:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    memory.add_person("bob")
    app_id, app = new_key(db, org)
    bob_id, bob = new_key(db, org, only_person(store, "bob"))
    h = {"Authorization": f"Bearer {app}"}
    res = client.post(
        f"/v1/stores/{store}/turns",
        json={"chat": "alice-chat", "person": "alice", "turns": [{"text": "We move to Oslo."}]},
        headers=h,
    )
    assert res.status_code == 201, res.text
    saved = client.post(
        f"/v1/stores/{store}/records",
        json={
            "category": "fact",
            "context": "The team moves to the Oslo office in May.",
            "confidence": 8,
            "person": None,
            "chat": "alice-chat",
            "turn_seq": 1,
        },
        headers=h,
    )
    assert saved.status_code == 201, saved.text
    return {
        "store": store,
        "app_id": app_id,
        "app": h,
        "bob": {"Authorization": f"Bearer {bob}"},
        "id": saved.json()["id"],
    }


def test_history_of_a_shared_record_from_another_persons_chat_names_no_key(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    # the record itself hides the key (as test_service_oracles asserts)
    rec = client.get(f"/v1/stores/{world['store']}/records/{world['id']}", headers=world["bob"])
    assert rec.status_code == 200 and world["app_id"] not in rec.text
    res = client.get(
        f"/v1/stores/{world['store']}/records/{world['id']}/history", headers=world["bob"]
    )
    assert res.status_code == 200, res.text
    assert world["app_id"] not in res.text, res.json()["versions"][0]["actor"]


def test_feed_event_of_a_shared_record_from_another_persons_chat_names_no_key(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    res = client.get(
        f"/v1/stores/{world['store']}/events", params={"follow": "false"}, headers=world["bob"]
    )
    assert res.status_code == 200, res.text
    assert str(world["id"]) in res.text  # the create event of the shared record is there
    assert world["app_id"] not in res.text, res.text


def test_the_feed_keeps_the_key_hidden_after_the_record_is_deleted(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    """Whose chat a record was written in is kept on its events: once the record is gone the
    feed still names no key for its earlier events (found by a review of the feed's SQL), nor
    for its deletion (found by an audit helper: the deleting key beside a hidden writer told
    bob which key acts in alice's chat)."""
    store = world["store"]
    gone = client.delete(f"/v1/stores/{store}/records/{world['id']}", headers=world["app"])
    assert gone.status_code == 200, gone.text
    res = client.get(f"/v1/stores/{store}/events", params={"follow": "false"}, headers=world["bob"])
    assert res.status_code == 200, res.text
    events = [json.loads(line[6:]) for line in res.text.splitlines() if line.startswith("data: ")]
    mine = {e["kind"]: e["actor"] for e in events if e["item_id"] == world["id"]}
    assert mine["create"] != f"key {world['app_id']}", mine  # written in alice's chat: hidden
    assert mine["delete"] == mine["create"] != f"key {world['app_id']}", mine


def test_a_chat_made_for_another_person_meanwhile_is_refused_without_naming_them(
    db: Database, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's key writes to a conversation id nobody holds; alice's chat of that id is made
    between the check and bob's write (her write landed first). The refusal must not name her,
    as the check's own refusal does not."""
    from memory_pipelines.api import writes
    from memory_pipelines.api.access import authenticate
    from memory_pipelines.errors import ValidationError

    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    memory.add_person("bob")
    bob = authenticate(db, new_key(db, org, only_person(store, "bob"))[1])
    assert bob is not None

    class AliceFirst(Memory):
        def write_turns(self, chat: str, *args: Any, **kwargs: Any) -> Any:
            memory.write_turns(chat, [{"text": "My divorce hearing is on Friday."}], person="alice")
            return super().write_turns(chat, *args, **kwargs)

    monkeypatch.setattr(writes, "Memory", AliceFirst)
    with pytest.raises(ValidationError) as refused:
        writes.write_turns(db, embedder, bob, store, "taken-meanwhile", [{"text": "hi"}], "bob")
    assert refused.value.field == "chat" and "alice" not in str(refused.value)
    with db.connection() as conn:
        said = conn.execute(
            "SELECT t.text, c.person_id FROM turns t JOIN chats c USING (chat_id)"
            " WHERE c.store_id = %s AND c.external_id = 'taken-meanwhile'",
            (store,),
        ).fetchall()
    assert [(r["text"], r["person_id"]) for r in said] == [
        ("My divorce hearing is on Friday.", "alice")
    ]  # nothing of bob's was written
