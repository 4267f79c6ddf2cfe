"""Traces > a conversation in a real browser: a derived record's Trust and origin card links to
the conversation it came from, whose page marks the record's turns, pages through a long chat,
is audited on its own with exactly the turns shown, and is not found for an administrator of
another organisation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.api.memory import Memory
from memory_pipelines.cli_console import Demo, seed_demo
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.service.console.traces import ENDPOINT
from memory_pipelines.store.db import Database
from tests.api_server import new_org
from tests.console_helpers import last_read, signed_in


@pytest.fixture(scope="module")
def demo(db: Database, embedder: Embedder) -> Demo:
    return seed_demo(db, embedder)


def _turn_ids(db: Database, store: str, chat: str) -> list[int]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT t.turn_id FROM turns t JOIN chats c USING (chat_id)"
            " WHERE c.store_id = %s AND c.external_id = %s ORDER BY t.seq",
            (store, chat),
        ).fetchall()
    return [int(r["turn_id"]) for r in rows]


def test_a_derived_record_opens_its_conversation_with_its_turns_marked(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    account = signed_in(db, context, api_url, demo.org)
    s = demo.support
    page.goto(f"/console/stores/{s}/records/{demo.ids['derived']}")
    card = page.get_by_test_id("trust-origin")
    card.locator('[data-field="conversation"] a').click()
    expect(page).to_have_url(re.compile(rf"/console/traces/stores/{s}/chats/\d+\?from=1&to=3$"))
    expect(page.get_by_test_id("conversation-title")).to_have_text("support-chat-ana-17")
    rows = page.locator("tr[data-turn]")
    expect(rows).to_have_count(3)
    expect(page.locator("tr[data-marked]")).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("the offsite moves to the second week of June")
    expect(page.get_by_test_id("audit-notice")).to_contain_text("opening this conversation")
    read = last_read(db, account)
    assert read["endpoint"] == ENDPOINT and read["store_id"] == s
    assert read["record_refs"] == [f"turn:{t}" for t in _turn_ids(db, s, "support-chat-ana-17")]
    assert read["record_ids"] == []


def test_a_long_conversation_pages_and_each_window_is_audited(
    db: Database,
    context: BrowserContext,
    page: Page,
    api_url: str,
    demo: Demo,
    embedder: Embedder,
) -> None:
    account = signed_in(db, context, api_url, demo.org)
    memory = Memory(demo.sales, db=db, embedder=embedder)
    memory.write_turns("long-call", [{"text": f"Line {n} of the call."} for n in range(1, 121)])
    turns = _turn_ids(db, demo.sales, "long-call")
    with db.connection() as conn:
        chat = conn.execute(
            "SELECT chat_id FROM chats WHERE store_id = %s AND external_id = 'long-call'",
            (demo.sales,),
        ).fetchone()["chat_id"]
    page.goto(f"/console/traces/stores/{demo.sales}/chats/{chat}?start=60")
    range_ = page.get_by_test_id("turn-range")
    expect(range_).to_contain_text("turns 55-104 of 120")
    assert last_read(db, account)["record_refs"] == [f"turn:{t}" for t in turns[54:104]]
    range_.get_by_role("link", name="Later turns").click()
    expect(range_).to_contain_text("turns 105-120 of 120")
    expect(page.locator("tr[data-turn]").last).to_contain_text("Line 120 of the call.")
    assert last_read(db, account)["record_refs"] == [f"turn:{t}" for t in turns[104:]]
    range_.get_by_role("link", name="Earlier turns").click()
    expect(range_).to_contain_text("turns 55-104 of 120")
    range_.get_by_role("link", name="Earlier turns").click()
    expect(range_).to_contain_text("turns 5-54 of 120")
    range_.get_by_role("link", name="Earlier turns").click()
    expect(range_).to_contain_text("turns 1-50 of 120")
    expect(range_.get_by_role("link", name="Earlier turns")).to_have_count(0)

    # an address edited by hand
    for address, status in (
        (f"/console/traces/stores/{demo.sales}/chats/{chat}?start=zero", 400),
        (f"/console/traces/stores/{demo.sales}/chats/abc", 404),
        (f"/console/traces/stores/{demo.sales}/chats/999999999", 404),
        (f"/console/traces/stores/{demo.support}/chats/{chat}", 404),  # not a chat of support
    ):
        res = page.goto(address)
        assert res is not None and res.status == status, address


def test_another_organisations_administrator_finds_no_conversation(
    db: Database, context: BrowserContext, page: Page, api_url: str, demo: Demo
) -> None:
    with db.connection() as conn:
        chat = conn.execute(
            "SELECT chat_id FROM chats WHERE store_id = %s AND external_id = %s",
            (demo.support, "support-chat-ana-17"),
        ).fetchone()["chat_id"]
    account = signed_in(db, context, api_url, new_org(db))
    res = page.goto(f"/console/traces/stores/{demo.support}/chats/{chat}")
    assert res is not None and res.status == 404
    assert "offsite" not in page.content()
    assert reads_by_account(db, account) == []


def test_a_record_extraction_wrote_says_extraction_wrote_it(
    db: Database, context: BrowserContext, page: Page, api_url: str, embedder: Embedder
) -> None:
    """A record the extraction pass wrote was described as written "with the index's write
    tool" in a turn (a console audit): it says extraction read the conversation and wrote it."""
    from memory_pipelines.api.extraction import run_extraction
    from tests.api_server import new_store

    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.write_turns(
        "c",
        [
            {"speaker": "Ana", "text": "I moved to Porto last month for a job at a bakery.",
             "created_at": "2023-05-08T13:56:00Z"},
            {"speaker": "Ben", "text": "Congratulations!", "created_at": "2023-05-08T13:57:00Z"},
        ],
    )  # fmt: skip
    run_extraction(db, store, memory.models, embedder, "t1")
    [item] = [i for i in memory.items() if "Porto" in i.context]
    signed_in(db, context, api_url, org)
    page.goto(f"/console/stores/{store}/records/{item.id}")
    card = page.get_by_test_id("trust-origin")
    expect(card).to_contain_text("Extraction (extraction@v1) read the conversation")
    expect(card).not_to_contain_text("The model wrote it with the index's write tool")
