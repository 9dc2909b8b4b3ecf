"""Playwright driving Debian's Chromium. In CI the browser must be there: no skipping."""

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing at /usr/bin/chromium; .ci/run installs it.")
        pytest.skip("Chromium not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread for the session; the
    # ORM calls around these tests are plain synchronous code, so Django's guard must step aside.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()
        # While that loop runs, asgiref keeps Django's connections per context, not per
        # thread: every test after the first browser test got a connection of its own, which
        # nothing closed once the loop stopped. PostgreSQL then refused to drop the test
        # database ("being accessed by other users"). Close them while they are visible.
        from django.db import connections

        connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
