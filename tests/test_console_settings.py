"""Settings > Permitted capabilities in a real browser: an administrator whose memory is off is
sent there and sees who sets it; the administrator of the organisation above turns memory on
for it (memory needs knowledge, shown beside the form with nothing saved), and may set only the
organisations directly below its own, never beyond its own ceiling."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from memory_pipelines.store.db import Database
from tests.api_server import new_org
from tests.console_helpers import signed_in


def _ceiling(db: Database, org: str) -> list[str]:
    with db.connection() as conn:
        row = conn.execute("SELECT ceiling FROM organisations WHERE org_id = %s", (org,)).fetchone()
    assert row is not None
    return sorted(row["ceiling"])


def test_the_organisation_above_turns_memory_on_under_permitted_capabilities(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    parent = new_org(db)
    child = new_org(db, parent=parent, ceiling=["knowledge"])
    sibling = new_org(db, parent=new_org(db), ceiling=["knowledge"])

    # the child's administrator: memory is off, and Settings says who turns it on
    signed_in(db, context, api_url, child)
    page.goto("/console")
    expect(page.get_by_test_id("memory-off")).to_contain_text(child)
    page.get_by_test_id("memory-off").get_by_role("link", name="Settings").click()
    expect(page).to_have_url(re.compile("/console/settings$"))
    own = page.get_by_test_id("own-ceiling")
    expect(own.locator('[data-capability="memory"]')).to_have_text("Memory off")
    expect(page.get_by_test_id("permitted-capabilities")).to_contain_text(
        f"Set by the administrators of {parent}"
    )
    expect(page.get_by_test_id("no-children")).to_be_visible()
    context.clear_cookies()

    # the parent's administrator turns it on
    signed_in(db, context, api_url, parent)
    page.goto("/console/settings")
    form = page.locator(f'form[data-org="{child}"]')
    form.get_by_label("Memory").check()
    form.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(rf"\?saved={child}#org-{child}$"))
    expect(page.locator(f'form[data-org="{child}"] [role="status"]')).to_have_text("Saved")
    assert _ceiling(db, child) == ["knowledge", "memory"]

    # memory without knowledge: named beside the form, what was ticked kept, nothing saved
    form = page.locator(f'form[data-org="{child}"]')
    form.get_by_label("Knowledge").uncheck()
    form.get_by_role("button", name="Save").click()
    form = page.locator(f'form[data-org="{child}"]')
    expect(form.locator(f'[data-error-for="{child}"]')).to_contain_text("memory needs knowledge")
    expect(form.get_by_label("Memory")).to_be_checked()
    expect(form.get_by_label("Knowledge")).not_to_be_checked()
    assert _ceiling(db, child) == ["knowledge", "memory"]

    # an organisation that is not directly below: not found, nothing changed
    token = page.locator('input[name="csrf"]').first.get_attribute("value") or ""
    res = page.request.post(
        f"{api_url}/console/settings/capabilities/{sibling}",
        form={"csrf": token, "knowledge": "on", "memory": "on"},
    )
    assert res.status == 404
    assert _ceiling(db, sibling) == ["knowledge"]
    context.clear_cookies()

    # the child's administrator reads memory now
    signed_in(db, context, api_url, child)
    page.goto("/console")
    expect(page.get_by_test_id("memory-off")).to_have_count(0)


def test_a_ceiling_never_goes_beyond_the_one_above(
    db: Database, context: BrowserContext, page: Page, api_url: str
) -> None:
    parent = new_org(db, ceiling=["knowledge"])
    child = new_org(db, parent=parent, ceiling=["knowledge"])
    signed_in(db, context, api_url, parent)
    page.goto("/console/settings")
    form = page.locator(f'form[data-org="{child}"]')
    expect(form.get_by_label("Memory")).to_be_disabled()
    token = page.locator('input[name="csrf"]').first.get_attribute("value") or ""
    res = page.request.post(
        f"{api_url}/console/settings/capabilities/{child}",
        form={"csrf": token, "knowledge": "on", "memory": "on"},
    )
    assert res.status == 422
    assert "not in the ceiling of organisation" in res.text()
    assert _ceiling(db, child) == ["knowledge"]
    # and a form without the console's token is refused
    res = page.request.post(
        f"{api_url}/console/settings/capabilities/{child}", form={"csrf": "x", "knowledge": "on"}
    )
    assert res.status == 403
