"""Coming back in Chromium: after the server is killed (SIGKILL) and restarted, and after a turn timer ran out."""

from __future__ import annotations

import httpx
import pytest
from helpers.server import serve_for_module


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """Bots wait a second before each move, as people would see them play."""
    yield from serve_for_module(tmp_path_factory.mktemp("slow") / "unokart.sqlite", bot_delay=1.0)


def open_as(page, server, created: dict, name: str) -> None:
    joined = httpx.post(f"{server.url}/api/tables/{created['code']}/join", json={"name": name}).json()
    page.goto(server.url + "/")
    page.evaluate("([code, token]) => localStorage.setItem('unokart.token.' + code, token)", [created["code"], joined["token"]])
    page.goto(f"{server.url}/t/{created['code']}")


def make_any_move(page) -> None:
    """Click the first choice the page offers (a colour, a target, a decision, a playable card, else the stock)."""
    before = page.get_attribute("#game", "data-version")
    choices = page.locator("#decision [data-color], #decision [data-target], #decision [data-verb], #hand .card.playable")
    if choices.count():
        choices.first.click(position={"x": 12, "y": 12})
    else:
        page.click("#stock")
    page.wait_for_function("v => document.querySelector('#game').dataset.version !== v", arg=before)


def test_the_page_reconnects_after_the_server_dies_and_plays_on(server, new_page):
    created = server.create(seats=2, bots={"1": "easy"}, options={"hand_size": 5})
    page = new_page("phone")
    open_as(page, server, created, "Rea")
    page.click("#start-btn")
    page.wait_for_selector("#game[data-mine='true']")
    hand = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.code)")
    version = page.get_attribute("#game", "data-version")

    server.kill()
    page.wait_for_selector("#status-banner:not(.hidden)")
    assert "reconnecting" in page.inner_text("#status-banner").lower()
    server.start(port=server.port)  # same address, same database: the table is rebuilt from its record
    page.wait_for_selector("#status-banner.hidden", state="attached", timeout=30000)
    assert page.get_attribute("#game", "data-version") == version
    assert page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.code)") == hand

    make_any_move(page)  # a turn action after the reconnect is accepted
    assert page.locator("#error-banner.hidden").count()


def test_the_turn_timer_counts_down_and_an_away_player_comes_back_with_a_move(slow_server, new_page):
    server = slow_server
    created = server.create(seats=2, bots={"1": "easy"}, options={"hand_size": 5}, turn_timer=5)
    page = new_page("desktop")
    open_as(page, server, created, "Tim")
    page.click("#start-btn")
    page.wait_for_selector("#game[data-mine='true']", timeout=20000)
    assert "s left" in page.inner_text("#timer")

    page.wait_for_selector("#away-note", timeout=15000)  # the timer ran out: a bot plays for Tim
    assert httpx.get(f"{server.url}/api/tables/{created['code']}").json()["seats"][0]["away"] is True
    assert "bot plays for you" in page.inner_text("#away-note")

    page.wait_for_selector("#game[data-mine='true']", timeout=30000)
    make_any_move(page)  # within the bot's second: any message with the seat's token brings Tim back
    page.wait_for_selector("#away-note", state="detached", timeout=10000)
    assert httpx.get(f"{server.url}/api/tables/{created['code']}").json()["seats"][0]["away"] is False
