"""Memory > Commitments in a real browser: Status chips, Due, Owed to, person, the Overdue chip
on open commitments past due, the Status and Overdue filters in the address, the audit holding
exactly the ids on screen, and nothing of another organisation."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import BrowserContext, Page, expect

from memory_pipelines.api.memory import Memory
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.console_helpers import last_read, shown_ids, signed_in


def _promise(memory: Memory, text: str, due: datetime | None, **extra: object) -> int:
    res = memory.save(
        {
            "category": "commitment",
            "context": text,
            "confidence": 8,
            "due_at": due.isoformat() if due else None,
            **extra,
        }
    )
    assert res.saved and res.id is not None, res
    return res.id


def test_commitments_chips_and_filters(
    db: Database, context: BrowserContext, page: Page, api_url: str, embedder: object
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)  # type: ignore[arg-type]
    memory.add_person("ana")
    now = datetime.now(UTC)
    late = _promise(
        memory,
        "Ana will send the signed contract to Mr Patel",
        now - timedelta(days=2),
        owed_to="Mr Patel",
        person="ana",
    )
    soon = _promise(
        memory, "Bruno will book the venue for the Porto offsite", now + timedelta(days=3)
    )
    done = _promise(
        memory, "Carla will renew the office lease with Lisbon Estates", now - timedelta(days=5)
    )
    memory.fulfil(done, actor="carla")
    dropped = _promise(memory, "Dana will print the brochures for the Madrid fair", None)
    memory.cancel(dropped, actor="dana")
    # another organisation's commitment is never shown
    other = Memory(new_store(db, new_org(db)), db=db, embedder=embedder)  # type: ignore[arg-type]
    theirs = _promise(other, "Eve will ship the prototype to Berlin", now - timedelta(days=1))

    account = signed_in(db, context, api_url, org)
    page.goto("/console/commitments")
    assert shown_ids(page) == [done, late, soon, dropped]  # due soonest first, no due last
    assert theirs not in shown_ids(page)
    row = page.locator(f'tr[data-record="{late}"]')
    expect(row.locator('[data-chip="open"]')).to_have_text("Open")
    expect(row.locator('[data-chip="overdue"]')).to_have_text("Overdue")
    expect(row.locator("td").nth(3)).to_have_text("Mr Patel")
    expect(row.locator("td").nth(4)).to_have_text("ana")
    expect(page.locator(f'tr[data-record="{soon}"] [data-chip="overdue"]')).to_have_count(0)
    expect(page.locator(f'tr[data-record="{soon}"] td').nth(4)).to_have_text("Shared")
    # fulfilled past its due time is not overdue
    expect(page.locator(f'tr[data-record="{done}"] [data-chip="fulfilled"]')).to_have_text(
        "Fulfilled"
    )
    expect(page.locator(f'tr[data-record="{done}"] [data-chip="overdue"]')).to_have_count(0)
    expect(page.locator(f'tr[data-record="{dropped}"] [data-chip="cancelled"]')).to_have_text(
        "Cancelled"
    )
    expect(page.locator(f'tr[data-record="{dropped}"] td').nth(2)).to_have_text("No due time")
    expect(page.get_by_test_id("range").first).to_have_text("rows 1-4 of 4")
    read = last_read(db, account)
    assert read["endpoint"] == "GET /console/commitments"
    assert sorted(read["record_ids"]) == sorted(shown_ids(page))

    page.get_by_label("Status").select_option("open")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"/console/commitments\?status=open$"))
    assert shown_ids(page) == [late, soon]
    page.get_by_label("Overdue only").check()
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"status=open&overdue=1$"))
    assert shown_ids(page) == [late]
    assert last_read(db, account)["record_ids"] == [late]
    assert last_read(db, account)["filters"] == {"status": "open", "overdue": True, "offset": 0}

    page.get_by_label("Status").select_option("fulfilled")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_test_id("empty")).to_have_text(
        "No commitments: nothing has been promised yet, or your filters match nothing."
    )
    assert last_read(db, account)["record_ids"] == []
    page.get_by_role("link", name="Clear filters").click()
    expect(page).to_have_url(re.compile(r"/console/commitments$"))
    assert shown_ids(page) == [done, late, soon, dropped]
