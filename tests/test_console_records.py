"""Memory > Records and one record in a real browser, over the demo organisation: every filter
changes the address and the rows, a copied address shows the same rows in a new browser,
Clear filters, paging that says where it is, the record page's fields and History links,
Contested naming the other record, Trust and origin of each origin, the audit holding exactly
the ids on screen, and the spec's empty lists."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from memory_pipelines.api.memory import Memory
from memory_pipelines.cli_console import Demo, seed_demo
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.console_helpers import last_read, shown_ids, signed_in

FILLER = 110  # records of the sales store, so that the list has a second page


@pytest.fixture(scope="module")
def demo(db: Database, embedder: Embedder) -> Demo:
    return seed_demo(db, embedder, filler=FILLER)


def _ids(db: Database, demo: Demo, state: str | None = "current", store: str = "") -> list[int]:
    """Record ids of the demo organisation in a state (None: any) and store (empty: both),
    newest change first."""
    stores = [store] if store else [demo.support, demo.sales]
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT item_id FROM agent_memory_items WHERE store_id = ANY(%s)"
            " AND (%s::text IS NULL OR state = %s) ORDER BY updated_at DESC, item_id DESC",
            (stores, state, state),
        ).fetchall()
    return [int(r["item_id"]) for r in rows]


def _origin(card: Locator, origin: str, trust: str) -> None:
    expect(card.locator('[data-field="origin"] strong')).to_have_text(origin)
    kind = "trusted" if trust == "Trusted" else "untrusted"
    expect(card.locator(f'[data-field="origin"] .trust.{kind}')).to_contain_text(trust)


def _fits(page: Page) -> bool:
    """Whether the page fits the window's width (nothing to scroll sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _filter(page: Page) -> None:
    page.get_by_role("button", name="Filter").click()


def test_each_filter_changes_the_address_and_the_rows(
    db: Database, browser: Browser, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    account = signed_in(db, context, api_url, demo.org)
    ids = demo.ids
    page.goto("/console/records")
    current = _ids(db, demo)
    assert len(current) > 100
    expect(page.get_by_test_id("range")).to_have_text(f"rows 1-100 of {len(current)}")
    assert shown_ids(page) == current[:100]
    assert _fits(page)  # a hundred rows, no sideways scrolling (1280 px wide)
    expect(page.get_by_test_id("audit-notice")).to_contain_text("Reading is recorded")
    read = last_read(db, account)
    assert read["endpoint"] == "GET /console/records" and read["record_ids"] == current[:100]
    assert read["key_id"] is None and read["account_id"] == account

    # the next page says where it is, and was audited with its own rows
    page.get_by_role("link", name=re.compile("^Next")).first.click()
    expect(page).to_have_url(re.compile(r"after=.+&from=101$"))
    expect(page.get_by_test_id("range")).to_have_text(f"rows 101-{len(current)} of {len(current)}")
    assert shown_ids(page) == current[100:]
    assert last_read(db, account)["record_ids"] == current[100:]

    # Index: one store, and the Index column goes
    page.goto("/console/records")
    page.get_by_label("Index").select_option(demo.support)
    _filter(page)
    expect(page).to_have_url(re.compile(rf"/console/records\?index={demo.support}$"))
    support = _ids(db, demo, store=demo.support)
    assert shown_ids(page) == support
    expect(page.locator("thead th", has_text="Index")).to_have_count(0)

    # State: superseded and archived show their chips, All shows everything of the store
    page.get_by_label("State").select_option("superseded")
    _filter(page)
    expect(page).to_have_url(re.compile(r"index=.+&state=superseded$"))
    assert shown_ids(page) == [ids["tea"]]
    expect(page.locator(f'tr[data-record="{ids["tea"]}"] [data-chip="superseded"]')).to_be_visible()
    page.get_by_label("State").select_option("archived")
    _filter(page)
    assert shown_ids(page) == [ids["tool"]]
    expect(page.locator('[data-chip="archived"]')).to_have_text("Archived")
    page.get_by_label("State").select_option("all")
    _filter(page)
    assert shown_ids(page) == _ids(db, demo, None, demo.support)

    # Type, then Minimum confidence on top of it
    page.get_by_label("Type").fill("commitment")
    _filter(page)
    expect(page).to_have_url(re.compile(r"state=all&type=commitment$"))
    commitments = [ids[n] for n in ("overdue", "venue", "lease", "brochures")]
    assert sorted(shown_ids(page)) == sorted(commitments)
    page.get_by_label("Type").fill("fact")
    page.get_by_label("Minimum confidence").fill("0.8")
    _filter(page)
    expect(page).to_have_url(re.compile(r"type=fact&min=0.8$"))
    assert shown_ids(page) == [ids["sla"]]  # 0.9; the other facts are 0.7 or less

    # Metadata: every key and value given; a row without a key is ignored
    page.goto(f"/console/records?index={demo.support}")
    page.get_by_label("Metadata key 1").fill("team")
    page.get_by_label("Metadata value 1").fill("ops")
    _filter(page)
    expect(page).to_have_url(re.compile(r"mk=team&mv=ops$"))
    assert sorted(shown_ids(page)) == sorted([ids["coffee"], ids["sla"]])
    page.get_by_label("Metadata key 2").fill("tier")
    page.get_by_label("Metadata value 2").fill("1")
    page.get_by_label("Metadata value 3").fill("ignored without a key")
    _filter(page)
    expect(page).to_have_url(re.compile(r"mk=team&mv=ops&mk=tier&mv=1$"))
    assert shown_ids(page) == [ids["sla"]]
    assert last_read(db, account)["record_ids"] == [ids["sla"]]

    # a copied address shows the same rows to another administrator in a new browser
    address = page.url
    other = browser.new_context(base_url=api_url)
    try:
        signed_in(db, other, api_url, demo.org)
        fresh = other.new_page()
        fresh.goto(address)
        assert shown_ids(fresh) == [ids["sla"]]
        expect(fresh.get_by_label("Metadata key 2")).to_have_value("tier")
    finally:
        other.close()

    # Clear filters puts everything back
    page.get_by_role("link", name="Clear filters").click()
    expect(page).to_have_url(re.compile(r"/console/records$"))
    assert shown_ids(page) == current[:100]
    expect(page.get_by_label("State")).to_have_value("current")

    # a bad minimum is shown beside its field, and nothing is read
    before = last_read(db, account)["audit_id"]
    page.get_by_label("Minimum confidence").fill("2")
    _filter(page)
    expect(page.locator('[data-error-for="min"]')).to_have_text(
        "must be a number from 0 to 1, got 2.0"
    )
    assert shown_ids(page) == [] and last_read(db, account)["audit_id"] == before


def test_a_record_page_its_fields_and_history_links(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    account = signed_in(db, context, api_url, demo.org)
    ids = demo.ids
    page.goto(f"/console/records?index={demo.support}&mk=team&mv=ops")
    page.locator(f'tr[data-record="{ids["coffee"]}"] a').click()
    expect(page).to_have_url(
        re.compile(rf"/console/stores/{demo.support}/records/{ids['coffee']}$")
    )
    facts = page.get_by_test_id("facts")
    expect(facts.locator('[data-field="type"]')).to_have_text("preference")
    expect(facts.locator('[data-field="index"]')).to_have_text(demo.support)
    expect(facts.locator('[data-field="for-whom"]')).to_have_text("ana")
    expect(facts.locator('[data-field="confidence"]')).to_have_text("0.80 as stored")
    expect(facts.locator('[data-field="key"]')).to_have_text(demo.key_id)
    life = page.get_by_test_id("life")
    expect(life.locator('[data-label="personal"]')).to_have_text("personal")
    expect(life.locator('[data-field="state"]')).to_have_text("Current")
    expect(life.locator('[data-field="valid-until"]')).to_have_text("Still valid")
    expect(life.locator('[data-field="confirmed"]')).to_have_text("Never")
    expect(page.get_by_test_id("metadata").locator('[data-meta="team"]')).to_have_text("ops")
    expect(page.get_by_test_id("decay").locator('[data-field="stored"]')).to_have_text(
        "0.80 as stored"
    )
    expect(page.get_by_test_id("decay-curve")).to_be_visible()
    assert _fits(page)
    # History: every version, oldest first, each linking to its own page
    history = page.get_by_test_id("history")
    links = history.locator("[data-history-link]")
    expect(links).to_have_count(2)
    assert [link.get_attribute("data-history-link") for link in links.all()] == [
        str(ids["tea"]),
        str(ids["coffee"]),
    ]
    expect(history.locator(f'[data-version="{ids["tea"]}"] [data-validity]')).to_contain_text(
        "valid "
    )
    read = last_read(db, account)
    assert read["endpoint"] == "GET /console/stores/{store}/records/{item_id}"
    assert sorted(read["record_ids"]) == sorted([ids["tea"], ids["coffee"]])
    # who read it: this read, by me
    expect(
        page.get_by_test_id("readers").locator(f'[data-reader="{read["audit_id"]}"]')
    ).to_contain_text("You")

    links.first.click()
    expect(page).to_have_url(re.compile(rf"/records/{ids['tea']}$"))
    expect(page.get_by_test_id("record-title").locator('[data-chip="superseded"]')).to_be_visible()
    life = page.get_by_test_id("life")
    expect(life.locator('[data-field="valid-until"]')).to_contain_text("UTC")
    expect(life.locator('[data-field="replaced-by"]')).to_have_text(
        f"#{ids['coffee']} Ana now prefers black coffee in the morning meetings"
    )
    expect(page.get_by_test_id("context")).to_have_text(
        "Ana prefers green tea in the morning meetings"
    )

    # a structured body is shown as JSON, in the list and on its page; a commitment shows its
    # status, due and owed to
    page.goto(f"/console/records?index={demo.support}&type=fact")
    row = page.locator(f'tr[data-record="{ids["contract"]}"]')
    expect(row.locator('[data-field="json"]')).to_have_text(
        '{"plan": "enterprise", "seats": 40, "renewal": "2027-03-01"}'
    )
    text_row = page.locator(f'tr[data-record="{ids["sla"]}"]')
    expect(text_row.locator("a.text")).to_have_text(
        "The support team answers every ticket within four hours on working days"
    )
    expect(text_row.locator('[data-field="json"]')).to_have_count(0)
    page.goto(f"/console/stores/{demo.support}/records/{ids['contract']}")
    expect(page.get_by_test_id("body-json")).to_contain_text('"seats": 40')
    page.goto(f"/console/stores/{demo.support}/records/{ids['overdue']}")
    commitment = page.get_by_test_id("commitment")
    expect(commitment.locator('[data-chip="open"]')).to_be_visible()
    expect(commitment.locator('[data-chip="overdue"]')).to_be_visible()
    expect(commitment.locator('[data-field="owed-to"]')).to_have_text("Mr Patel")
    expect(commitment.locator('[data-field="due"]')).to_contain_text("ago")


def test_contested_names_the_other_record_and_trust_and_origin_of_each_origin(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    account = signed_in(db, context, api_url, demo.org)
    ids, s = demo.ids, demo.support
    page.goto(f"/console/records?index={s}")
    expect(
        page.locator(f'tr[data-record="{ids["opens8"]}"] [data-chip="contested"]')
    ).to_be_visible()
    page.goto(f"/console/stores/{s}/records/{ids['opens8']}")
    expect(page.get_by_test_id("life").locator('[data-field="contradicts"]')).to_have_text(
        f"#{ids['opens9']} The Lisbon office opens at 9:30 on weekdays"
    )
    # the other record's wording was shown, so the audit names it too
    assert sorted(last_read(db, account)["record_ids"]) == sorted([ids["opens8"], ids["opens9"]])

    card = page.get_by_test_id("trust-origin")
    page.goto(f"/console/stores/{s}/records/{ids['sla']}")
    _origin(card, "Written explicitly", "Trusted")
    expect(card).to_contain_text(f"key {demo.key_id}")

    page.goto(f"/console/stores/{s}/records/{ids['laptop']}")
    _origin(card, "Written outside a turn", "Untrusted")
    expect(card).to_contain_text("nobody reviewed the text")

    page.goto(f"/console/stores/{s}/records/{ids['derived']}")
    _origin(card, "Derived during a turn", "Untrusted")
    expect(card.locator('[data-field="model"]')).to_have_text("gpt-4o-mini")
    expect(card.locator('[data-field="conversation"]')).to_contain_text("support-chat-ana-17")
    expect(card.locator('[data-field="conversation"]')).to_contain_text("turns 1–3")
    expect(card.locator(f'[data-feeder="{ids["sla"]}"] .trusted')).to_have_text("Trusted")
    expect(card.locator(f'[data-feeder="{ids["rumour"]}"] .untrusted')).to_contain_text("Untrusted")
    # ids only: what the feeders said is not on the page, nor in the audit
    assert "A caller said the Madrid office" not in page.content()
    assert last_read(db, account)["record_ids"] == [ids["derived"]]
    expect(page.get_by_test_id("facts").locator('[data-field="written-by"]')).to_have_text(
        f"the model above key {demo.key_id}"
    )


def test_empty_lists_say_why(
    db: Database, context: BrowserContext, page: Page, api_url: str, embedder: Embedder
) -> None:
    org = new_org(db)
    empty, used = new_store(db, org), new_store(db, org)
    signed_in(db, context, api_url, org)
    page.goto("/console/records")
    expect(page.get_by_test_id("empty")).to_have_text(
        "Nothing remembered yet: no application or model has written memory in this organisation."
    )
    Memory(used, db=db, embedder=embedder).save(
        {"category": "fact", "context": "The Porto warehouse ships on Mondays", "confidence": 7}
    )
    page.goto(f"/console/records?index={empty}")
    expect(page.get_by_test_id("empty")).to_have_text(
        "Nothing remembered in an index: pick another index, or All indexes."
    )
    page.goto("/console/records?type=decision")
    expect(page.get_by_test_id("empty")).to_have_text(
        "No record found: your filters match nothing; select Clear filters."
    )


def test_an_administrator_of_another_organisation_sees_no_record(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    org = new_org(db)
    mine = new_store(db, org)
    account = signed_in(db, context, api_url, org)
    page.goto("/console/records")
    assert shown_ids(page) == []
    options = page.get_by_label("Index").locator("option").all_inner_texts()
    assert options == ["All indexes", mine]
    for address in (
        f"/console/stores/{demo.support}/records/{demo.ids['sla']}",
        f"/console/stores/{mine}/records/{demo.ids['sla']}",  # their record under my store
        f"/console/records?index={demo.support}",
        f"/console/stores/{demo.support}",
    ):
        page.goto(address)
        expect(page.get_by_role("heading", level=1)).to_have_text("Not found")
        assert "Porto" not in page.content() and "support team answers" not in page.content()
    page.goto("/console/commitments")
    assert shown_ids(page) == []
    assert all(r["record_ids"] == [] for r in reads_by(db, account))


def reads_by(db: Database, account: int) -> list[dict]:
    from memory_pipelines.api.audit import reads_by_account

    return reads_by_account(db, account)


def test_a_damaged_or_stale_page_position_in_the_address(
    db: Database, context: BrowserContext, page: Page, api_url: str, embedder: Embedder
) -> None:
    """A damaged cursor said "Fix the filter marked above" with no filter marked, and `from`
    was shown as given ("rows 9,000-9,014 of 115"): a console audit."""
    from datetime import UTC, datetime, timedelta

    from memory_pipelines.core.listing import encode_cursor

    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    for n in range(3):
        memory.save({"category": "note", "context": f"Locker {n} is on floor {n + 2}"})
    signed_in(db, context, api_url, org)
    page.goto(f"/console/records?index={store}&type=note&after=garbage")
    bad = page.get_by_test_id("bad-position")
    expect(bad).to_contain_text("This page's position in the address is damaged")
    bad.get_by_role("link", name="Start from the first page").click()
    expect(page).to_have_url(re.compile(rf"/console/records\?index={store}&type=note$"))
    expect(page.locator("tr[data-record]")).to_have_count(3)
    # a position past what is there: the rows are shown without it
    future = encode_cursor(datetime.now(UTC) + timedelta(days=1), 10**12)
    page.goto(f"/console/records?index={store}&type=note&after={future}&from=9000")
    expect(page.get_by_test_id("range")).to_have_text("3 rows of 3")
