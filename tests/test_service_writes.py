"""Writes through the HTTP API: turns written, bad input a 422 naming the field with nothing
written, oversized bodies refused before parsing, Idempotency-Key retries written once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from memory_pipelines.store.db import Database
from tests.api_server import MAX_BODY, Tenant, tenant

TURNS = {
    "chat": "c1",
    "turns": [
        {"text": "Shall we move the launch?", "speaker": "Ana"},
        {
            "text": "Yes, to Friday the 14th.",
            "speaker": "Ben",
            "role": "assistant",
            "created_at": "2026-11-02T10:00:00Z",
            "external_id": "m-2",
        },
    ],
}


def _turns(db: Database, store: str) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT t.seq, t.text, t.role, t.speaker, t.external_id, c.key_id FROM turns t"
            " JOIN chats c USING (chat_id) WHERE t.store_id = %s ORDER BY t.seq",
            (store,),
        ).fetchall()


@pytest.fixture
def t(db: Database) -> Tenant:
    return tenant(db)


def test_write_turns(db: Database, client: httpx.Client, t: Tenant) -> None:
    res = client.post(f"/v1/stores/{t.store}/turns", json=TURNS, headers=t.auth())
    assert res.status_code == 201, res.text
    body = res.json()
    assert body["chat"] == "c1"
    assert [(r["seq"], r["new"]) for r in body["turns"]] == [(1, True), (2, True)]
    rows = _turns(db, t.store)
    assert [(r["text"], r["role"], r["speaker"]) for r in rows] == [
        ("Shall we move the launch?", "user", "Ana"),
        ("Yes, to Friday the 14th.", "assistant", "Ben"),
    ]
    assert {r["key_id"] for r in rows} == {t.key_id}  # the chat remembers the key
    # the same external_id again is skipped, not written twice
    again = client.post(
        f"/v1/stores/{t.store}/turns",
        json={"chat": "c1", "turns": [TURNS["turns"][1]]},
        headers=t.auth(),
    )
    assert again.json()["turns"][0]["new"] is False
    assert len(_turns(db, t.store)) == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"turns": TURNS["turns"]}, "chat"),
        ({"chat": "c1", "turns": []}, "turns"),
        ({"chat": "c1", "turns": [{"text": ""}]}, "turns[0].text"),
        ({"chat": "c1", "turns": [{"text": "hi"}, {"text": "x", "role": "boss"}]}, "turns[1].role"),
        (
            {"chat": "c1", "turns": [{"text": "hi", "created_at": "last week"}]},
            "turns[0].created_at",
        ),
        ({"chat": "c1", "turns": [{"text": "hi", "mood": "glad"}]}, "turns[0].mood"),
        ({"chat": "c1", "person": "nobody", "turns": [{"text": "hi"}]}, "person"),
        ({"chat": "c1", "turns": [{"text": "   "}]}, "turns[0].text"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    db: Database, client: httpx.Client, t: Tenant, body: dict[str, Any], field: str
) -> None:
    res = client.post(f"/v1/stores/{t.store}/turns", json=body, headers=t.auth())
    assert res.status_code == 422, res.text
    out = res.json()
    assert out["error"] == "invalid"
    assert out["field"] == field, out
    assert out["message"].startswith(field)
    if field == "turns[0].text" and body["turns"][0]["text"]:
        assert out["message"] == "turns[0].text: must contain text, not only spaces"
    assert _turns(db, t.store) == []


def test_invalid_json_is_a_422(client: httpx.Client, t: Tenant) -> None:
    res = client.post(
        f"/v1/stores/{t.store}/turns",
        content=b'{"chat": "c1", "turns": [',
        headers={**t.auth(), "Content-Type": "application/json"},
    )
    assert res.status_code == 422 and res.json()["field"] == "body"


def test_oversized_bodies_are_refused_before_parsing(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    big = {"chat": "c1", "turns": [{"text": "x" * (MAX_BODY + 10)}]}
    res = client.post(f"/v1/stores/{t.store}/turns", json=big, headers=t.auth())
    assert res.status_code == 413 and res.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: a streamed (chunked) body
        yield b'{"chat": "c1", "turns": [{"text": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"y" * 1000
        yield b'"}]}'

    res = client.post(
        f"/v1/stores/{t.store}/turns",
        content=chunks(),
        headers={**t.auth(), "Content-Type": "application/json"},
    )
    assert res.status_code == 413 and res.json()["error"] == "too_large"
    assert _turns(db, t.store) == []
    # a small streamed body still goes through
    res = client.post(
        f"/v1/stores/{t.store}/turns",
        content=iter([b'{"chat": "c1", ', b'"turns": [{"text": "ok"}]}']),
        headers={**t.auth(), "Content-Type": "application/json"},
    )
    assert res.status_code == 201, res.text


def test_idempotent_retry_writes_once(db: Database, client: httpx.Client, t: Tenant) -> None:
    body = {"chat": "c1", "turns": [{"text": "Book the venue for the 14th."}]}  # no external_id
    headers = {**t.auth(), "Idempotency-Key": "retry-1"}
    first = client.post(f"/v1/stores/{t.store}/turns", json=body, headers=headers)
    second = client.post(f"/v1/stores/{t.store}/turns", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second.headers.get("idempotent-replayed") == "true"
    assert "idempotent-replayed" not in first.headers
    assert len(_turns(db, t.store)) == 1

    # the same Idempotency-Key for another request is refused, nothing written
    other = client.post(f"/v1/stores/{t.store}/turns", json={**body, "chat": "c2"}, headers=headers)
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    # Idempotency-Keys are per API key: another key's "retry-1" is its own
    u = tenant(db)
    res = client.post(
        f"/v1/stores/{u.store}/turns", json=body, headers={**u.auth(), "Idempotency-Key": "retry-1"}
    )
    assert res.status_code == 201 and "idempotent-replayed" not in res.headers
    # without the header every request writes
    client.post(f"/v1/stores/{t.store}/turns", json=body, headers=t.auth())
    assert len(_turns(db, t.store)) == 2


def test_a_refused_first_request_is_not_replayed(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    headers = {**t.auth(), "Idempotency-Key": "retry-2"}
    body = {"chat": "c1", "person": "ana", "turns": [{"text": "hello"}]}
    assert client.post(f"/v1/stores/{t.store}/turns", json=body, headers=headers).status_code == 422
    from memory_pipelines.api.memory import Memory

    Memory(t.store, db=db).add_person("ana")
    res = client.post(f"/v1/stores/{t.store}/turns", json=body, headers=headers)
    assert res.status_code == 201 and len(_turns(db, t.store)) == 1


def test_the_same_idempotency_key_for_another_person_is_another_request(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    """`?person=` is part of the request: a delete retried as it was sent is replayed, the
    same Idempotency-Key with another person is refused (422), not answered with the first."""
    from memory_pipelines.api.memory import Memory

    memory = Memory(t.store, db=db)
    for person in ("ana", "bob"):
        memory.add_person(person)
    item = memory.save({"category": "fact", "context": "Ana's locker is 31", "person": "ana"})
    url = f"/v1/stores/{t.store}/records/{item.id}"
    headers = {**t.auth(), "Idempotency-Key": "del-1"}
    first = client.delete(url, params={"person": "ana"}, headers=headers)
    assert first.status_code == 200, first.text
    retry = client.delete(url, params={"person": "ana"}, headers=headers)
    assert retry.status_code == 200 and retry.headers.get("idempotent-replayed") == "true"
    other = client.delete(url, params={"person": "bob"}, headers=headers)
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"


def test_a_retried_save_is_checked_again_before_its_answer_is_replayed(
    db: Database, client: httpx.Client
) -> None:
    """A key since denied the write is refused its retry (403), and a store since moved to
    another organisation is a 404 to it, as for new requests: a replay is no way past a check."""
    from memory_pipelines.api.organisations import assign_store, set_policy
    from memory_pipelines.core.access import ACTIONS
    from tests.api_server import new_org

    body = {"category": "fact", "context": "The launch moved to Friday.", "confidence": 8}
    for change in ("deny", "move"):
        u = tenant(db)
        path = f"/v1/stores/{u.store}/records"
        headers = {**u.auth(), "Idempotency-Key": f"save-{change}"}
        assert client.post(path, json=body, headers=headers).status_code == 201
        replayed = client.post(path, json=body, headers=headers)
        assert replayed.headers.get("idempotent-replayed") == "true"
        if change == "deny":
            policy = [
                {"effect": "deny", "actions": ["write_memory"]},
                {"effect": "permit", "actions": list(ACTIONS)},
            ]
            set_policy(db, u.org, policy)
        else:
            assign_store(db, u.store, new_org(db))
        again = client.post(path, json=body, headers=headers)
        assert again.status_code == (403 if change == "deny" else 404), again.text
        assert "idempotent-replayed" not in again.headers


def test_a_person_limited_key_writing_without_person_is_told_to_send_one(
    db: Database, client: httpx.Client
) -> None:
    """Found by a new-user probe: Tom's key saving without `person` got only \"no rule
    permits it\"; a write without a person is a shared one, which that key may not make."""
    from memory_pipelines.api.memory import Memory
    from tests.api_server import new_key, only_person

    u = tenant(db)
    Memory(u.store, db=db).add_person("tom")
    _, tom = new_key(db, u.org, only_person(u.store, "tom"))
    record = {"category": "fact", "context": "Tom cycles to work", "confidence": 7}
    turns = {"chat": "c1", "turns": [{"text": "I cycle to work"}]}
    for path, body in (("records", record), ("turns", turns)):
        res = client.post(f"/v1/stores/{u.store}/{path}", json=body, headers=u.auth(tom))
        assert res.status_code == 403 and "send `person`" in res.json()["message"], res.text
        ok = client.post(
            f"/v1/stores/{u.store}/{path}", json={**body, "person": "tom"}, headers=u.auth(tom)
        )
        assert ok.status_code == 201, ok.text


def test_responses_kept_past_their_24_hours_are_removed(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    """What a kept response holds (the written record's text) is kept 24 hours, as the README
    says: rows past that go as new keys are claimed (found by a second reader: they were only
    ever replaced by a retry of the same key)."""
    headers = {**t.auth(), "Idempotency-Key": "old-1"}
    assert client.post(f"/v1/stores/{t.store}/turns", json=TURNS, headers=headers).is_success
    with db.connection() as conn:
        conn.execute(
            "UPDATE idempotent_requests SET created_at = now() - interval '25 hours'"
            " WHERE idempotency_key = 'old-1'"
        )
    headers = {**t.auth(), "Idempotency-Key": "new-1"}
    assert client.post(f"/v1/stores/{t.store}/turns", json=TURNS, headers=headers).is_success
    with db.connection() as conn:
        keys = conn.execute(
            "SELECT idempotency_key FROM idempotent_requests WHERE store_id = %s", (t.store,)
        ).fetchall()
    assert [r["idempotency_key"] for r in keys] == ["new-1"]


def test_a_claim_never_waits_on_an_expired_row_another_claim_holds(db: Database, t: Tenant) -> None:
    """The purge of expired responses skips rows another claim holds (found by a reader of the
    purge: two claims each taking over an expired key deadlocked, one write failing)."""
    import threading

    from memory_pipelines.store import idempotency as idem_db

    with db.connection() as conn:
        for key in ("held", "other"):
            conn.execute(
                "INSERT INTO idempotent_requests (key_id, idempotency_key, fingerprint,"
                " store_id, status_code, response, created_at)"
                " VALUES (%s, %s, 'f', %s, 201, '{}', now() - interval '25 hours')",
                (t.key_id, key, t.store),
            )
    done = threading.Event()
    with db.connection() as holder, holder.transaction():
        # another claim taking over the expired key "held", its transaction still open
        holder.execute(
            "UPDATE idempotent_requests SET created_at = now() WHERE idempotency_key = 'held'"
        )

        def claim_other() -> None:
            with db.connection() as conn:
                idem_db.claim(conn, t.key_id, "other", "f2", t.store)
            done.set()

        worker = threading.Thread(target=claim_other)
        worker.start()
        assert done.wait(10), "a claim waited on a row another claim holds"
    worker.join(10)


def test_a_first_request_that_died_unanswered_is_never_run_again_under_its_key(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    """Found by a bad-input audit: a server killed after a save committed and before its
    response was kept left the claim unfinished; after five minutes a retry took the claim
    over and saved the record a second time. Now the retry is told the outcome is unknown
    (silent for six minutes: no server says it is still at it)."""
    body = {"category": "fact", "context": "The Lisbon office opens at 9am.", "confidence": 8}
    headers = {**t.auth(), "Idempotency-Key": "crash-1"}
    assert client.post(f"/v1/stores/{t.store}/records", json=body, headers=headers).is_success
    with db.connection() as conn:  # what a kill between the write's commit and finish leaves
        conn.execute(
            "UPDATE idempotent_requests SET status_code = NULL, response = NULL,"
            " created_at = now() - interval '6 minutes', alive_at = now() - interval '6 minutes'"
            " WHERE key_id = %s AND idempotency_key = 'crash-1'",
            (t.key_id,),
        )
    retry = client.post(f"/v1/stores/{t.store}/records", json=body, headers=headers)
    assert retry.status_code == 409 and retry.json()["error"] == "outcome_unknown", retry.text
    assert "Retry-After" not in retry.headers and "new key" in retry.json()["message"]
    with db.connection() as conn:
        n = conn.execute(
            "SELECT count(*) AS n FROM agent_memory_items WHERE store_id = %s", (t.store,)
        ).fetchone()["n"]
    assert n == 1
    fresh = {**t.auth(), "Idempotency-Key": "crash-2"}
    assert client.post(f"/v1/stores/{t.store}/records", json=body, headers=fresh).is_success


def test_a_first_request_still_served_is_in_flight_however_long_it_takes(
    db: Database, t: Tenant
) -> None:
    """A claim was judged dead by its age alone: a write held on locks past five minutes was
    told to its retry as unknown, and sent again with a new key it was written twice. The
    server serving it now says it is alive every 30 seconds, on a connection of its own (the
    writes may hold every pooled one: a review's probe, where a beat waited 32 s and was
    skipped); silent for two minutes, it is dead."""
    from memory_pipelines.api import idempotency as idem

    def age() -> None:
        with db.connection() as conn:
            conn.execute(
                "UPDATE idempotent_requests SET created_at = now() - interval '10 minutes',"
                " alive_at = now() - interval '10 minutes'"
                " WHERE key_id = %s AND idempotency_key = 'slow'",
                (t.key_id,),
            )

    small = Database(db.dsn, max_size=1)  # a server whose pool the writes hold
    try:
        assert idem.begin(small, t.key_id, "slow", "print", t.store) is None
        with idem.served(small, t.key_id, "slow"), small.connection():
            age()  # ten minutes at it
            idem.beat_served()  # what the server's beat says each 30 seconds
            with pytest.raises(idem.InFlight):
                idem.begin(db, t.key_id, "slow", "print", t.store)
        age()  # its server went away ten minutes ago: no beat since
        idem.beat_served()
        with pytest.raises(idem.Unanswered):
            idem.begin(db, t.key_id, "slow", "print", t.store)
    finally:
        small.close()
