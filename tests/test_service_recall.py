"""Search, auto-recall and the boot window through the HTTP API; a key's own decay and trust
envelope change what that key reads and nothing else; every read endpoint is audited with the
exact records it returned and refused (503, nothing recorded) when the audit row cannot be
written; every write endpoint replays a retried Idempotency-Key and writes once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from memory_pipelines.api.audit import reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import Tenant, new_key, tenant

CHAT = {
    "chat": "c1",
    "person": "ana",
    "turns": [
        {"text": "We moved the launch of the importer to Friday.", "speaker": "Ana"},
        {
            "text": "Ok, I will tell the design team about Friday.",
            "speaker": "Ben",
            "role": "assistant",
        },
    ],
}


@pytest.fixture
def t(db: Database, embedder: Embedder) -> Tenant:
    t = tenant(db, rate_per_minute=100_000, rate_burst=10_000)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ana")
    return t


def _fill(client: httpx.Client, t: Tenant) -> int:
    assert (
        client.post(f"/v1/stores/{t.store}/turns", json=CHAT, headers=t.auth()).status_code == 201
    )
    res = client.post(
        f"/v1/stores/{t.store}/records",
        json={
            "category": "decision",
            "context": "The importer launch moved to Friday.",
            "confidence": 8,
            "person": "ana",
        },
        headers=t.auth(),
    )
    assert res.status_code == 201, res.text
    return int(res.json()["id"])


def test_search_autorecall_and_boot_window_are_audited_with_what_they_return(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    item = _fill(client, t)
    res = client.post(
        f"/v1/stores/{t.store}/search",
        json={
            "query": "when is the importer launch?",
            "scopes": ["agent", "history"],
            "person": "ana",
            "k": 5,
        },
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    hits = res.json()["hits"]
    assert ("item", item) in {(h["kind"], h["id"]) for h in hits}
    assert all(0 < h["extra"]["confidence_as_read"] <= 0.8 for h in hits if h["kind"] == "item")
    [row] = reads_by_key(db, t.key_id, 1)
    assert row["record_refs"] == [f"{h['kind']}:{h['id']}" for h in hits]
    assert row["record_ids"] == sorted(h["id"] for h in hits if h["kind"] == "item")

    res = client.post(
        f"/v1/stores/{t.store}/autorecall",
        json={
            "chat": "c1",
            "user_message": "remind me when the importer launches",
            "person": "ana",
            "boot_budget_tokens": 0,
        },
        headers=t.auth(),
    )
    assert res.status_code == 422 and res.json()["field"] == "boot_budget_tokens"
    # the agent's own boot window: with one token nothing can be in it
    res = client.post(
        f"/v1/stores/{t.store}/autorecall",
        json={
            "chat": "c1",
            "user_message": "importer launch",
            "person": "ana",
            "boot_budget_tokens": 1,
        },
        headers=t.auth(),
    )
    assert res.status_code == 200 and res.json()["skipped"]["in_boot_window"] == 0, res.text
    res = client.post(
        f"/v1/stores/{t.store}/autorecall",
        json={
            "chat": "c1",
            "user_message": "remind me when the importer launches",
            "person": "ana",
        },
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    injected = [r["ref"] for r in res.json()["records"]]
    assert f"item:{item}" in injected
    [row] = reads_by_key(db, t.key_id, 1)
    assert row["endpoint"] == "POST /v1/stores/{store}/autorecall"
    assert row["record_refs"] == injected

    res = client.get(
        f"/v1/stores/{t.store}/chats/c1/boot",
        params={"budget_tokens": 500, "person": "ana"},
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    window = res.json()["records"]
    [row] = reads_by_key(db, t.key_id, 1)
    assert row["record_refs"] == [f"{r['kind']}:{r['id']}" for r in window] and len(window) == 2


def test_drill_down_opens_a_record_one_level_for_its_reader_and_is_audited(
    db: Database, embedder: Embedder, client: httpx.Client, t: Tenant
) -> None:
    from memory_pipelines.api.pyramid import rollup
    from memory_pipelines.models.base import Models
    from memory_pipelines.models.local import LocalBackend

    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ben")
    turns = [{"text": f"Note {i} on the shed roof.", "trace_ref": f"run-{i}"} for i in range(10)]
    memory.write_turns("ana-notes", turns, person="ana")
    rollup(db, t.store, Models(LocalBackend(embedder)), embedder)
    with db.connection() as conn:
        chunk = conn.execute(
            "SELECT chunk_id FROM chunks WHERE store_id = %s", (t.store,)
        ).fetchone()["chunk_id"]

    def drill(ref: str, key: str | None = None, **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {key}"} if key else t.auth()
        return client.get(f"/v1/stores/{t.store}/drill/{ref}", params=params, headers=headers)

    res = drill(f"chunk:{chunk}", person="ana")
    assert res.status_code == 200, res.text
    opened = res.json()
    assert opened["level"] == 1 and [c["kind"] for c in opened["children"]] == ["turn"] * 10
    [row] = reads_by_key(db, t.key_id, 1)
    assert row["endpoint"] == "GET /v1/stores/{store}/drill/{ref}"
    assert row["record_refs"] == [f"chunk:{chunk}"] + [
        f"turn:{c['turn_id']}" for c in opened["children"]
    ]
    third = opened["children"][3]["turn_id"]
    res = drill(f"turn:{third}", person="ana")
    assert res.status_code == 200 and res.json()["trace_ref"] == "run-3", res.text
    # Ana's chat is not the shared records' nor ben's: the same 404 as a record that is not.
    ben_id, ben = new_key(
        db,
        t.org,
        [{"effect": "permit", "actions": ["search_memory"], "persons": ["ben"]}],
    )
    for ref, key, params in (
        (f"chunk:{chunk}", None, {}),  # no person: the shared records only
        (f"chunk:{chunk}", ben, {}),
        (f"turn:{third}", ben, {}),
        ("chunk:999999999", None, {"person": "ana"}),
    ):
        res = drill(ref, key, **params)
        assert res.status_code == 404, (ref, res.text)
        assert "shed" not in res.text
        # whom it was read as, the same words whether the record exists or not
        whom = "?person=" if key is None and not params else "person 'ben'" if key else "'ana'"
        assert whom in res.json()["message"], res.text
    assert reads_by_key(db, ben_id, 5) == []
    res = drill("shed:1", person="ana")
    assert res.status_code == 422 and res.json()["field"] == "ref", res.text


def test_a_keys_decay_and_envelope_change_what_that_key_reads_only(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    item = _fill(client, t)
    # written a while ago: both keys read it after 4 days
    with db.connection() as conn:
        conn.execute(
            "UPDATE agent_memory_items SET updated_at = %s WHERE item_id = %s",
            (datetime.now(UTC) - timedelta(days=4), item),
        )
    _, fast = new_key(db, t.org, decay_per_type={"decision": 2.0}, trust_envelope=False)
    _, plain = new_key(db, t.org)
    url = f"/v1/stores/{t.store}/records/{item}"
    mine = client.get(url, headers=t.auth(fast)).json()["record"]
    theirs = client.get(url, headers=t.auth(plain)).json()["record"]
    assert mine["confidence"] == theirs["confidence"] == 8
    assert mine["confidence_as_read"] == pytest.approx(0.8 / 4, abs=0.01)  # two half-lives
    assert theirs["confidence_as_read"] == pytest.approx(0.8 * 0.5 ** (4 / 120), abs=0.01)
    query = {"query": "importer launch Friday", "scopes": ["agent"], "person": "ana"}
    hit = {
        k: next(
            h
            for h in client.post(
                f"/v1/stores/{t.store}/search", json=query, headers=t.auth(k)
            ).json()["hits"]
            if h["id"] == item
        )
        for k in (fast, plain)
    }
    assert hit[fast]["extra"]["confidence_as_read"] < hit[plain]["extra"]["confidence_as_read"]
    turn = {"chat": "c1", "user_message": "when does the importer launch?", "person": "ana"}
    got = {
        k: client.post(f"/v1/stores/{t.store}/autorecall", json=turn, headers=t.auth(k)).json()
        for k in (fast, plain)
    }
    text = {k: " ".join(str(m) for m in got[k]["messages"]) for k in got}
    assert "[memory]" in text[fast] and "<untrusted" not in text[fast]
    assert '<untrusted source="memory">' in text[plain] and "[memory]" not in text[plain]
    conf = {
        k: next(r["confidence"] for r in got[k]["records"] if r["ref"] == f"item:{item}")
        for k in got
    }
    # each line as that key reads it, as its search hits: the store's decay for the plain key
    assert conf[plain] == pytest.approx(10 * 0.8 * 0.5 ** (4 / 120), abs=0.1) and conf[plain] < 8
    assert conf[fast] == pytest.approx(2.0, abs=0.1)
    # nothing stored changed
    assert Memory(t.store, db=db).get(item).confidence == 8


READS = [
    ("GET", "/v1/stores/{store}/records", None),
    ("GET", "/v1/records", None),
    ("GET", "/v1/stores/{store}/records/{item}", None),
    ("GET", "/v1/stores/{store}/records/{item}/history", None),
    ("GET", "/v1/stores/{store}/commitments", None),
    ("GET", "/v1/stores/{store}/settings", None),
    ("GET", "/v1/stores/{store}/chats/c1/boot?person=ana", None),
    ("GET", "/v1/stores/{store}/drill/item:{item}?person=ana", None),
    ("POST", "/v1/stores/{store}/hydrate", {"refs": ["item:{item}"], "person": "ana"}),
    ("GET", "/v1/stores/{store}/period?start=2000-01-01&end=2100-01-01&person=ana", None),
    ("GET", "/v1/stores/{store}/neighbors/item:{item}?person=ana", None),
    ("POST", "/v1/stores/{store}/search", {"query": "importer launch", "person": "ana"}),
    (
        "POST",
        "/v1/stores/{store}/autorecall",
        {"chat": "c1", "user_message": "when is the importer launch?", "person": "ana"},
    ),
]


@contextmanager
def _audit_refused(db: Database, key_id: str) -> Iterator[None]:
    fn = f"refuse_{key_id}"
    with db.connection() as conn:
        conn.execute(
            f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF NEW.key_id = '{key_id}' THEN RAISE EXCEPTION 'audit refused'; END IF;"
            f" RETURN NEW; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER {fn} BEFORE INSERT ON read_audit FOR EACH ROW EXECUTE FUNCTION {fn}()"
        )
    try:
        yield
    finally:
        with db.connection() as conn:
            conn.execute(f"DROP TRIGGER {fn} ON read_audit")
            conn.execute(f"DROP FUNCTION {fn}()")


def test_every_read_fails_when_its_audit_row_cannot_be_written(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    item = _fill(client, t)

    def call(method: str, path: str, body: Any) -> httpx.Response:
        url = path.format(store=t.store, item=item)
        if body and "refs" in body:
            body = {**body, "refs": [r.format(item=item) for r in body["refs"]]}
        return client.request(method, url, json=body, headers=t.auth())

    with db.connection() as conn:
        accesses = conn.execute(
            "SELECT access_count FROM agent_memory_items WHERE item_id = %s", (item,)
        ).fetchone()["access_count"]
        injections = conn.execute(
            "SELECT count(*) AS n FROM agent_roi_injections WHERE store_id = %s", (t.store,)
        ).fetchone()["n"]
    with _audit_refused(db, t.key_id):
        refused = [call(*r) for r in READS]
    for (_, path, _), res in zip(READS, refused, strict=True):
        assert res.status_code == 503, (path, res.text)
        assert res.json()["error"] == "audit_failed"
        assert "importer" not in res.text
    assert reads_by_key(db, t.key_id) == []
    with db.connection() as conn:  # a refused search counted no recall, logged no injection
        assert (
            conn.execute(
                "SELECT access_count FROM agent_memory_items WHERE item_id = %s", (item,)
            ).fetchone()["access_count"]
            == accesses
        )
        assert (
            conn.execute(
                "SELECT count(*) AS n FROM agent_roi_injections WHERE store_id = %s", (t.store,)
            ).fetchone()["n"]
            == injections
        )
    served = [call(*r) for r in READS]
    assert [r.status_code for r in served] == [200] * len(READS), [r.text for r in served]
    assert len(reads_by_key(db, t.key_id)) == len(READS)


def _rows(db: Database, t: Tenant) -> dict[str, Any]:
    with db.connection() as conn:
        one = conn.execute(
            "SELECT (SELECT count(*) FROM agent_memory_items WHERE store_id = %(s)s) AS items,"
            " (SELECT count(*) FROM item_versions WHERE store_id = %(s)s) AS versions,"
            " (SELECT count(*) FROM events WHERE store_id = %(s)s) AS events,"
            " (SELECT count(*) FROM turns WHERE store_id = %(s)s) AS turns,"
            " (SELECT maintenance::text FROM stores WHERE store_id = %(s)s) AS maintenance",
            {"s": t.store},
        ).fetchone()
    return dict(one)


def test_every_write_endpoint_replays_a_retry_and_writes_once(
    db: Database, client: httpx.Client, t: Tenant
) -> None:
    item = _fill(client, t)
    made = client.post(
        f"/v1/stores/{t.store}/records",
        json={"category": "commitment", "context": "Cleo sends the budget.", "confidence": 8},
        headers=t.auth(),
    )
    assert made.status_code == 201, made.text
    promise = made.json()["id"]
    # (method, path, body, another body under the same Idempotency-Key)
    writes = [
        (
            "POST",
            "/v1/stores/{store}/turns",
            {"chat": "c2", "turns": [{"text": "The budget review is on Monday."}]},
            {"chat": "c2", "turns": [{"text": "The budget review is on Tuesday."}]},
        ),
        (
            "POST",
            "/v1/stores/{store}/records",
            {"category": "fact", "context": "The budget review is on Monday.", "confidence": 8},
            {"category": "fact", "context": "The budget review is on Monday.", "confidence": 9},
        ),
        (
            "POST",
            "/v1/stores/{store}/records/dedup",
            {"category": "fact", "context": "Cleo leads the budget review.", "confidence": 8},
            {"category": "fact", "context": "Cleo leads the budget review.", "confidence": 7},
        ),
        (
            "PATCH",
            "/v1/stores/{store}/settings",
            {"maintenance": {"archive_idle_days": 45}},
            {"maintenance": {"archive_idle_days": 46}},
        ),
        ("POST", "/v1/stores/{store}/commitments/{promise}/fulfil", None, None),
        ("DELETE", "/v1/stores/{store}/records/{item}", None, None),
    ]
    for n, (method, path, body, other_body) in enumerate(writes):
        url = path.format(store=t.store, item=item, promise=promise)
        headers = {**t.auth(), "Idempotency-Key": f"retry-{n}"}
        first = client.request(method, url, json=body, headers=headers)
        assert first.status_code in (200, 201), (path, first.text)
        after_first = _rows(db, t)
        again = client.request(method, url, json=body, headers=headers)
        assert (again.status_code, again.json()) == (first.status_code, first.json()), path
        assert again.headers.get("idempotent-replayed") == "true"
        assert _rows(db, t) == after_first, path
        if other_body is not None:  # the same key with another request is refused
            other = client.request(method, url, json=other_body, headers=headers)
            assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key", path
        assert _rows(db, t) == after_first, path
