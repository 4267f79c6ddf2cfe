"""Every id a write takes can be named in an address (found by a bad-input audit): a chat id or
a person id holding "/" was written, and then its boot window or its person route answered 404;
"." and "..", which clients resolve away in an address, are refused when written."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Database
from tests.api_server import tenant


@pytest.mark.parametrize("encode", [True, False])
def test_a_chat_id_with_a_slash_is_read_back(
    db: Database, client: httpx.Client, encode: bool
) -> None:
    t = tenant(db)
    body = {"chat": "team/alpha", "turns": [{"text": "We ship on Friday."}]}
    assert client.post(f"/v1/stores/{t.store}/turns", json=body, headers=t.auth()).is_success
    chat = quote("team/alpha", safe="") if encode else "team/alpha"
    res = client.get(f"/v1/stores/{t.store}/chats/{chat}/boot", headers=t.auth())
    assert res.status_code == 200, res.text
    assert "We ship on Friday." in res.text


def test_a_person_id_with_a_slash_is_put_over_http(db: Database, client: httpx.Client) -> None:
    t = tenant(db)
    Memory(t.store, db=db).add_person("team/alpha")
    res = client.put(
        f"/v1/stores/{t.store}/persons/{quote('team/alpha', safe='')}",
        json={"name": "Alpha team"},
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
    assert res.json()["person"] == "team/alpha"


@pytest.mark.parametrize("dots", [".", ".."])
def test_dots_for_an_id_are_refused(db: Database, client: httpx.Client, dots: str) -> None:
    t = tenant(db)
    body = {"chat": dots, "turns": [{"text": "We ship on Friday."}]}
    res = client.post(f"/v1/stores/{t.store}/turns", json=body, headers=t.auth())
    assert res.status_code == 422 and res.json()["field"] == "chat", res.text
    with pytest.raises(ValidationError, match="person"):
        Memory(t.store, db=db).add_person(dots)
