"""What the console's columns and facts say, in a real browser over the demo organisation: the
Records list's For whom, Trust, Confidence, Updated and Written by for known records; a record
page's Created, Updated and Last recalled with how often after real searches; and the Stores
list's Maintenance On/Off and when maintenance last ran after a real pass through Dagster."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from memory_pipelines.api import Memory, Recall
from memory_pipelines.cli_console import Demo, seed_demo
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.console_helpers import signed_in
from tests.test_maintenance import run_maintenance

HEADERS = [
    "Type",
    "Content",
    "Index",
    "For whom",
    "Trust",
    "Confidence",
    "Updated",
    "Written by",
]
RECENT = re.compile(r"^(just now|\d+ minutes? ago)$")


@pytest.fixture
def demo(db: Database, embedder: Embedder) -> Demo:
    return seed_demo(db, embedder)


def _set_times(db: Database, item_id: int, **times: datetime) -> None:
    """Put a record's created_at / updated_at at known times (the demo writes them all now)."""
    with db.transaction() as conn:
        for column, value in times.items():
            assert column in ("created_at", "updated_at")
            conn.execute(
                f"UPDATE agent_memory_items SET {column} = %s WHERE item_id = %s",  # noqa: S608
                (value, item_id),
            )


def _row(db: Database, query: str, *args: Any) -> dict[str, Any]:
    with db.connection() as conn:
        row = conn.execute(query, args).fetchone()
    assert row is not None
    return dict(row)


def _stamp(at: datetime) -> str:
    """A time as the console writes it."""
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _cells(row: Locator) -> dict[str, str]:
    texts = [t.strip() for t in row.locator("td").all_inner_texts()]
    assert len(texts) == len(HEADERS), texts
    return dict(zip(HEADERS, texts, strict=True))


def test_records_list_columns_for_known_records(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    ids = demo.ids
    now = datetime.now(UTC)
    _set_times(db, ids["laptop"], updated_at=now - timedelta(days=3, hours=2))
    _set_times(db, ids["derived"], updated_at=now - timedelta(hours=5, minutes=10))
    signed_in(db, context, api_url, demo.org)
    page.goto("/console/records")
    assert page.locator("thead th").all_text_contents() == HEADERS

    sla = page.locator(f'tr[data-record="{ids["sla"]}"]')
    cells = _cells(sla)
    assert cells["For whom"] == "Shared"
    assert cells["Trust"] == "Trusted"
    expect(sla.locator(".trust.trusted svg.lock")).to_have_count(1)
    assert cells["Confidence"] == "0.90"
    assert RECENT.match(cells["Updated"]), cells
    assert cells["Written by"] == f"key {demo.key_id}"

    coffee = _cells(page.locator(f'tr[data-record="{ids["coffee"]}"]'))
    assert (coffee["For whom"], coffee["Trust"], coffee["Confidence"]) == ("ana", "Trusted", "0.80")

    laptop = page.locator(f'tr[data-record="{ids["laptop"]}"]')
    cells = _cells(laptop)
    assert cells["For whom"] == "ben"
    assert cells["Trust"] == "⚠ Untrusted"
    expect(laptop.locator(".trust.untrusted .glyph")).to_have_text("⚠")
    expect(laptop.locator(".trust.trusted")).to_have_count(0)
    assert cells["Confidence"] == "0.40"
    assert cells["Updated"] == "3 days ago"
    assert cells["Written by"] == "mcp-client"
    updated = _row(
        db, "SELECT updated_at FROM agent_memory_items WHERE item_id = %s", ids["laptop"]
    )["updated_at"]
    expect(laptop.locator("td").nth(HEADERS.index("Updated"))).to_have_attribute(
        "title", _stamp(updated)
    )

    derived = _cells(page.locator(f'tr[data-record="{ids["derived"]}"]'))
    assert derived["For whom"] == "ana"
    assert derived["Trust"] == "⚠ Untrusted"  # fed by an untrusted record
    assert derived["Confidence"] == "0.60"
    assert derived["Updated"] == "5 hours ago"
    # ... shown whole at 1280 px, not cut to "12 minutes …" (a console audit)
    _set_times(db, ids["coffee"], updated_at=now - timedelta(minutes=12))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    expect(page.locator(f'tr[data-record="{ids["coffee"]}"]')).to_contain_text("12 minutes ago")
    for cell in page.locator("tbody tr td:nth-child(7)").all():  # Updated, with All indexes
        assert cell.evaluate("td => td.scrollWidth <= td.clientWidth"), cell.inner_text()
    assert derived["Written by"] == f"the model above key {demo.key_id}"

    rumour = _cells(page.locator(f'tr[data-record="{ids["rumour"]}"]'))
    assert (rumour["For whom"], rumour["Trust"], rumour["Confidence"]) == (
        "Shared",
        "⚠ Untrusted",
        "0.30",
    )


def test_record_page_shows_created_updated_and_last_recalled(
    db: Database, embedder: Embedder, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    ids = demo.ids
    now = datetime.now(UTC)
    created = now - timedelta(days=10, hours=1)
    updated = now - timedelta(days=2, hours=1)
    _set_times(db, ids["contract"], created_at=created, updated_at=updated)
    signed_in(db, context, api_url, demo.org)

    page.goto(f"/console/stores/{demo.support}/records/{ids['contract']}")
    facts, life = page.get_by_test_id("facts"), page.get_by_test_id("life")
    expect(facts.locator('[data-field="created"]')).to_have_text(_stamp(created))
    expect(facts.locator('[data-field="updated"]')).to_have_text(f"{_stamp(updated)} (2 days ago)")
    expect(life.locator('[data-field="recalled"]')).to_have_text("Never")

    recall = Recall(demo.support, db=db, embedder=embedder)
    for _ in range(2):
        [hit] = recall.search(
            "Which plan is Acme Logistics on, and how many seats?", ["agent"], k=1
        )
        assert (hit.kind, hit.id) == ("item", ids["contract"])
    row = _row(
        db,
        "SELECT access_count, last_recalled_at FROM agent_memory_items WHERE item_id = %s",
        ids["contract"],
    )
    assert row["access_count"] == 2

    page.reload()
    life = page.get_by_test_id("life")
    expect(life.locator('[data-field="recalled"]')).to_have_text(
        f"{_stamp(row['last_recalled_at'])}, 2 times in all"
    )
    # the recall changed neither Created nor Updated
    expect(facts.locator('[data-field="created"]')).to_have_text(_stamp(created))
    expect(facts.locator('[data-field="updated"]')).to_have_text(f"{_stamp(updated)} (2 days ago)")
    # a record no search returned says so
    page.goto(f"/console/stores/{demo.support}/records/{ids['laptop']}")
    expect(page.get_by_test_id("life").locator('[data-field="recalled"]')).to_have_text("Never")


def test_stores_list_shows_maintenance_on_off_and_when_it_last_ran(
    db: Database, embedder: Embedder, context: BrowserContext, page: Page, api_url: str, pg_dsn: str
) -> None:
    org = new_org(db)
    kept, off = new_store(db, org), new_store(db, org)
    Memory(off, db=db, embedder=embedder).configure(maintenance={"enabled": False})
    mem = Memory(kept, db=db, embedder=embedder)
    for text in ("Ana prefers aisle seats on flights", "Ana prefers aisle seats on flights."):
        assert mem.save({"category": "preference", "context": text, "confidence": 7}).saved
    signed_in(db, context, api_url, org)

    page.goto("/console")
    kept_row, off_row = (page.locator(f'tr[data-store="{s}"]') for s in (kept, off))
    assert _store_cells(kept_row) == ["Default settings", "On", "On", "Never"]
    assert _store_cells(off_row) == ["Configured", "On", "Off", "Never"]

    before = datetime.now(UTC).replace(second=0, microsecond=0)
    ran = run_maintenance(kept, pg_dsn)
    assert "materialized" not in ran and ran["merged"] == 1  # a real pass: the duplicate merged
    assert run_maintenance(off, pg_dsn)["materialized"] is False  # off: no pass recorded
    after = datetime.now(UTC)
    finished = _row(
        db, "SELECT max(finished_at) AS at FROM maintenance_passes WHERE store_id = %s", kept
    )["at"]
    assert finished is not None

    page.reload()
    cells = _store_cells(page.locator(f'tr[data-store="{kept}"]'))
    assert cells[:3] == ["Default settings", "On", "On"]
    assert cells[3] == _stamp(finished)
    shown = datetime.strptime(cells[3], "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    assert before <= shown <= after
    assert _store_cells(page.locator(f'tr[data-store="{off}"]')) == [
        "Configured",
        "On",
        "Off",
        "Never",
    ]
    expect(page.locator(f'tr[data-store="{off}"] td').nth(3).locator(".chip.off")).to_have_text(
        "Off"
    )
    expect(page.locator(f'tr[data-store="{kept}"] td').nth(3).locator(".chip.on")).to_have_text(
        "On"
    )


def _store_cells(row: Locator) -> list[str]:
    """Settings, Extraction, Maintenance, Last maintenance of a Stores row."""
    expect(row).to_have_count(1)
    return [t.strip() for t in row.locator("td").all_inner_texts()[1:]]
