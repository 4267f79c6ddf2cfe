"""Through the HTTP API with a key limited to one person (an independent audit, December 2026).

Each test names a way person ben's key could see, infer or change something of ana's: an error
that differs for "exists but hidden" and "does not exist", a dedup that merges into her record,
a search whose scores move with her records. Each fails if the leak is there."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person

FAST = {"rate_per_minute": 1_000_000, "rate_burst": 1_000_000}
MISSING_ID = 2**62  # an item / turn id no test writes
MISSING_CHAT = "chat-nobody-ever-used"


@pytest.fixture
def world(db: Database, embedder: Embedder) -> dict[str, Any]:
    org = new_org(db)
    store = new_store(db, org)
    m = Memory(store, db=db, embedder=embedder)
    m.add_person("ana")
    m.add_person("ben")
    ana_turns = m.write_turns(
        "chat-ana", [{"text": "Quokkaleaf is the code name of my surgery."}], person="ana"
    )
    m.write_turns("chat-ben", [{"text": "I water the ferns on Sundays."}], person="ben")
    ana_item = m.save(
        {
            "category": "fact",
            "context": "Ana keeps her passport in the blue drawer.",
            "confidence": 8,
            "person": "ana",
        }
    )
    ana_commit = m.save(
        {
            "category": "commitment",
            "context": "Ana sends the Quokkaleaf forms to the clinic.",
            "confidence": 8,
            "person": "ana",
            "due_at": "2030-01-01T00:00:00Z",
        }
    )
    assert ana_item.saved and ana_commit.saved
    _, ben_key = new_key(db, org, only_person(store, "ben"), **FAST)
    return {
        "store": store,
        "memory": m,
        "ben": {"Authorization": f"Bearer {ben_key}"},
        "ana_item": int(ana_item.id or 0),
        "ana_commit": int(ana_commit.id or 0),
        "ana_turn": ana_turns[0].turn_id,
    }


def _same(a: httpx.Response, b: httpx.Response, hidden: str, missing: str) -> None:
    """The two answers are one answer but for the id the caller sent."""
    assert a.status_code == b.status_code, (a.text, b.text)

    def norm(text: str, sent: str) -> str:
        return re.sub(rf"(?<![\w-]){re.escape(sent)}(?!\w)", "<id>", text)

    assert norm(a.text, hidden) == norm(b.text, missing), (a.text, b.text)


def test_hidden_item_answers_as_a_missing_one(client: httpx.Client, world: dict[str, Any]) -> None:
    """Every route taking an item id answers ben for ana's record exactly as for no record."""
    s, h = world["store"], world["ben"]
    for hidden in (world["ana_item"], world["ana_commit"]):
        for method, tail in (
            ("GET", "records/{}"),
            ("GET", "records/{}/history"),
            ("DELETE", "records/{}"),
            ("POST", "commitments/{}/fulfil"),
            ("POST", "commitments/{}/cancel"),
            ("GET", "drill/item:{}"),
            ("GET", "neighbors/item:{}"),
        ):
            a = client.request(method, f"/v1/stores/{s}/{tail.format(hidden)}", headers=h)
            b = client.request(method, f"/v1/stores/{s}/{tail.format(MISSING_ID)}", headers=h)
            assert a.status_code == 404, (method, tail, a.text)
            _same(a, b, str(hidden), str(MISSING_ID))
    for tail in ("drill/turn:{}", "neighbors/turn:{}"):
        a = client.get(f"/v1/stores/{s}/{tail.format(world['ana_turn'])}", headers=h)
        b = client.get(f"/v1/stores/{s}/{tail.format(MISSING_ID)}", headers=h)
        _same(a, b, str(world["ana_turn"]), str(MISSING_ID))
    # ana's records are untouched
    assert world["memory"].get(world["ana_commit"]).status == "open"


def test_hidden_chat_answers_as_a_missing_one(client: httpx.Client, world: dict[str, Any]) -> None:
    """Auto-recall, the boot window and a save naming ana's chat answer ben as for no chat."""
    s, h = world["store"], world["ben"]

    def calls(chat: str) -> list[httpx.Response]:
        return [
            client.post(
                f"/v1/stores/{s}/autorecall",
                json={"chat": chat, "user_message": "where is the passport?"},
                headers=h,
            ),
            client.get(f"/v1/stores/{s}/chats/{chat}/boot", headers=h),
            client.post(
                f"/v1/stores/{s}/records",
                json={
                    "category": "fact",
                    "context": "Ferns like shade.",
                    "confidence": 8,
                    "chat": chat,
                    "turn_seq": 1,
                    "person": "ben",
                },
                headers=h,
            ),  # fmt: skip
        ]

    for a, b in zip(calls("chat-ana"), calls(MISSING_CHAT), strict=True):
        assert a.status_code == 404, a.text
        _same(a, b, "chat-ana", MISSING_CHAT)


def test_dedup_never_merges_into_another_persons_record(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    """Ben saving ana's very words with dedup gets a record of his own: nothing of hers is
    named, confirmed or replaced."""
    s, h = world["store"], world["ben"]
    before = world["memory"].get(world["ana_item"])
    res = client.post(
        f"/v1/stores/{s}/records/dedup",
        json={"category": "fact", "context": "Ana keeps her passport in the blue drawer.",
              "confidence": 8, "person": "ben"},
        headers=h,
    )  # fmt: skip
    assert res.status_code == 201, res.text
    body = res.json()
    assert not body.get("deduplicated") and body.get("mergedInto") is None
    assert body.get("superseded") is None
    assert world["ana_item"] not in {body.get("id"), body.get("superseded"), body.get("fulfilled")}
    after = world["memory"].get(world["ana_item"])
    assert (after.state, after.confirm_count, after.updated_at) == (
        before.state,
        before.confirm_count,
        before.updated_at,
    )


def test_search_scores_do_not_move_with_another_persons_records(
    client: httpx.Client, world: dict[str, Any]
) -> None:
    """Ben's hits and their scores are the same whether or not ana holds records and turns
    naming the question's words and entity (BM25 statistics, entity names, speakers)."""
    s, h, m = world["store"], world["ben"], world["memory"]
    m.save(
        {"category": "fact", "context": "Ben keeps the Zorblax lamp receipts in the blue drawer.",
         "confidence": 8, "person": "ben"}
    )  # fmt: skip
    query = {"query": "Where are the Zorblax lamp receipts? Ask Zorblax.", "k": 10,
             "scopes": ["agent", "history"]}  # fmt: skip

    def hits() -> list[tuple[str, int, float]]:
        res = client.post(f"/v1/stores/{s}/search", json=query, headers=h)
        assert res.status_code == 200, res.text
        return [(x["kind"], x["id"], round(x["score"], 9)) for x in res.json()["hits"]]

    first = hits()
    assert first
    for n in range(3):
        m.save(
            {"category": "fact", "confidence": 8, "person": "ana", "entities": ["Zorblax"],
             "context": f"Zorblax receipts {n}: the lamp receipts are filed by Zorblax."}
        )  # fmt: skip
    m.write_turns(
        "chat-ana",
        [{"text": "Zorblax lamp receipts everywhere, receipts receipts.", "speaker": "Zorblax"}],
        person="ana",
    )
    assert hits() == first
