"""A table link the page cannot open says why in the page's language: no such table, the server out of
reach, or the server's own failure; never the browser's English error text."""

from __future__ import annotations

import json
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[2] / "src" / "unokart" / "i18n"


def words(lang: str, key: str, **fields) -> str:
    text = json.loads((CATALOGUE / lang / "web.json").read_text(encoding="utf-8"))[key]
    return text.format(**fields)


def open_link(server, new_page, lang: str, answer) -> tuple[str, str]:
    """The page of /t/CODE, its table's HTTP request answered by ``answer(route)``: the heading and the reason."""
    page = new_page("desktop")
    page.add_init_script(f"localStorage.setItem('unokart.lang', '{lang}')")
    page.route("**/api/tables/ABCDEF*", answer)
    page.goto(f"{server.url}/t/ABCDEF")
    page.wait_for_selector(".waiting h2")
    return page.inner_text(".waiting h2"), page.inner_text(".waiting p")


def test_an_unreachable_server_is_said_so_in_the_pages_language(server, new_page):
    heading, reason = open_link(server, new_page, "ta", lambda route: route.abort("connectionrefused"))
    assert (heading, reason) == (words("ta", "error.cannot_open"), words("ta", "error.offline"))


def test_a_server_failure_without_words_is_named_by_its_status(server, new_page):
    heading, reason = open_link(server, new_page, "kn", lambda route: route.fulfill(status=502, body="<html>bad gateway</html>"))
    assert (heading, reason) == (words("kn", "error.cannot_open"), words("kn", "error.http", status=502))


def test_no_such_table_keeps_its_heading_and_the_servers_words(server, new_page):
    heading, reason = open_link(server, new_page, "sd", lambda route: route.continue_())
    assert heading == words("sd", "error.no_such_table") and reason and "HTTP" not in reason
