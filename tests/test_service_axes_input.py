"""The new recall endpoints on odd input and on documents: a 422 naming the field, never a
500; a document hydrated is named as refs name it, in the answer and in the audit (found by an
independent review of these endpoints)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from memory_pipelines.api.audit import reads_by_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store


@pytest.fixture
def shop(db: Database, embedder: Embedder) -> dict[str, Any]:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("ana")
    key_id, key = new_key(db, org)
    return {
        "store": store,
        "memory": memory,
        "h": {"Authorization": f"Bearer {key}"},
        "key": key_id,
    }


@pytest.mark.parametrize(
    "method,path,body,field",
    [
        ("POST", "/hydrate", {"refs": ["item:\u00b2"]}, "ref"),  # "²".isdigit(); int() fails
        ("POST", "/hydrate", {"refs": ["item:" + "9" * 5000]}, "refs[0]"),  # too long a ref
        ("POST", "/hydrate", {"refs": ["item:99999999999999999999"]}, "ref"),  # past a bigint
        ("GET", "/neighbors/item:%C2%B2", None, "ref"),
        ("GET", "/drill/item:%C2%B2", None, "ref"),
        (
            "GET",
            "/period?start=2025-01-01&end=2025-02-01&after=2025-01-01|item|%C2%B2",
            None,
            "after",
        ),
        (
            "GET",
            "/period?start=2025-01-01&end=2025-02-01&after=2025-01-01|item|99999999999999999999999",
            None,
            "after",
        ),
    ],
)
def test_odd_refs_and_cursors_are_a_422_naming_the_field(
    api_url: str, shop: dict[str, Any], method: str, path: str, body: Any, field: str
) -> None:
    with httpx.Client(base_url=api_url, timeout=30) as c:  # a 500 would close a shared one
        res = c.request(method, f"/v1/stores/{shop['store']}{path}", json=body, headers=shop["h"])
    assert res.status_code == 422, (res.status_code, res.text)
    assert res.json()["field"] == field


def test_a_hydrated_document_is_named_as_refs_name_it(
    db: Database, client: httpx.Client, shop: dict[str, Any]
) -> None:
    shop["memory"].add_document("d1", "The quarterly report says revenue grew.", title="Report")
    with db.connection() as conn:
        row = conn.execute(
            "SELECT passage_id FROM documents WHERE store_id = %s", (shop["store"],)
        ).fetchone()
    ref = f"document:{row['passage_id']}"
    res = client.post(
        f"/v1/stores/{shop['store']}/hydrate", json={"refs": [ref]}, headers=shop["h"]
    )
    assert res.status_code == 200, res.text
    [record] = res.json()["records"]
    assert record["ref"] == ref and record["kind"] == "basic"
    [audit] = reads_by_key(db, shop["key"], 1)
    assert audit["record_refs"] == [ref]
