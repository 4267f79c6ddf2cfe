"""The console in a real browser (Debian's Chromium through Playwright) against the real server:
sign in and out, a wrong password, CSRF refusals, and an administrator of another organisation
seeing nothing of this one."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.organisations import set_ceiling
from memory_pipelines.core.settings import StoreSettings
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.console_helpers import PASSWORD, new_admin, sign_in_with_form, signed_in

SIGNIN = re.compile(r"/console/signin$")
HOME = re.compile(r"/console$")
_admin, _sign_in = new_admin, sign_in_with_form


def _stores_shown(page: Page) -> list[str]:
    return [str(r.get_attribute("data-store")) for r in page.locator("tr[data-store]").all()]


def test_sign_in_see_the_stores_and_sign_out(
    db: Database, context: BrowserContext, page: Page
) -> None:
    org = new_org(db)
    configured, plain = new_store(db, org), new_store(db, org)
    default = StoreSettings().extraction.enabled
    Memory(configured, db=db).configure(extraction={"enabled": not default})
    name, account = _admin(db, org)

    page.goto("/console")
    expect(page).to_have_url(SIGNIN)
    _sign_in(page, org, name)
    expect(page).to_have_url(HOME)
    expect(page.get_by_test_id("account")).to_have_text(name)
    expect(page.get_by_test_id("audit-notice")).to_contain_text("Reading is recorded")
    assert sorted(_stores_shown(page)) == sorted([configured, plain])
    row = page.locator(f'tr[data-store="{configured}"]')
    expect(row.locator("td").nth(1)).to_have_text("Configured")
    expect(row.locator("td").nth(2)).to_have_text("Off" if default else "On")
    expect(row.locator("td").nth(4)).to_have_text("Never")
    other = page.locator(f'tr[data-store="{plain}"]')
    expect(other.locator("td").nth(1)).to_have_text("Default settings")
    expect(other.locator("td").nth(2)).to_have_text("On" if default else "Off")

    [cookie] = [c for c in context.cookies() if c["name"] == "mp_console"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/console"
    # the list was audited under the administrator's account
    [read] = reads_by_account(db, account)
    assert read["endpoint"] == "GET /console" and read["key_id"] is None

    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(SIGNIN)
    assert not [c for c in context.cookies() if c["name"] == "mp_console"]
    # the old cookie is worth nothing: the session ended on the server
    context.add_cookies([{**cookie}])
    page.goto("/console")
    expect(page).to_have_url(SIGNIN)
    assert len(reads_by_account(db, account)) == 1


def test_a_wrong_password_is_refused(db: Database, context: BrowserContext, page: Page) -> None:
    org = new_org(db)
    new_store(db, org)
    name, account = _admin(db, org)
    for org_, name_, password in (
        (org, name, PASSWORD + "!"),
        (org, "nobody", PASSWORD),
        ("no-such-org", name, PASSWORD),
    ):
        _sign_in(page, org_, name_, password)
        expect(page.get_by_role("alert")).to_have_text(
            "The organisation, name or password is not right."
        )
        expect(page).to_have_url(SIGNIN)
    assert not [c for c in context.cookies() if c["name"] == "mp_console"]
    page.goto("/console")
    expect(page).to_have_url(SIGNIN)
    assert reads_by_account(db, account) == []


def test_forms_without_the_sessions_token_are_refused(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    name, _ = _admin(db, org)
    _sign_in(page, org, name)
    assert _stores_shown(page) == [store]

    # a page elsewhere on this machine (same site, so the Lax cookie goes along) posts the
    # sign-out form without the token
    evil = api_url.rsplit(":", 1)[0] + ":9/evil"
    context.route(
        evil,
        lambda route: route.fulfill(
            content_type="text/html",
            body=f'<form method="post" action="{api_url}/console/signout">'
            '<button type="submit">Win a prize</button></form>',
        ),
    )
    page.goto(evil)
    page.get_by_role("button", name="Win a prize").click()
    expect(page.get_by_role("heading")).to_have_text("This form cannot be accepted")
    # a token changed on the console's own page is refused too
    page.goto("/console")
    page.locator('form.signout input[name="csrf"]').evaluate("e => e.value = 'forged'")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading")).to_have_text("This form cannot be accepted")
    # neither signed the administrator out
    page.goto("/console")
    assert _stores_shown(page) == [store]


def test_an_administrator_of_another_organisation_sees_nothing_of_it(
    db: Database, page: Page
) -> None:
    mine, theirs = new_org(db), new_org(db)
    mine_store = new_store(db, mine)
    theirs_store = new_store(db, theirs)
    name, _ = _admin(db, mine)
    # signing in to their organisation with my name and password does not work
    _sign_in(page, theirs, name)
    expect(page.get_by_role("alert")).to_be_visible()
    _sign_in(page, mine, name)
    assert _stores_shown(page) == [mine_store]
    assert theirs_store not in page.content() and theirs not in page.content()

    # an organisation with no store: the spec's empty message
    empty = new_org(db)
    empty_name, _ = _admin(db, empty)
    page.get_by_role("button", name="Sign out").click()
    _sign_in(page, empty, empty_name)
    expect(page.get_by_test_id("empty")).to_have_text(
        "Nothing remembered yet: no application or model has written memory in this organisation."
    )
    # ... and why the list is empty: no store (a console audit found the message alone unclear)
    expect(page.get_by_test_id("no-stores")).to_contain_text("It owns no store yet")


def test_memory_off_in_the_ceiling_shows_the_permitted_capabilities_message(
    db: Database, page: Page
) -> None:
    parent = new_org(db)
    child = new_org(db, parent=parent)
    store = new_store(db, child)
    name, account = _admin(db, child)
    set_ceiling(db, parent, ["knowledge"])
    _sign_in(page, child, name)
    off = page.get_by_test_id("memory-off")
    expect(off).to_contain_text("Memory per user is off in the organisation's ceiling.")
    expect(off).to_contain_text("under Permitted capabilities on Settings")
    expect(off).to_contain_text(f"Off in the ceiling of: {parent}")
    assert store not in page.content()
    assert reads_by_account(db, account) == []  # nothing was read


def test_a_record_linked_from_another_site_is_opened_only_from_here(
    db: Database, embedder: Embedder, context: BrowserContext, page: Page, api_url: str
) -> None:
    """A link on another page (here a page with no origin) to a record of the console: Chromium
    sends the session cookie (SameSite=Lax) and says the link came from another site; the
    console shows a link to the record and audits nothing until it is followed."""
    org = new_org(db)
    store = new_store(db, org)
    saved = Memory(store, db=db, embedder=embedder).save(
        {"category": "fact", "context": "Ana keeps the Faro depot's spare key", "confidence": 7}
    )
    account = signed_in(db, context, api_url, org)
    address = f"/console/stores/{store}/records/{saved.id}"
    page.set_content(f'<a href="{api_url}{address}">a record</a>')
    page.get_by_role("link", name="a record").click()
    expect(page.get_by_test_id("another-site")).to_be_visible()
    assert "Faro depot" not in page.content()
    assert reads_by_account(db, account) == []
    page.get_by_test_id("open-here").click()
    expect(page.get_by_text("Ana keeps the Faro depot's spare key").first).to_be_visible()
    assert [r["record_ids"] for r in reads_by_account(db, account)] == [[saved.id]]
