"""Fuzzed request bodies on every write endpoint of the HTTP API (hypothesis), against the real
server: never a 500, and a refused request writes nothing (rows counted before and after).

Bodies are drawn three ways: any JSON at all, bodies shaped like a real request whose every field
may be wrong (NUL, lone surrogates, far dates, unknown fields, wrong types), and raw bytes that
are not JSON or not UTF-8. Some carry an Idempotency-Key: a refused one must not keep it.
"""

from __future__ import annotations

import json
from typing import Any

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
    if idempotency is not None and idempotency.isprintable() and idempotency.isascii():
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
