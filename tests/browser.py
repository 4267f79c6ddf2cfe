"""One headless Chromium for the whole run (Debian's, driven by Playwright), and a fresh
browser context per test. `playwright install` would download a browser, which this machine and
CI cannot, so the system's chromium is used; without it the tests fail saying how to get it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    path = os.environ.get("MEMORY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        pytest.fail(
            f"no chromium at {path}: the console's browser tests drive Debian's chromium. "
            "Install it with `apt-get install -y chromium` (`make install` does it when run as "
            "root), or point MEMORY_CHROMIUM at a Chromium binary.",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def context(browser: Browser, api_url: str) -> Iterator[BrowserContext]:
    ctx = browser.new_context(base_url=api_url)
    ctx.set_default_timeout(15_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
