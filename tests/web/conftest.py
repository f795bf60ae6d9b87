"""Fixtures of the browser tests: a real `unokart serve` (the server tests' harness) and Debian's Chromium."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from server_harness import serve_for_module  # noqa: E402  (the server tests' real-subprocess harness)

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
VIEWPORTS = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("web") / "unokart.sqlite")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """new_page("desktop" | "phone") -> a page in its own browser context (its own localStorage: another person)."""
    contexts = []
    page_errors: list[str] = []
    foreign: list[str] = []  # the client ships every file: nothing may come from elsewhere

    def make(viewport="desktop"):
        context = browser.new_context(viewport=VIEWPORTS[viewport])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: page_errors.append(str(err)))
        page.on("request", lambda request: request.url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:"))
                or foreign.append(request.url))
        page.set_default_timeout(15000)
        return page

    yield make
    for context in contexts:
        context.close()
    assert page_errors == [], f"JavaScript errors in the page: {page_errors}"
    assert foreign == [], f"requests outside the server: {foreign}"


@pytest.fixture(scope="session")
def shots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
