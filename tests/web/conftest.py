"""Fixtures of the browser tests: a real `unokart serve` (the server tests' harness) and Debian's Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from helpers.server import serve_for_module
from helpers.web import SIZES, VIEWPORTS  # noqa: F401  (fixtures below use them)

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
WEB_FONTS = Path(__file__).resolve().parents[2] / "src" / "unokart" / "web" / "fonts"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("web") / "unokart.sqlite")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def fontless_config(folder: Path) -> Path:
    """A fontconfig configuration for a machine with one Latin-only font and nothing else.

    Chromium's browser process will not start with no font at all, so its one
    folder holds the shipped Latin subset, unpacked to TrueType: a machine's fonts
    (whatever it has installed) play no part, and none of them draws Tamil,
    Kannada, Telugu or Arabic.
    """
    from fontTools.ttLib import TTFont

    fonts = folder / "latin-only"
    fonts.mkdir(exist_ok=True)
    latin = TTFont(WEB_FONTS / "unokart-latin-400.woff2")
    latin.flavor = None
    latin.save(fonts / "latin-only.ttf")
    config = folder / "fonts.conf"
    config.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{fonts}</dir><cachedir>{folder / "cache"}</cachedir></fontconfig>
""")
    return config


@pytest.fixture(scope="module")
def no_fonts(tmp_path_factory) -> Path:
    return fontless_config(tmp_path_factory.mktemp("fontconfig"))


@pytest.fixture(scope="module")
def fontless_browser(no_fonts):
    """Chromium that sees no system font (FONTCONFIG_FILE): whatever it reads, the page's own fonts draw."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS,
                                              env={**os.environ, "FONTCONFIG_FILE": str(no_fonts)})
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
