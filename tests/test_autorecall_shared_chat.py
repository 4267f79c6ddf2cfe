"""Auto-recall and search in a chat others read: a key limited to one person may ask for the
shared records only (`"person": null`), and the open commitments that ride on every turn of
a shared chat are the shared ones, never a person's own (an audit's probes, which failed)."""

from __future__ import annotations

from typing import Any

import httpx

from memory_pipelines.api import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, only_person

FAST = {"rate_per_minute": 1_000_000, "rate_burst": 1_000_000}
SECRET = "Quokkaleaf"


def _world(db: Database, embedder: Embedder) -> dict[str, Any]:
    org = new_org(db)
    store = new_store(db, org)
    m = Memory(store, db=db, embedder=embedder)
    m.add_person("ana")
    m.add_person("ben")
    m.write_turns("lobby", [{"text": "Welcome to the team planning chat.", "speaker": "Host"}])
    m.write_turns("ana-dm", [{"text": "Morning!", "speaker": "Ana"}], person="ana")
    m.save(
        {"category": "commitment", "confidence": 8, "person": "ana",
         "context": f"Ana will pick up her {SECRET} biopsy results from the clinic",
         "due_at": "2030-01-01T00:00:00Z"}
    )  # fmt: skip
    m.save(
        {"category": "commitment", "confidence": 8,
         "context": "The team will send the offsite agenda to everyone",
         "due_at": "2030-01-02T00:00:00Z"}
    )  # fmt: skip
    m.save(
        {"category": "fact", "confidence": 8, "person": "ana",
         "context": f"Ana's {SECRET} treatment makes her miss the Friday offsite planning"}
    )  # fmt: skip
    _, ana_key = new_key(db, org, only_person(store, "ana"), **FAST)
    both = [{**only_person(store, "ana")[0], "persons": ["ana", "ben"]}]
    _, both_key = new_key(db, org, both, **FAST)
    return {
        "store": store,
        "ana": {"Authorization": f"Bearer {ana_key}"},
        "both": {"Authorization": f"Bearer {both_key}"},
    }


def _recall(client: httpx.Client, w: dict[str, Any], **body: Any) -> list[str]:
    res = client.post(
        f"/v1/stores/{w['store']}/autorecall",
        headers=w["ana"],
        json={"budget_tokens": 2000, **body},
    )
    assert res.status_code == 200, res.text
    return [str(r) for r in res.json()["records"]]


def test_person_null_reads_the_shared_records_only(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    w = _world(db, embedder)
    message = "Will Ana miss the Friday offsite planning because of her treatment?"
    shared = _recall(client, w, chat="lobby", person=None, user_message=message)
    assert not [r for r in shared if SECRET in r], shared
    assert [r for r in shared if "offsite agenda" in r], shared  # the shared commitment rides
    # Left out, the key reads as its one person: her record relevant to the message is found.
    hers = _recall(client, w, chat="lobby", user_message=message)
    assert [r for r in hers if "treatment" in r], hers

    def searched(**body: Any) -> list[str]:
        res = client.post(
            f"/v1/stores/{w['store']}/search",
            headers=w["ana"],
            json={"query": "Quokkaleaf treatment offsite", "scopes": ["agent"], **body},
        )
        assert res.status_code == 200, res.text
        return [h["text"] for h in res.json()["hits"]]

    assert not [t for t in searched(person=None) if SECRET in t]
    assert [t for t in searched() if SECRET in t]


def test_a_shared_chat_carries_no_persons_commitment(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    """A greeting finds nothing, but open commitments ride on every turn: in the shared chat
    only the shared one, in her own chat hers too."""
    w = _world(db, embedder)
    lobby = _recall(client, w, chat="lobby", user_message="Good morning everyone!")
    assert not [r for r in lobby if SECRET in r], lobby
    assert [r for r in lobby if "offsite agenda" in r], lobby
    own = _recall(client, w, chat="ana-dm", user_message="Good morning!")
    assert [r for r in own if SECRET in r], own


def test_a_key_of_several_persons_may_read_the_shared_only(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    """`"person": null` is the shared records for any key that may read in the store: a key
    limited to two persons was refused, told to name one (a review's probe)."""
    w = _world(db, embedder)
    url = f"/v1/stores/{w['store']}/search"
    query = {"query": "Quokkaleaf treatment offsite", "scopes": ["agent"]}
    shared = client.post(url, headers=w["both"], json={**query, "person": None})
    assert shared.status_code == 200, shared.text
    assert shared.json()["hits"] and not [h for h in shared.json()["hits"] if SECRET in h["text"]]
    unnamed = client.post(url, headers=w["both"], json=query)
    assert unnamed.status_code == 403 and "person" in unnamed.text
