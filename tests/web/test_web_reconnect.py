"""Reconnecting in Chromium: the server is killed (SIGKILL) mid-round and restarted; the page comes back by itself."""

from __future__ import annotations

import httpx


def test_the_page_reconnects_after_the_server_dies_and_plays_on(server, new_page):
    created = server.create(seats=2, bots={"1": "easy"}, options={"hand_size": 5})
    joined = httpx.post(f"{server.url}/api/tables/{created['code']}/join", json={"name": "Rea"}).json()
    page = new_page("phone")
    page.goto(server.url + "/")
    page.evaluate("([code, token]) => localStorage.setItem('unokart.token.' + code, token)", [created["code"], joined["token"]])
    page.goto(f"{server.url}/t/{created['code']}")
    page.click("#start-btn")
    page.wait_for_selector("#game[data-mine='true']")
    hand = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.code)")
    version = page.get_attribute("#game", "data-version")

    server.kill()
    page.wait_for_selector("#status-banner:not(.hidden)")
    assert "reconnecting" in page.inner_text("#status-banner").lower()
    server.start()  # same port, same database: the table is rebuilt from its record
    page.wait_for_selector("#status-banner.hidden", state="attached", timeout=20000)
    assert page.get_attribute("#game", "data-version") == version
    assert page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.code)") == hand

    before = version
    page.click("#stock")  # a turn action after the reconnect is accepted
    page.wait_for_function("v => document.querySelector('#game').dataset.version !== v", arg=before)
    assert page.locator("#error-banner.hidden").count()
