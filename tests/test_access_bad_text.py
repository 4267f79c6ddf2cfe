"""Keys, organisations and administrators, and the CLI commands that write them: text Postgres
cannot hold (NUL), that is not Unicode (a lone surrogate: an argument typed in a terminal that
is not UTF-8), or that is not text at all is refused naming the field, and nothing is written.
Found by a bad-input audit: these reached Postgres unchecked (DataError, UnicodeEncodeError,
a number stored as text), and the CLI printed a traceback."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from memory_pipelines.api.accounts import create_admin
from memory_pipelines.api.keys import create_key, revoke_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.organisations import create_organisation, set_policy
from memory_pipelines.cli import main
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Database

RULE = {"effect": "permit", "actions": ["read_memory"]}
Call = Callable[[Database, str, str], Any]


def _new_org() -> str:
    return f"n-{uuid.uuid4().hex[:8]}"


CASES: list[tuple[str, Call, str]] = [
    (
        "key name NUL",
        lambda db, org, key: create_key(db, org, name="a\x00b", created_by="t"),
        "name",
    ),
    (
        "key name surrogate",
        lambda db, org, key: create_key(db, org, name="a\ud800", created_by="t"),
        "name",
    ),
    ("key name int", lambda db, org, key: create_key(db, org, name=5, created_by="t"), "name"),
    (
        "key name 1 MB",
        lambda db, org, key: create_key(db, org, name="x" * 1_000_000, created_by="t"),
        "name",
    ),
    (
        "key created_by NUL",
        lambda db, org, key: create_key(db, org, created_by="a\x00"),
        "created_by",
    ),
    (
        "key created_by surrogate",
        lambda db, org, key: create_key(db, org, created_by="\udcff"),
        "created_by",
    ),
    ("key created_by int", lambda db, org, key: create_key(db, org, created_by=7), "created_by"),
    (
        "key policy store NUL",
        lambda db, org, key: create_key(
            db, org, created_by="t", policy=[{**RULE, "stores": ["a\x00"]}]
        ),
        "policy",
    ),
    (
        "key policy person surrogate",
        lambda db, org, key: create_key(
            db, org, created_by="t", policy=[{**RULE, "persons": ["\ud800"]}]
        ),
        "policy",
    ),
    (
        "org name NUL",
        lambda db, org, key: create_organisation(db, _new_org(), name="a\x00"),
        "name",
    ),
    (
        "org name surrogate",
        lambda db, org, key: create_organisation(db, _new_org(), name="\ud800"),
        "name",
    ),
    ("org name int", lambda db, org, key: create_organisation(db, _new_org(), name=5), "name"),
    (
        "org policy persons NUL",
        lambda db, org, key: set_policy(db, org, [{**RULE, "persons": ["a\x00"]}]),
        "policy",
    ),
    (
        "admin created_by NUL",
        lambda db, org, key: create_admin(db, org, "ana", created_by="a\x00"),
        "created_by",
    ),
    ("revoke key_id NUL", lambda db, org, key: revoke_key(db, "a\x00", actor="me"), "key_id"),
    ("revoke actor NUL", lambda db, org, key: revoke_key(db, key, actor="a\x00"), "actor"),
    ("revoke actor int", lambda db, org, key: revoke_key(db, key, actor=5), "actor"),
]


def _counts(db: Database) -> tuple[int, int, int]:
    with db.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) n FROM {t}").fetchone()["n"]  # noqa: S608
            for t in ("api_keys", "organisations", "admin_accounts")
        )


@pytest.mark.parametrize(("call", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_admin_writes_refuse_bad_text_by_field(db: Database, call: Call, field: str) -> None:
    org = f"o-{uuid.uuid4().hex[:10]}"
    create_organisation(db, org, ceiling=["knowledge", "memory"], policy=[])
    key = create_key(db, org, created_by="t")[0]["key_id"]
    before = _counts(db)
    with pytest.raises(ValidationError) as err:
        call(db, org, key)
    assert field in err.value.field, str(err.value)
    assert _counts(db) == before


NUL_POLICY = '[{"effect": "permit", "actions": ["read_memory"], "persons": ["a\\u0000"]}]'
NUL_STORE_POLICY = '[{"effect": "permit", "actions": ["read_memory"], "stores": ["s\\u0000"]}]'
BAD = "caf\udce9"  # `café` typed in latin-1, as Python decodes argv

CASES = {
    "orgs policy NUL person": lambda org, store: ["orgs", "policy", org, NUL_POLICY],
    "orgs create NUL store in policy": lambda org, store: [
        "orgs",
        "create",
        f"n{uuid.uuid4().hex[:8]}",
        "--policy",
        NUL_STORE_POLICY,
    ],
    "orgs create name not utf-8": lambda org, store: [
        "orgs",
        "create",
        f"n{uuid.uuid4().hex[:8]}",
        "--name",
        BAD,
    ],
    "orgs assign store not utf-8": lambda org, store: ["orgs", "assign", org, BAD],
    "keys create NUL policy": lambda org, store: [
        "keys",
        "create",
        "--org",
        org,
        "--by",
        "me",
        "--policy",
        NUL_POLICY,
    ],
    "keys create by not utf-8": lambda org, store: ["keys", "create", "--org", org, "--by", BAD],
    "keys create name not utf-8": lambda org, store: [
        "keys",
        "create",
        "--org",
        org,
        "--by",
        "me",
        "--name",
        BAD,
    ],
    "keys create person not utf-8": lambda org, store: [
        "keys",
        "create",
        "--org",
        org,
        "--by",
        "me",
        "--permit",
        "read_memory",
        "--person",
        BAD,
    ],
    "keys revoke id not utf-8": lambda org, store: ["keys", "revoke", BAD, "--by", "me"],
    "admins create by not utf-8": lambda org, store: [
        "admins",
        "create",
        "--org",
        org,
        "--name",
        "ana",
        "--by",
        BAD,
    ],
    "jobs deactivate actor not utf-8": lambda org, store: [
        "jobs",
        "deactivate",
        "reflection",
        "-s",
        store,
        "--actor",
        BAD,
    ],
}


def _setup(db: Database) -> tuple[str, str]:
    org = f"o-{uuid.uuid4().hex[:10]}"
    create_organisation(db, org, ceiling=["knowledge", "memory"], policy=[])
    store = f"t-{uuid.uuid4().hex[:12]}"
    Memory(store, db=db).write_turn("c1", "hello")
    return org, store


@pytest.mark.parametrize("kind", list(CASES))
def test_cli_refuses_with_one_error_line(db: Database, kind: str) -> None:
    org, store = _setup(db)
    res = CliRunner().invoke(main, CASES[kind](org, store))
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        f"{type(res.exception).__name__}: {str(res.exception)[:200]}"
    )
    assert res.exit_code == 2 and res.output.startswith("error: "), res.output
