"""What the console's browser tests share: an administrator of an organisation, signed in
through the form or straight into a browser context, and reading what a page shows."""

from __future__ import annotations

import uuid
from urllib.parse import urlparse

from playwright.sync_api import BrowserContext, Page

from memory_pipelines.api.accounts import create_admin, sign_in
from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.store.db import Database

PASSWORD = "correct horse battery staple"


def new_admin(db: Database, org: str) -> tuple[str, int]:
    """A new administrator of `org` with PASSWORD: (name, account id)."""
    name = f"admin-{uuid.uuid4().hex[:6]}"
    row, _ = create_admin(db, org, name, password=PASSWORD, created_by="test")
    return name, int(row["account_id"])


def sign_in_with_form(page: Page, org: str, name: str, password: str = PASSWORD) -> None:
    page.goto("/console/signin")
    page.get_by_label("Organisation").fill(org)
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def signed_in(db: Database, context: BrowserContext, api_url: str, org: str) -> int:
    """A new administrator of `org`, its session cookie put in the browser context (the form
    itself is tested in test_console.py): its account id."""
    name, account = new_admin(db, org)
    session = sign_in(db, org, name, PASSWORD)
    assert session is not None
    host = urlparse(api_url).hostname or "127.0.0.1"
    context.add_cookies(
        [
            {
                "name": "mp_console",
                "value": session.token,
                "domain": host,
                "path": "/console",
                "httpOnly": True,
                "sameSite": "Lax",
            }
        ]
    )
    return account


def shown_ids(page: Page) -> list[int]:
    """The record ids of the rows on the page, in order."""
    return [int(str(r.get_attribute("data-record"))) for r in page.locator("tr[data-record]").all()]


def last_read(db: Database, account: int) -> dict:
    """The account's newest read_audit row."""
    return reads_by_account(db, account, limit=1)[0]
