"""A key that may write a person's memory but not read it (an ingestion key) learns nothing of
what that person's memory or history holds from the answers to its saves: a statement said
already answers as one written, with no ids, reasons or record, and it may not name records."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, tenant

WRITE_ONLY = "write_memory"


def _write_only(db: Database, embedder: Embedder) -> tuple[str, Memory, dict[str, str], Any]:
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("alice")
    policy = [
        {"effect": "permit", "actions": [WRITE_ONLY], "stores": [t.store], "persons": ["alice"]}
    ]
    _, key = new_key(db, t.org, policy)
    return t.store, memory, {"Authorization": f"Bearer {key}"}, t


def _save(client: httpx.Client, store: str, auth: dict[str, str], body: dict, dedup: bool) -> dict:
    path = f"/v1/stores/{store}/records" + ("/dedup" if dedup else "")
    res = client.post(path, json=body, headers=auth)
    assert res.status_code in (200, 201), res.text
    out: dict = res.json()
    return out


@pytest.mark.parametrize("dedup", [False, True])
def test_a_statement_said_already_answers_as_one_written(
    db: Database, embedder: Embedder, client: httpx.Client, dedup: bool
) -> None:
    store, memory, auth, t = _write_only(db, embedder)
    assert client.get(f"/v1/stores/{store}/records", headers=auth).status_code == 403
    memory.write_turns("alice-diary", [{"text": "My locker code is 4821."}], person="alice")
    known = memory.save(
        {
            "category": "fact",
            "context": "Alice is allergic to penicillin.",
            "confidence": 8,
            "person": "alice",
        }
    )
    answers = [
        _save(
            client,
            store,
            auth,
            {"category": "fact", "context": text, "confidence": 8, "person": "alice"},
            dedup,
        )
        for text in (
            "My locker code is 4821.",  # in her history
            "Alice is allergic to penicillin.",  # a record of hers (merged with dedup)
            "Alice's brother lives in Porto.",  # new
        )
    ]
    assert answers == [{"saved": True, **_empty(a)} for a in answers]
    assert all(a.get("id") is None and a.get("item") is None for a in answers)
    assert all(not a.get("mergedInto") and not a.get("reason") for a in answers)
    # the key's own words still tell it: a greeting is skipped as one
    hello = _save(
        client,
        store,
        auth,
        {"category": "fact", "context": "Hi there!", "confidence": 8, "person": "alice"},
        dedup,
    )
    assert hello["saved"] is False and hello["skipped"] == "greeting"
    # the same saves by a key that may read her memory are answered in full
    full = _save(
        client,
        store,
        t.auth(),
        {
            "category": "fact",
            "context": "Alice is allergic to penicillin.",
            "confidence": 8,
            "person": "alice",
        },
        dedup,
    )
    if dedup:
        assert full["mergedInto"] == known.id
    else:
        assert full["saved"] is True and full["id"] not in (None, known.id)


def _empty(answer: dict) -> dict:
    """The answer's fields other than `saved` that hold nothing."""
    return {k: v for k, v in answer.items() if k != "saved" and v in (None, False)}


def test_a_write_only_key_may_not_name_records(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    store, memory, auth, _ = _write_only(db, embedder)
    hers = memory.save({"category": "fact", "context": "Alice runs on Sundays.", "person": "alice"})
    for field, value in (
        ("edges", [{"kind": "item", "target": hers.id, "type": "relates_to"}]),
        ("fed_by", [hers.id]),
    ):
        body = {"category": "fact", "context": "Alice ran 10k.", "person": "alice", field: value}
        res = client.post(f"/v1/stores/{store}/records", json=body, headers=auth)
        assert res.status_code == 422 and res.json()["field"] == field, res.text
        # the same answer for an id that is no record at all
        body[field] = [{**value[0], "target": 10**12}] if field == "edges" else [10**12]
        res = client.post(f"/v1/stores/{store}/records", json=body, headers=auth)
        assert res.status_code == 422 and res.json()["field"] == field, res.text


def test_a_promise_called_off_or_kept_by_a_write_only_key_names_nothing(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    """Closing one of her promises is what the save does, not what the key may read: the
    answer holds no `cancelled` or `fulfilled` id (which would tell it her records)."""
    store, memory, auth, _ = _write_only(db, embedder)
    ids = [
        memory.save(
            {"category": "commitment", "context": text, "confidence": 8, "person": "alice"}
        ).id
        for text in (
            "Alice will bring the projector to the workshop",
            "Alice will pay the plumber 80 pounds",
        )
    ]
    answers = [
        _save(
            client,
            store,
            auth,
            {"category": "fact", "context": text, "confidence": 7, "person": "alice"},
            True,
        )
        for text in ("The workshop got cancelled.", "Alice paid the plumber.")
    ]
    assert answers == [{"saved": True, **_empty(a)} for a in answers]
    assert all(not a.get("cancelled") and not a.get("fulfilled") for a in answers)
    assert [memory.get(i).status for i in ids] == ["cancelled", "fulfilled"]
