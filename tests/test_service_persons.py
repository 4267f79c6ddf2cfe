"""PUT and GET /v1/stores/{store}/persons: the persons a store's records can be for, added
and listed over HTTP by a key that administers the store's settings, never by a key limited
to one person (who else the store holds is not its to learn)."""

from __future__ import annotations

import httpx

from memory_pipelines.store.db import Database
from tests.api_server import new_key, only_person, tenant


def test_persons_added_over_http_then_written_for(db: Database, client: httpx.Client) -> None:
    t = tenant(db)
    url = f"/v1/stores/{t.store}/persons"
    record = {"category": "fact", "context": "Maya runs on Sundays", "person": "maya"}
    before = client.post(f"/v1/stores/{t.store}/records", json=record, headers=t.auth())
    assert before.status_code == 422 and before.json()["field"] == "person"
    added = client.put(f"{url}/maya", json={"name": "Maya Ruiz"}, headers=t.auth())
    assert added.status_code == 200 and added.json() == {"person": "maya", "name": "Maya Ruiz"}
    again = client.put(f"{url}/maya", json={}, headers=t.auth())  # kept, name unchanged
    assert again.status_code == 200 and again.json()["name"] == "Maya Ruiz"
    assert client.put(f"{url}/tom", json={}, headers=t.auth()).status_code == 200
    listed = client.get(url, headers=t.auth())
    assert listed.status_code == 200
    assert listed.json() == {
        "persons": [{"person": "maya", "name": "Maya Ruiz"}, {"person": "tom", "name": ""}]
    }
    saved = client.post(f"/v1/stores/{t.store}/records", json=record, headers=t.auth())
    assert saved.status_code == 201, saved.text

    # a key limited to one person may neither list nor add persons
    _, tom = new_key(db, t.org, only_person(t.store, "tom"))
    for res in (
        client.get(url, headers=t.auth(tom)),
        client.put(f"{url}/x", json={}, headers=t.auth(tom)),
    ):
        assert res.status_code == 403 and res.json()["action"] == "administer_settings"
    # another organisation's store is one that does not exist
    other = tenant(db)
    assert client.get(url, headers=other.auth()).status_code == 404
    assert client.put(f"{url}/eve", json={}, headers=other.auth()).status_code == 404
    # a bad id or name names the field
    long = client.put(f"{url}/{'x' * 101}", json={}, headers=t.auth())
    assert long.status_code == 422
    named = client.put(f"{url}/zed", json={"name": "a\nb"}, headers=t.auth())
    odd = client.put(f"{url}/zed", json={"nmae": "Zed"}, headers=t.auth())
    assert odd.status_code == 422 and "nmae" in odd.text
    assert named.status_code == 422 and named.json()["field"] == "name", named.text
    assert [p["person"] for p in client.get(url, headers=t.auth()).json()["persons"]] == [
        "maya",
        "tom",
    ]
