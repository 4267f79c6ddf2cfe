"""What a save made in one person's chat does to records others read (found by an audit
helper): a merge into, or a supersede of, a shared record from alice's chat must not name, to
bob, the key that wrote there (its history and the feed, as for a record written in her chat);
and the per-turn save budget of a shared chat counts each person's saves apart, so bob's saves
neither use up alice's nor tell her he saved."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import Tenant, new_key, only_person, tenant


@pytest.fixture
def world(db: Database, embedder: Embedder, client: httpx.Client) -> dict[str, Any]:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    for person in ("alice", "bob"):
        memory.add_person(person)
    memory.write_turns(
        "alice-chat",
        [{"text": "Where do the office tables come from?"}, {"text": "The office moved."}],
        person="alice",
    )
    writer_id, writer = new_key(db, t.org)  # the application's runtime in alice's chat
    return {
        "t": t,
        "writer_id": writer_id,
        "writer": t.auth(writer),
        "alice": t.auth(new_key(db, t.org, only_person(t.store, "alice"))[1]),
        "bob": t.auth(new_key(db, t.org, only_person(t.store, "bob"))[1]),
    }


def _shared(client: httpx.Client, t: Tenant, text: str) -> int:
    res = client.post(
        f"/v1/stores/{t.store}/records",
        headers=t.auth(),
        json={"category": "fact", "context": text, "confidence": 8, "person": None},
    )
    assert res.status_code == 201, res.text
    return int(res.json()["id"])


def _in_alice_chat(client: httpx.Client, w: dict[str, Any], text: str, seq: int) -> Any:
    res = client.post(
        f"/v1/stores/{w['t'].store}/records/dedup",
        headers=w["writer"],
        json={
            "category": "fact",
            "context": text,
            "confidence": 8,
            "person": None,
            "chat": "alice-chat",
            "turn_seq": seq,
        },
    )
    assert res.status_code in (200, 201), res.text
    return res.json()


def _actors(client: httpx.Client, w: dict[str, Any], who: str, item: int) -> dict[str, Any]:
    """The actor of each change of `item` in its history and in the feed, as `who` reads them."""
    base = f"/v1/stores/{w['t'].store}"
    headers = w[who] if who != "store" else w["t"].auth()
    history = client.get(f"{base}/records/{item}/history", headers=headers)
    assert history.status_code == 200, history.text
    feed = client.get(f"{base}/events", params={"follow": "false"}, headers=headers)
    assert feed.status_code == 200, feed.text
    events = [json.loads(line[6:]) for line in feed.text.splitlines() if line.startswith("data:")]
    return {
        "history": {v["change"]: v["actor"] for v in history.json()["versions"]},
        "feed": {e["kind"]: e["actor"] for e in events if e["item_id"] == item},
    }


def test_a_merge_said_in_alices_chat_names_no_key_to_bob(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    shared = _shared(client, world["t"], "Zebrawood is the office's table supplier.")
    merged = _in_alice_chat(client, world, "Zebrawood is the office's table supplier.", 1)
    assert merged.get("deduplicated") and merged.get("mergedInto") == shared, merged
    key = f"key {world['writer_id']}"
    bob = _actors(client, world, "bob", shared)
    assert bob["history"]["merge"] != key and bob["feed"]["merge"] != key, bob
    assert bob["history"]["create"] == bob["feed"]["create"] != "", bob  # written by no chat
    # alice may see her own chat, and the store's key every chat: both read the key
    for reader in ("alice", "store"):
        seen = _actors(client, world, reader, shared)
        assert seen["history"]["merge"] == seen["feed"]["merge"] == key, (reader, seen)


def test_a_supersede_said_in_alices_chat_names_no_key_to_bob(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    shared = _shared(client, world["t"], "The office is on Elm Street.")
    moved = _in_alice_chat(client, world, "The office moved from Elm Street to Pine Road.", 2)
    assert moved.get("superseded") == shared, moved
    key = f"key {world['writer_id']}"
    bob = _actors(client, world, "bob", shared)
    assert bob["history"]["superseded"] != key and bob["feed"]["supersede"] != key, bob
    seen = _actors(client, world, "store", shared)
    assert seen["history"]["superseded"] == seen["feed"]["supersede"] == key, seen


def test_deleting_a_shared_record_written_in_alices_chat_names_no_key_to_bob(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    """The delete event hides the key as the create event did (it was recorded after the row
    was gone, so nothing said whose chat the record was written in)."""
    res = client.post(
        f"/v1/stores/{world['t'].store}/records",
        headers=world["writer"],
        json={"category": "fact", "context": "The office wifi password is on the fridge door.",
              "confidence": 8, "person": None, "chat": "alice-chat", "turn_seq": 1},
    )  # fmt: skip
    assert res.status_code == 201, res.text
    item = int(res.json()["id"])
    gone = client.delete(f"/v1/stores/{world['t'].store}/records/{item}", headers=world["writer"])
    assert gone.status_code == 200, gone.text
    key = f"key {world['writer_id']}"
    feed = client.get(
        f"/v1/stores/{world['t'].store}/events", params={"follow": "false"}, headers=world["bob"]
    )
    events = [json.loads(line[6:]) for line in feed.text.splitlines() if line.startswith("data:")]
    bobs = {e["kind"]: e["actor"] for e in events if e["item_id"] == item}
    assert set(bobs) == {"create", "delete"} and key not in bobs.values(), bobs
    stores = client.get(
        f"/v1/stores/{world['t'].store}/events",
        params={"follow": "false"},
        headers=world["t"].auth(),
    )
    events = [json.loads(line[6:]) for line in stores.text.splitlines() if line.startswith("data:")]
    assert {e["kind"]: e["actor"] for e in events if e["item_id"] == item}["delete"] == key


def test_each_person_has_their_own_save_budget_in_a_shared_chat(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    for person in ("ana", "ben"):
        memory.add_person(person)
    memory.write_turns("lobby", [{"text": "Welcome."}, {"text": "Let us plan the quarter."}])
    keys = {p: t.auth(new_key(db, t.org, only_person(t.store, p))[1]) for p in ("ana", "ben")}

    def save(who: str, text: str) -> Any:
        res = client.post(
            f"/v1/stores/{t.store}/records",
            headers=keys[who],
            json={"category": "fact", "context": text, "confidence": 8, "person": who,
                  "chat": "lobby", "turn_seq": 2},
        )  # fmt: skip
        assert res.status_code in (200, 201), res.text
        return res.json()

    bens = ["Ben's salary review is in March.", "Ben interviews with a rival next week."]
    assert [save("ben", text)["saved"] for text in bens] == [True, True]
    assert save("ben", "Ben's car is in the garage.")["skipped"] == "budget"  # his own is spent
    # ben's private saves are none of ana's budget, nor her business
    assert save("ana", "Ana prefers the blue slide template.")["saved"] is True


def test_a_persons_own_chat_keeps_one_budget_shared_saves_too(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    """Per person in a shared chat, but one budget in a person's own chat: a shared save made
    there counts against it (a per-person key there doubled the turn's budget)."""
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ana")
    memory.write_turns("ana-chat", [{"text": "Hi."}, {"text": "Let us plan."}], person="ana")

    def save(text: str, person: str | None) -> Any:
        res = client.post(
            f"/v1/stores/{t.store}/records",
            headers=t.auth(),
            json={"category": "fact", "context": text, "confidence": 8, "person": person,
                  "chat": "ana-chat", "turn_seq": 2},
        )  # fmt: skip
        assert res.status_code in (200, 201), res.text
        return res.json()

    assert save("Ana's salary review is in March.", "ana")["saved"] is True
    assert save("The team offsite is in Porto.", None)["saved"] is True
    assert save("Ana's car is in the garage.", "ana")["skipped"] == "budget"
