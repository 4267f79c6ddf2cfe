"""A store's page in a real browser: each settings card saves only itself, a bad value is shown
beside its field with nothing saved, the extraction passes and their chart, the Dagster links,
and deleting a store refused while its extraction is on."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.api.jobs import activate_job
from memory_pipelines.api.memory import Memory
from memory_pipelines.store import extraction as extraction_db
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store.db import Database
from tests.api_server import SERVED, new_key, new_org, new_store
from tests.console_helpers import signed_in


def _cards(db: Database, store: str) -> dict:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT decay_per_type, maintenance, search, commitments, extraction FROM stores"
            " WHERE store_id = %s",
            (store,),
        ).fetchone()
    assert row is not None
    return dict(row)


def _configured(db: Database, store: str) -> list[list[str]]:
    """The cards each configure event of the store names, oldest first."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT payload FROM events WHERE store_id = %s AND kind = 'configure'"
            " ORDER BY event_id",
            (store,),
        ).fetchall()
    return [r["payload"]["cards"] for r in rows]


def test_a_card_saves_only_itself_and_a_bad_value_is_shown_beside_its_field(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    signed_in(db, context, api_url, org)
    page.goto("/console")
    page.get_by_role("link", name=store).click()
    expect(page).to_have_url(re.compile(f"/console/stores/{store}$"))
    expect(page.get_by_test_id("store-facts")).to_contain_text("Default settings")

    # Save on a card as it stands changes nothing: no write, no configure event, still on
    # defaults (it had made the store "Configured", a console audit's finding)
    page.locator('form[data-card="commitments"]').get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(r"\?saved=commitments#commitments$"))
    expect(page.get_by_test_id("store-facts")).to_contain_text("Default settings")
    assert _cards(db, store)["commitments"] == {}
    assert _configured(db, store) == []

    search = page.locator('form[data-card="search"]')
    maintenance = page.locator('form[data-card="maintenance"]')
    # change a field of Maintenance without saving it, then save Search
    maintenance.get_by_label("Duplicate threshold").fill("0.8")
    search.get_by_label("Knowledge graph").uncheck()
    search.get_by_label("Reranker model").fill("bge-reranker-base")
    search.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(r"\?saved=search#search$"))
    expect(page.locator('form[data-card="search"] [role="status"]')).to_have_text("Saved")
    cards = _cards(db, store)
    assert cards["search"] == {"knowledge_graph": False, "reranker": "bge-reranker-base"}
    assert cards["maintenance"] == {}  # sent by nobody: still the defaults
    assert cards["extraction"] == {} and cards["decay_per_type"] == {}
    expect(
        page.locator('form[data-card="maintenance"]').get_by_label("Duplicate threshold")
    ).to_have_value("0.92")
    expect(page.get_by_test_id("store-facts")).to_contain_text("Configured")
    assert _configured(db, store) == [["search"]]

    # a bad value: shown in its card beside its field, typed values kept, nothing saved
    maintenance = page.locator('form[data-card="maintenance"]')
    maintenance.get_by_label("Duplicate threshold").fill("1.5")
    maintenance.get_by_label("Check for contradictions").check()
    maintenance.get_by_role("button", name="Save").click()
    card = page.locator('form[data-card="maintenance"]')
    error = card.locator('[data-error-for="duplicate_threshold"]')
    expect(error).to_have_text("maintenance.duplicate_threshold: must be 0.5-1, got 1.5")
    expect(card.get_by_label("Duplicate threshold")).to_have_value("1.5")
    expect(card.get_by_label("Duplicate threshold")).to_have_attribute("aria-invalid", "true")
    expect(card.get_by_label("Check for contradictions")).to_be_checked()
    assert page.locator('[role="alert"][data-error-for]').count() == 1  # only in this card
    assert _cards(db, store)["maintenance"] == {}

    # text where a number goes, and a cron chosen without one, in the Extraction card
    ex = page.locator('form[data-card="extraction"]')
    ex.get_by_label("Messages per read").fill("many")
    ex.get_by_role("button", name="Save").click()
    ex = page.locator('form[data-card="extraction"]')
    expect(ex.locator('[data-error-for="batch_size"]')).to_have_text(
        "extraction.batch_size: must be an integer 1-500, got 'many'"
    )
    ex.get_by_label("Messages per read").fill("40")
    ex.get_by_label("A cron expression with a time zone").check()
    ex.get_by_role("button", name="Save").click()
    ex = page.locator('form[data-card="extraction"]')
    expect(ex.locator('[data-error-for="cron"]')).to_contain_text("extraction.cron: is required")
    assert _cards(db, store)["extraction"] == {}

    # a key that is not the organisation's (a typo, another's key) is named, nothing saved
    k1, _ = new_key(db, org)
    k2, _ = new_key(db, org)
    other, _ = new_key(db, new_org(db))
    ex.get_by_label("A cron expression with a time zone").check()
    ex.get_by_label("Cron", exact=True).fill("*/30 8-18 * * 1-5")
    ex.get_by_label("Only these keys").fill(f"{k1}, {other}")
    ex.get_by_role("button", name="Save").click()
    ex = page.locator('form[data-card="extraction"]')
    expect(ex.locator('[data-error-for="keys"]')).to_contain_text(
        f"extraction.keys[1]: no key of this store's organisation has id '{other}'"
    )
    assert _cards(db, store)["extraction"] == {}

    # When as a cron with a time zone, Which conversations, Types: saved together, alone
    ex.get_by_label("Cron", exact=True).fill("*/30 8-18 * * 1-5")
    ex.get_by_label("Time zone", exact=True).fill("Europe/Paris")
    ex.get_by_label("Types").fill("preference, decision, commitment")
    ex.get_by_label("Only these keys").fill(f"{k1}, {k2}")
    ex.get_by_label("Quiet for (minutes)").fill("30")
    ex.get_by_role("button", name="Save").click()
    expect(page.locator('form[data-card="extraction"] [role="status"]')).to_have_text("Saved")
    saved = Memory(store, db=db, create=False).settings().extraction
    assert (saved.cron, saved.timezone, saved.batch_size) == (
        "*/30 8-18 * * 1-5",
        "Europe/Paris",
        40,
    )
    assert saved.types == ("preference", "decision", "commitment") and saved.keys == (k1, k2)
    assert saved.quiet_minutes == 30.0
    assert _cards(db, store)["maintenance"] == {}

    # Decay per type: a row without a type is ignored, a type left out never decays
    decay = page.locator('form[data-card="decay_per_type"]')
    decay.get_by_label("Type 1").fill("")  # the first row was decision (sorted)
    last = decay.locator('input[name^="type_"]').count() - 1
    decay.get_by_label(f"Type {last + 1}").fill("promise")
    decay.get_by_label(f"Days {last + 1}").fill("-3")
    decay.get_by_role("button", name="Save").click()
    decay = page.locator('form[data-card="decay_per_type"]')
    expect(decay.locator('[data-error-for="promise"]')).to_contain_text(
        "decay_per_type.half_life_days.promise: must be"
    )
    decay.get_by_label(f"Days {last + 1}").fill("45")
    decay.get_by_role("button", name="Save").click()
    expect(page.locator('form[data-card="decay_per_type"] [role="status"]')).to_have_text("Saved")
    half_lives = Memory(store, db=db, create=False).settings().decay_per_type.half_life_days
    assert half_lives == {
        "fact": 180.0,
        "insight": 90.0,
        "lesson": 365.0,
        "preference": 365.0,
        "promise": 45.0,
    }


def test_extraction_passes_chart_links_and_delete_refused_while_extraction_is_on(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    with db.transaction() as conn:
        for n, (w, c, s, d) in enumerate([(5, 0, 0, 1), (2, 3, 1, 0), (4, 6, 2, 3)]):
            extraction_db.record_pass(
                conn,
                store,
                f"run-{n}",
                written=w,
                confirmed=c,
                superseded=s,
                dropped_invalid=d,
                windows_read=7,
                candidates=11,
                duration_s=1.5,
            )
    account = signed_in(db, context, api_url, org)
    page.goto(f"/console/stores/{store}")
    counts = page.get_by_test_id("pass-counts")
    expect(counts).to_contain_text("Written4")
    expect(counts).to_contain_text("Confirmed6")
    expect(counts).to_contain_text("Superseded2")
    expect(counts).to_contain_text("Dropped as invalid3")
    chart = page.get_by_test_id("pass-chart")
    expect(chart.locator("[data-series]")).to_have_count(4)
    expect(chart.locator('[data-series="written"] circle')).to_have_count(3)
    # No Dagster UI linked unless the operator says where it is: it shows every
    # organisation's stores and run logs to whoever opens it (a console audit)
    expect(page.get_by_test_id("open-collection")).to_have_count(0)
    expect(page.get_by_test_id("dagster-unlinked")).to_contain_text(f"partition {store}")
    SERVED[api_url].state.dagster_url = "http://dagster.internal:3000"
    try:
        page.reload()
        expect(page.get_by_test_id("open-collection")).to_have_attribute(
            "href",
            "http://dagster.internal:3000/assets/conversation_windows?view=partitions"
            f"&partition={store}",
        )
        expect(page.get_by_test_id("open-pipeline")).to_have_attribute(
            "href",
            "http://dagster.internal:3000/locations/memory_pipelines.definitions/jobs/extraction",
        )
    finally:
        SERVED[api_url].state.dagster_url = None
    assert reads_by_account(db, account, limit=1)[0]["endpoint"] == "GET /console/stores/{store}"

    # extraction is on by default: the delete is refused, and says what to do
    Memory(store, db=db).configure(extraction={"enabled": True})
    delete = page.get_by_test_id("delete-store")
    delete.get_by_label(re.compile("to confirm")).fill(store)
    delete.get_by_role("button", name="Delete store").click()
    expect(page.get_by_test_id("delete-error")).to_have_text(
        f"store {store!r} has extraction on, so it cannot be deleted: switch extraction off first"
    )
    assert Memory(store, db=db, create=False).settings().extraction.enabled

    # switch it off in its card, then the delete goes through
    ex = page.locator('form[data-card="extraction"]')
    ex.get_by_label("Extraction on").uncheck()
    ex.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("store-facts")).to_contain_text("Extraction Off")
    delete = page.get_by_test_id("delete-store")
    delete.get_by_label(re.compile("to confirm")).fill(store)
    delete.get_by_role("button", name="Delete store").click()
    expect(page).to_have_url(re.compile(r"/console\?deleted="))
    expect(page.get_by_role("status")).to_have_text(f"Store {store} was deleted.")
    with db.connection() as conn:
        assert conn.execute("SELECT 1 FROM stores WHERE store_id = %s", (store,)).fetchone() is None
        [event] = conn.execute(
            "SELECT actor FROM events WHERE store_id = %s AND kind = 'delete_store'", (store,)
        ).fetchall()
    assert event["actor"].startswith(f"console:{org}/")


def test_the_maintenance_card_says_when_nothing_can_be_archived(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    signed_in(db, context, api_url, org)
    page.goto(f"/console/stores/{store}")
    note = page.get_by_test_id("maintenance-note")
    expect(note).to_contain_text("decay is not active for this store")
    expect(note).to_contain_text(f"jobs evaluate decay --store {store}")
    with db.connection() as conn:  # a passing evaluation, as `jobs evaluate` records one
        evaluation = jobs_db.record_evaluation(
            conn, store, "decay", "self_recall@10", 0.5, 0.6, True, {}
        )
    activate_job(db, store, "decay", evaluation, actor="test")
    page.goto(f"/console/stores/{store}")
    expect(page.locator('form[data-card="maintenance"]')).to_be_visible()
    expect(page.get_by_test_id("maintenance-note")).to_have_count(0)
