"""Fuzzed request bodies on every write endpoint of the HTTP API (hypothesis), against the real
server: never a 500, and a refused request writes nothing (rows counted before and after).

Bodies are drawn three ways: any JSON at all, bodies shaped like a real request whose every field
may be wrong (NUL, lone surrogates, far dates, unknown fields, wrong types), and raw bytes that
are not JSON or not UTF-8. Some carry an Idempotency-Key: a refused one must not keep it.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memory_pipelines.api.memory import Memory
from memory_pipelines.store.db import Database
from tests.api_server import Tenant, tenant

ROWS = {
    "turns": "SELECT count(*) AS n FROM turns WHERE store_id = %(store)s",
    "chats": "SELECT count(*) AS n FROM chats WHERE store_id = %(store)s",
    "events": "SELECT count(*) AS n FROM events WHERE store_id = %(store)s",
    "idempotent": "SELECT count(*) AS n FROM idempotent_requests WHERE key_id = %(key)s",
}

nasty_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(), max_size=20),
    st.sampled_from(["", " ", "\x00", "a\x00b", "\ud800", "x\udfff", "\u2028", "😀" * 3]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    nasty_text,
)
any_json = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
dates = st.one_of(
    st.sampled_from(
        [
            "2024-05-01T10:00:00",
            "2024-05-01T10:00:00+02:00",
            "0001-01-01T00:00:00",
            "9999-12-31T23:59:59",
            "2024-02-30",
            "last week",
            "",
            "2024-05-01T10:00:00\x00",
        ]
    ),
    st.integers(min_value=-(2**40), max_value=2**40),
    scalars,
)


valid_turn = st.fixed_dictionaries(
    {"text": st.sampled_from(["We moved the launch to Friday.", "ok", "Ana prefers tea."])},
    optional={
        "role": st.sampled_from(["user", "assistant", "system", "tool"]),
        "speaker": st.sampled_from(["Ana", "Ben", ""]),
        "created_at": st.sampled_from(["2024-05-01T10:00:00", "2024-05-01T10:00:00+02:00"]),
        "external_id": st.text(alphabet="abcdef0123", min_size=1, max_size=4),
        "trace_ref": st.just("trace-1"),
    },
)
valid_body = st.fixed_dictionaries(
    {"chat": st.sampled_from(["c1", "c2"]), "turns": st.lists(valid_turn, min_size=1, max_size=3)},
    optional={"person": st.just("ana")},
)
wild = st.one_of(nasty_text, dates, scalars, any_json)
TURN_FIELDS = ["text", "role", "speaker", "created_at", "external_id", "trace_ref", "mood"]


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, Any]:
    """A real request with none, one or two of its fields made wrong: the bad value can sit
    in any turn, so a write that checked only the first turn would half-write."""
    body = draw(valid_body)
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.sampled_from(["chat", "person", "turns", "turn", "turn", "extra"]))
        value = draw(wild)
        if where == "turn" and isinstance(body["turns"], list) and body["turns"]:
            i = draw(st.integers(0, len(body["turns"]) - 1))
            if isinstance(body["turns"][i], dict):
                body["turns"][i][draw(st.sampled_from(TURN_FIELDS))] = value
        elif where == "extra":
            body[draw(st.text(max_size=6))] = value
        elif where != "turn":
            body[where] = value
    return body


encoded = st.one_of(
    near_valid().map(lambda b: json.dumps(b).encode()),
    near_valid().map(lambda b: json.dumps(b).encode()),
    near_valid().map(lambda b: json.dumps(b).encode()),
    any_json.map(lambda b: json.dumps(b).encode()),
    st.binary(max_size=64),
    st.sampled_from([b"", b"{", b'{"chat": "c1", "turns": [', b"\xff\xfe{}", b"null"]),
)


def _rows(db: Database, t: Tenant) -> dict[str, int]:
    with db.connection() as conn:
        return {
            name: int(conn.execute(sql, {"store": t.store, "key": t.key_id}).fetchone()["n"])
            for name, sql in ROWS.items()
        }


@pytest.fixture
def fuzzed(db: Database) -> Tenant:
    t = tenant(db, rate_per_minute=1_000_000, rate_burst=1_000_000)
    Memory(t.store, db=db).add_person("ana")
    return t


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=encoded, idempotency=st.one_of(st.none(), st.text(min_size=1, max_size=8)))
def test_fuzzed_turn_writes_never_500_and_never_half_write(
    db: Database, client: httpx.Client, fuzzed: Tenant, body: bytes, idempotency: str | None
) -> None:
    headers = {**fuzzed.auth(), "Content-Type": "application/json"}
    if (
        idempotency
        and idempotency.isprintable()
        and idempotency.isascii()
        and idempotency.strip() == idempotency
    ):
        headers["Idempotency-Key"] = idempotency
    before = _rows(db, fuzzed)
    res = client.post(f"/v1/stores/{fuzzed.store}/turns", content=body, headers=headers)
    after = _rows(db, fuzzed)
    event(f"status {res.status_code}")
    assert res.status_code != 500, res.text
    assert res.status_code in (201, 409, 422), res.text
    out = res.json()
    if res.status_code == 201 and res.headers.get("Idempotent-Replayed") == "true":
        assert after == before  # a retry under the same Idempotency-Key writes nothing
        return
    if res.status_code == 201:
        new = sum(1 for t in out["turns"] if t["new"])
        assert after["turns"] - before["turns"] == new
        assert after["chats"] - before["chats"] in (0, 1)
        return
    assert after == before, (res.status_code, out)
    if res.status_code == 422:
        assert out["error"] == "invalid" and out["field"], out


# -- every other write endpoint -----------------------------------------------------------

WRITE_ROWS = {
    "items": "SELECT count(*) AS n FROM agent_memory_items WHERE store_id = %(store)s",
    "listing": "SELECT count(*) AS n FROM item_listing WHERE store_id = %(store)s",
    "versions": "SELECT count(*) AS n FROM item_versions WHERE store_id = %(store)s",
    "events": "SELECT count(*) AS n FROM events WHERE store_id = %(store)s",
    "links": "SELECT count(*) AS n FROM links WHERE store_id = %(store)s",
    "calls": "SELECT count(*) AS n FROM model_calls WHERE store_id = %(store)s",
    "idempotent": "SELECT count(*) AS n FROM idempotent_requests WHERE key_id = %(key)s",
    "settings": "SELECT md5(row_to_json(s)::text) AS n FROM stores s WHERE store_id = %(store)s",
}
ITEM_FIELDS = ["category", "context", "body", "confidence", "importance", "tags", "labels",
               "entities", "keywords", "edges", "metadata", "valid_from", "validFrom", "person",
               "source", "status", "due_at", "owed_to", "chat", "turn_seq", "from_seq",
               "to_seq", "fed_by", "origin", "model", "mood"]  # fmt: skip
valid_item = st.fixed_dictionaries(
    {"category": st.sampled_from(["fact", "decision", "commitment"]),
     "context": st.sampled_from(["The launch moved to Friday.", "Ana prefers tea.", "hi"])},
    optional={
        "confidence": st.integers(1, 10),
        "person": st.sampled_from(["ana", None]),
        "tags": st.lists(st.sampled_from(["x", "y"]), max_size=2),
        "metadata": st.dictionaries(st.sampled_from(["team", "tier"]), scalars, max_size=2),
        "valid_from": dates,
        "due_at": dates,
        "chat": st.just("c1"),
        "turn_seq": st.integers(0, 3),
        "fed_by": st.lists(st.integers(0, 5), max_size=2),
        "edges": st.lists(st.fixed_dictionaries({"type": st.just("relates_to"),
                                                 "target": st.integers(0, 5)}), max_size=1),
    },
)  # fmt: skip
CARD_FIELDS = {
    "maintenance": ["enabled", "cron", "timezone", "duplicate_threshold", "archive_below",
                    "archive_idle_days", "check_contradictions"],
    "search": ["knowledge_graph", "reranker"],
    "commitments": ["carry_open", "most_carried"],
    "decay_per_type": ["half_life_days"],
    "extraction": ["enabled", "model", "types", "every_minutes", "cron", "timezone"],
    "save_policy": ["budget_per_turn"],
}  # fmt: skip


@st.composite
def near_valid_item(draw: st.DrawFn) -> dict[str, Any]:
    body = draw(valid_item)
    for _ in range(draw(st.integers(0, 2))):
        body[draw(st.sampled_from(ITEM_FIELDS))] = draw(wild)
    return body


@st.composite
def settings_change(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(any_json)
    out: dict[str, Any] = {}
    for card in draw(st.lists(st.sampled_from([*CARD_FIELDS, "trust_envelope", "nope"]),
                              min_size=1, max_size=3)):  # fmt: skip
        if card == "trust_envelope":
            out[card] = draw(st.one_of(st.booleans(), wild))
        elif card == "nope":
            out[card] = draw(wild)
        else:
            fields = CARD_FIELDS[card]
            out[card] = {
                draw(st.sampled_from([*fields, "x"])): draw(
                    st.one_of(wild, st.integers(0, 100), st.floats(0, 1), st.booleans(),
                              st.sampled_from(["0 3 * * *", "UTC", "Europe/Paris", "local"]),
                              st.dictionaries(st.sampled_from(["fact", "Bad Type"]),
                                              st.one_of(st.floats(-1, 400), wild), max_size=2)))
                for _ in range(draw(st.integers(1, 2)))
            }  # fmt: skip
    return out


def _as_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()


path_ids = st.one_of(
    st.integers(-5, 2**64).map(str),
    nasty_text.filter(lambda s: s.strip() != "" and max(s, default="") < "\ud800"),
).map(lambda s: quote(s, safe="").encode())
item_bodies = st.one_of(
    near_valid_item().map(_as_bytes), any_json.map(_as_bytes), st.binary(max_size=32)
)
endpoints = st.one_of(
    st.tuples(st.just(("POST", "records")), item_bodies),
    st.tuples(st.just(("POST", "records/dedup")), near_valid_item().map(_as_bytes)),
    st.tuples(st.just(("PATCH", "settings")), settings_change().map(_as_bytes)),
    st.tuples(st.just(("DELETE", "records/")), path_ids),
    st.tuples(st.just(("POST", "search")), st.one_of(
        st.fixed_dictionaries({"query": nasty_text}, optional={"scopes": wild, "k": wild,
                                                               "person": wild}).map(_as_bytes),
        any_json.map(_as_bytes))),
    st.tuples(st.just(("POST", "autorecall")), st.one_of(
        st.fixed_dictionaries({"chat": st.sampled_from(["c1", "nope"]), "user_message": nasty_text},
                              optional={"person": wild, "budget_tokens": wild,
                                        "turn_seq": wild}).map(_as_bytes),
        any_json.map(_as_bytes))),
)  # fmt: skip


def _write_rows(db: Database, t: Tenant) -> dict[str, Any]:
    with db.connection() as conn:
        return {
            name: conn.execute(sql, {"store": t.store, "key": t.key_id}).fetchone()["n"]
            for name, sql in WRITE_ROWS.items()
        }


@pytest.fixture
def fuzzed_store(db: Database, fuzzed: Tenant) -> Tenant:
    memory = Memory(fuzzed.store, db=db)
    memory.write_turns("c1", [{"text": "We moved the launch to Friday."}], person="ana")
    for text in ("The office is in Lisbon.", "Cleo leads design."):
        memory.save({"category": "fact", "context": text, "confidence": 8})
    return fuzzed


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(call=endpoints, idempotency=st.one_of(st.none(), st.text(min_size=1, max_size=8)))
def test_fuzzed_bodies_on_every_write_endpoint_never_500_and_never_half_write(
    db: Database,
    client: httpx.Client,
    fuzzed_store: Tenant,
    call: tuple[tuple[str, str], bytes],
    idempotency: str | None,
) -> None:
    (method, where), body = call
    t = fuzzed_store
    headers = {**t.auth(), "Content-Type": "application/json"}
    if (
        idempotency
        and idempotency.isprintable()
        and idempotency.isascii()
        and idempotency.strip() == idempotency
    ):
        headers["Idempotency-Key"] = idempotency
    if where == "records/":
        url, content = f"/v1/stores/{t.store}/records/{body.decode()}", None
    else:
        url, content = f"/v1/stores/{t.store}/{where}", body
    before = _write_rows(db, t)
    res = client.request(method, url, content=content, headers=headers)
    after = _write_rows(db, t)
    event(f"{method} {where}: {res.status_code}")
    assert res.status_code != 500, res.text
    assert res.status_code in (200, 201, 404, 405, 409, 422), res.text
    out = res.json()
    if res.status_code >= 300 or res.headers.get("Idempotent-Replayed") == "true":
        if res.status_code >= 300:
            assert out.get("error") in ("invalid", "not_found", "in_flight", "method_not_allowed")
        if res.status_code == 422:
            assert out["field"], out
        assert {k: v for k, v in after.items() if k != "calls"} == {
            k: v for k, v in before.items() if k != "calls"
        }, (res.status_code, out)
        return
    grew = after["items"] - before["items"]
    assert after["listing"] - before["listing"] == grew  # the list's copy is whole
    if where in ("records", "records/dedup"):
        assert res.status_code == (201 if out["saved"] and not out["deduplicated"] else 200)
        assert grew == (1 if res.status_code == 201 else 0)
        if grew:  # a whole record: its version and its create event with it
            assert after["versions"] > before["versions"] and after["events"] > before["events"]
    elif where == "records/":
        assert grew == -1 and out["deleted"]
    elif where == "settings":
        assert grew == 0
        assert client.get(f"/v1/stores/{t.store}/settings", headers=t.auth()).json() == out
    else:  # search, auto-recall: reads write no record
        assert grew == 0 and after["settings"] == before["settings"]


def test_a_lone_surrogate_under_an_idempotency_key_is_refused_by_name(
    db: Database, client: httpx.Client, fuzzed_store: Tenant
) -> None:
    """Found by the fuzz above: the Idempotency-Key fingerprint serialised the body as UTF-8
    before the write refused it, and a lone surrogate made that a 500. The same 422 as without
    the header, naming the field, and nothing written; the key is free for a retry."""
    t = fuzzed_store
    body = (
        b'{"category": "fact", "context": "The launch moved to Friday.",'
        b' "metadata": {"team": "\\ud800"}}'
    )
    before = _write_rows(db, t)
    for key in (None, "retry-1", "retry-1"):
        headers = {**t.auth(), "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        res = client.post(f"/v1/stores/{t.store}/records", content=body, headers=headers)
        assert res.status_code == 422, res.text
        assert res.json()["field"] == "metadata.team"
    assert _write_rows(db, t) == before
