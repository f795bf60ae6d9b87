"""Keyboard play in Chromium: a whole game against a bot without the mouse, the game-over summary, a rematch."""

from __future__ import annotations

import time

import httpx

DEADLINE_S = 60


def wait_new_version(page, before: str) -> None:
    page.wait_for_function(
        """v => document.querySelector('#game')?.dataset.version !== v || document.querySelector('#decision [data-color]')
               || document.querySelector('#summary-dialog[open]') || !document.querySelector('#error-banner').classList.contains('hidden')""",
        arg=before)
    assert page.locator("#error-banner.hidden").count(), page.inner_text("#error-banner")


def press_for_decision(page, used: set) -> None:
    """One decision by keyboard only, as the shortcuts shown on the page say."""
    before = page.get_attribute("#game", "data-version")
    if page.locator("#decision [data-color]").count():
        page.keyboard.press("g")
        used.add("colour")
    elif page.locator("#decision [data-target]").count():
        page.keyboard.press("1")
        used.add("target")
    elif page.locator('#decision [data-verb="challenge"]').count():
        page.keyboard.press("c")
        used.add("challenge")
    elif page.locator('#decision [data-verb="play-drawn"]').count():
        page.keyboard.press("Enter")
        used.add("drawn")
    elif page.locator("#uno-btn[aria-pressed=false]").count():
        page.keyboard.press("u")
        used.add("uno")
        return  # arms UNO, nothing is sent yet
    else:
        classes = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.classList.contains('playable'))")
        if True in classes and classes.index(True) < 10:
            page.keyboard.press(str((classes.index(True) + 1) % 10))
            page.keyboard.press("Enter")
            used.add("card")
        else:
            page.keyboard.press("d")
            used.add("draw")
    wait_new_version(page, before)


def check_the_keys_dialog(page) -> None:
    """`?` lists the keyboard shortcuts; Escape closes the list."""
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog[open]")
    assert page.locator("#keys-list li").count() >= 10
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-dialog:not([open])", state="attached")


def play_until_the_game_ends(page, used: set) -> None:
    """Every decision of Kay's by keyboard; `?` is tried at Kay's first one (when a player wants it)."""
    deadline = time.monotonic() + DEADLINE_S
    while not page.locator("#summary-dialog[open]").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_attribute("#game", "data-mine") == "true":
            if "keys" not in used:
                check_the_keys_dialog(page)
                used.add("keys")
            press_for_decision(page, used)
        else:
            page.wait_for_timeout(30)


def rematch(page) -> None:
    page.click("#rematch-btn")
    page.wait_for_function("() => document.querySelector('#game')?.dataset.awaiting !== 'game_over'")
    page.wait_for_selector("#game[data-round='1']")
    assert page.locator("#summary-dialog[open]").count() == 0


def test_a_whole_game_by_keyboard_then_a_rematch(server, new_page, shots):
    created = server.create(seats=2, bots={"1": "easy"}, options={"hand_size": 3, "target_score": 1})
    joined = httpx.post(f"{server.url}/api/tables/{created['code']}/join", json={"name": "Kay"}).json()
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.evaluate("([code, token]) => localStorage.setItem('unokart.token.' + code, token)", [created["code"], joined["token"]])
    page.goto(f"{server.url}/t/{created['code']}")
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click("#start-btn")
    page.wait_for_selector("#game")

    # Colour-blind players: every card says its colour in words (aria-label) and by a shape (no English initial).
    shapes = {"\u25B2": "red", "\u25CF": "yellow", "\u25A0": "green", "\u25C6": "blue"}
    for label, mark in page.eval_on_selector_all("#hand .card", "cs => cs.map(c => [c.getAttribute('aria-label'), c.querySelector('.card-letter')?.textContent ?? ''])"):
        assert mark == "" and label.startswith("Wild") or label.split()[0] == shapes[mark]

    used: set[str] = set()
    play_until_the_game_ends(page, used)
    games = 1
    # With three cards each, the bot wins before Kay plays a card in about one game in 85 (one in
    # 250 before Kay's first turn: Skips, then its last card); then the rematch is played too.
    while not ("keys" in used and ("card" in used or "drawn" in used)) and games < 6:
        rematch(page)
        play_until_the_game_ends(page, used)
        games += 1
    assert "keys" in used, "`?` was pressed at one of Kay's turns"
    assert "card" in used or "drawn" in used, "a card was played by keyboard"

    page.wait_for_selector("#rematch-btn")
    assert page.get_attribute("#game", "data-awaiting") == "game_over"
    assert "wins the game" in page.inner_text("#summary-dialog")
    page.screenshot(path=shots / "game_over.png")
    scores = [int(x) for x in page.eval_on_selector_all("#summary-table tbody td:last-child", "cells => cells.map(c => c.textContent)")]
    assert max(scores) >= 1

    rematch(page)
    new_scores = page.eval_on_selector_all("#scores tbody td:last-child", "cells => cells.map(c => Number(c.textContent))")
    assert new_scores == [0, 0], "a rematch starts again from 0"
    assert httpx.get(f"{server.url}/api/tables/{created['code']}").json()["game"] == games + 1
