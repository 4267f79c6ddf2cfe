"""`memory-pipelines orgs ...` and `keys ...`: a key is printed once, listed without its secret,
and revoked; ceilings and policies are validated."""

from __future__ import annotations

import json
import uuid

from click.testing import CliRunner

from memory_pipelines.api.access import authenticate
from memory_pipelines.cli import main
from memory_pipelines.store.db import Database


def test_orgs_and_keys(db: Database) -> None:
    runner = CliRunner()
    parent, child = f"p-{uuid.uuid4().hex[:8]}", f"c-{uuid.uuid4().hex[:8]}"
    store = f"t-{uuid.uuid4().hex[:8]}"

    def ok(*args: str) -> str:
        res = runner.invoke(main, list(args))
        assert res.exit_code == 0, res.output
        return res.output

    ok("orgs", "create", parent, "--permit", "read_memory,write_memory")
    ok("orgs", "create", child, "--parent", parent, "--ceiling", "knowledge")
    bad = runner.invoke(main, ["orgs", "ceiling", child, "memory"])
    assert bad.exit_code == 2 and "memory needs knowledge" in bad.output
    ok("orgs", "ceiling", parent, "knowledge")
    bad = runner.invoke(main, ["orgs", "ceiling", child, "knowledge,memory"])
    assert bad.exit_code == 2 and f"ceiling of organisation {parent!r}" in bad.output
    policy = ok("orgs", "policy", parent, '[{"effect": "deny", "actions": ["delete_memory"]}]')
    assert json.loads(policy) == [{"effect": "deny", "actions": ["delete_memory"]}]
    bad = runner.invoke(main, ["orgs", "policy", parent, "--permit", "read_everything"])
    assert bad.exit_code == 2 and "policy[0].actions" in bad.output
    ok("init", "--store", store)
    ok("orgs", "assign", parent, store)
    assert f"{parent}" in ok("orgs", "list")

    out = ok(
        "keys",
        "create",
        "--org",
        parent,
        "--name",
        "app",
        "--permit",
        "read_memory",
        "--store",
        store,
        "--decay",
        "preference=30",
        "--no-trust-envelope",
        "--by",
        "test",
    )
    text = out.strip().splitlines()[-1]
    assert text.startswith("mp_")
    principal = authenticate(db, text)
    assert principal is not None and principal.org_id == parent
    key_id = principal.key_id
    assert key_id is not None

    from memory_pipelines.api.keys import list_keys

    [row] = list_keys(db, parent)
    assert row["decay_per_type"] == {"preference": 30.0} and row["trust_envelope"] is False
    assert row["policy"] == [{"effect": "permit", "actions": ["read_memory"], "stores": [store]}]

    listed = ok("keys", "list", "--org", parent)
    assert key_id in listed and text not in listed and text.split("_", 2)[2] not in listed
    assert "active" in listed and "never" in listed

    assert "revoked" in ok("keys", "revoke", key_id, "--by", "test")
    assert authenticate(db, text) is None
    assert "revoked" in ok("keys", "list", "--org", parent)
