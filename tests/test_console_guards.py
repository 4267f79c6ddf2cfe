"""The console's guarantees over plain HTTP: a page whose read cannot be audited is not shown,
a settings form without the session's token is refused and saves nothing, another
organisation's store cannot be changed or deleted, no route of the console changes or
deletes a record, and the Stores page's notice of a deletion names only a store the
organisation deleted."""

from __future__ import annotations

import re

import httpx
from fastapi.routing import APIRoute

from memory_pipelines.api.accounts import sign_in
from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service import create_app
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.console_helpers import PASSWORD, new_admin

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _browser(db: Database, api_url: str, org: str) -> tuple[httpx.Client, int, str]:
    """A client signed in as a new administrator of `org`: (client, account id, csrf token)."""
    name, account = new_admin(db, org)
    session = sign_in(db, org, name, PASSWORD)
    assert session is not None
    client = httpx.Client(
        base_url=api_url, cookies={"mp_console": session.token}, follow_redirects=True
    )
    return client, account, session.csrf_token


def test_a_page_whose_read_cannot_be_audited_is_not_shown(
    db: Database, api_url: str, embedder: Embedder
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    saved = memory.save(
        {"category": "fact", "context": "The Faro depot keeps the spare scanners", "confidence": 7}
    )
    chat = memory.write_turns("c", [{"text": "The Faro depot keeps the spare scanners."}])
    client, account, _ = _browser(db, api_url, org)
    fn = f"refuse_account_{account}"
    with db.connection() as conn:
        conn.execute(
            f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF NEW.account_id = {account} THEN RAISE EXCEPTION 'audit refused'; END IF;"
            " RETURN NEW; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER {fn} BEFORE INSERT ON read_audit FOR EACH ROW EXECUTE FUNCTION {fn}()"
        )
    try:
        pages = [
            client.get(path)
            for path in (
                "/console",
                "/console/records",
                f"/console/stores/{store}/records/{saved.id}",
                "/console/commitments",
                f"/console/stores/{store}",
                f"/console/traces/stores/{store}/chats/{chat[0].chat_id}",
            )
        ]
    finally:
        with db.connection() as conn:
            conn.execute(f"DROP TRIGGER {fn} ON read_audit")
            conn.execute(f"DROP FUNCTION {fn}()")
    for res in pages:
        assert res.status_code == 503, (res.url, res.text)
        assert "This page cannot be shown now" in res.text
        assert "Faro depot" not in res.text and f'data-record="{saved.id}"' not in res.text
    assert reads_by_account(db, account) == []
    shown = client.get("/console/records")
    assert shown.status_code == 200 and "Faro depot" in shown.text
    assert reads_by_account(db, account)[0]["record_ids"] == [saved.id]
    client.close()


def test_settings_and_delete_forms_need_the_token_and_an_own_store(
    db: Database, api_url: str
) -> None:
    org, other = new_org(db), new_org(db)
    store, theirs = new_store(db, org), new_store(db, other)
    Memory(theirs, db=db).configure(extraction={"enabled": False})
    client, _, csrf = _browser(db, api_url, org)
    card = f"/console/stores/{store}/cards/search"
    for token in ("", "forged"):
        res = client.post(card, data={"csrf": token, "reranker": "evil"}, headers=FORM)
        assert res.status_code == 403 and "This form cannot be accepted" in res.text
    # the token, but another organisation's store: not found, nothing changed or deleted
    for path, data in (
        (f"/console/stores/{theirs}/cards/search", {"reranker": "evil"}),
        (f"/console/stores/{theirs}/delete", {"confirm": theirs}),
    ):
        res = client.post(path, data={"csrf": csrf, **data}, headers=FORM)
        assert res.status_code == 404 and "does not exist" in res.text
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT store_id, search FROM stores WHERE store_id = ANY(%s) ORDER BY 1",
            ([store, theirs],),
        ).fetchall()
    assert {r["store_id"]: r["search"] for r in rows} == {store: {}, theirs: {}}
    # an unknown card is no card
    res = client.post(f"/console/stores/{store}/cards/trust", data={"csrf": csrf}, headers=FORM)
    assert res.status_code == 404
    # with everything right it saves
    res = client.post(card, data={"csrf": csrf, "reranker": "bge"}, headers=FORM)
    assert res.status_code == 200 and str(res.url).endswith("?saved=search#search")
    assert Memory(store, db=db, create=False).settings().search.reranker == "bge"
    client.close()


def test_no_console_route_changes_a_record(db: Database, embedder: Embedder) -> None:
    app = create_app(db, embedder=embedder)

    def routes(items: list) -> list[APIRoute]:  # included routers are kept apart (FastAPI 0.16x)
        out = []
        for r in items:
            inner = getattr(r, "original_router", None)
            out += routes(inner.routes) if inner is not None else [r]
        return [r for r in out if isinstance(r, APIRoute)]

    console = [r for r in routes(app.routes) if r.path.startswith("/console")]
    assert len(console) > 8
    writes = sorted(r.path for r in console if r.methods - {"GET", "HEAD"})
    # signing in and out, the ceilings of the organisations below, a store's settings cards
    # and deleting a store: never a record
    assert writes == [
        "/console/link/{token}",
        "/console/settings/capabilities/{child}",
        "/console/signin",
        "/console/signout",
        "/console/stores/{store_id}/cards/{card}",
        "/console/stores/{store_id}/delete",
    ]
    assert not any(re.search(r"records", p) for p in writes)


def test_addresses_edited_by_hand_get_a_page_not_a_crash(db: Database, api_url: str) -> None:
    org = new_org(db)
    store = new_store(db, org)
    client, _, _ = _browser(db, api_url, org)
    for path, status in (
        (f"/console/stores/{store}/records/abc", 404),
        (f"/console/stores/{store}/records/99999999999", 404),
        ("/console/stores/NOT A STORE", 404),
        ("/console/commitments?status=late", 400),
        ("/console/commitments?page=0", 400),
        ("/console/records?after=garbage", 422),
        ("/console/records?state=lost", 422),
        ("/console/records?index=nope", 404),
    ):
        res = client.get(path)
        assert res.status_code == status, (path, res.status_code, res.text[:300])
        assert res.headers["content-type"].startswith("text/html"), path
    client.close()


def test_the_deleted_notice_names_only_a_store_the_organisation_deleted(
    db: Database, api_url: str, embedder: Embedder
) -> None:
    """Found by an audit helper: `/console?deleted=<any text>` showed the text as a notice of
    success ("Store acme-prod. Your session expired: sign in again at evil.example was
    deleted.")."""
    org, other = new_org(db), new_org(db)
    ours, theirs = new_store(db, org), new_store(db, other)
    client, _, csrf = _browser(db, api_url, org)
    with client:
        Memory(ours, db=db, embedder=embedder, create=False).configure(
            extraction={"enabled": False}
        )
        res = client.post(
            f"/console/stores/{ours}/delete", data={"confirm": ours, "csrf": csrf}, headers=FORM
        )
        assert res.status_code == 200 and f"Store {ours} was deleted." in res.text
        their_memory = Memory(theirs, db=db, embedder=embedder, create=False)
        their_memory.configure(extraction={"enabled": False})
        their_memory.delete_store(actor="admin")
        for text in ("evil.example says: sign in again", theirs, "no-such-store"):
            shown = client.get("/console", params={"deleted": text})
            assert shown.status_code == 200 and "was deleted" not in shown.text, text


def test_a_page_asked_for_from_another_site_shows_only_a_link_to_itself(
    db: Database, api_url: str, embedder: Embedder
) -> None:
    """Found by a spec audit: SameSite=Lax sends the session cookie with a link from another
    site, so any site could make an administrator's browser open a record and write that read
    into the audit under their account. Such a page shows a link to itself and reads nothing."""
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    saved = memory.save(
        {"category": "fact", "context": "The Faro depot keeps the spare scanners", "confidence": 7}
    )
    client, account, _ = _browser(db, api_url, org)
    paths = [
        "/console",
        "/console/records?q=Faro",
        f"/console/stores/{store}/records/{saved.id}",
        "/console/commitments",
        f"/console/stores/{store}",
        "/console/settings",
    ]
    with client:
        for site in ("cross-site", "same-site"):
            for path in paths:
                res = client.get(path, headers={"Sec-Fetch-Site": site})
                assert res.status_code == 200 and "Opened from another site" in res.text, path
                assert "Faro depot" not in res.text and store not in res.text.split("Open")[0]
                link = re.search(r'data-testid="open-here">Open ([^<]+)<', res.text)
                assert link and link.group(1).replace("&amp;", "&") == path
        # the address as sent: "%41" is not turned into "A" (another store's address)
        encoded = f"/console/stores/{store}%41"
        res = client.get(encoded, headers={"Sec-Fetch-Site": "cross-site"})
        assert f'data-testid="open-here">Open {encoded}<' in res.text
        assert reads_by_account(db, account) == []
        for site in ("same-origin", "none", None):
            headers = {"Sec-Fetch-Site": site} if site else {}
            res = client.get(f"/console/stores/{store}/records/{saved.id}", headers=headers)
            assert res.status_code == 200 and "Faro depot" in res.text, site
        assert [r["record_ids"] for r in reads_by_account(db, account)] == [[saved.id]] * 3
