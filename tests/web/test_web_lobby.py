"""The lobby in Chromium: creating a table with bots and house rules, bad input, spectators."""

from __future__ import annotations

import httpx


def table_count(server) -> int:
    return len(httpx.get(server.url + "/api/tables").json()["tables"])


def test_lobby_creates_a_table_with_bots_house_rules_and_a_timer(server, new_page, shots):
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    page.screenshot(path=shots / "lobby_desktop.png", full_page=True)
    page.fill("#create-form input[name=name]", "Ann")
    page.select_option("select[name=seats]", "5")
    page.select_option("select[name=seat-1]", "heuristic")
    page.select_option("select[name=seat-2]", "open")
    page.select_option("select[name=seat-3]", "random")
    page.select_option("select[name=seat-4]", "open")
    page.fill("input[name=target_score]", "200")
    page.fill("input[name=hand_size]", "5")
    page.select_option("select[name=turn_timer]", "30")
    page.check("input[name=stacking]")
    page.check("input[name=jump_in]")
    page.click("#create-btn")
    page.wait_for_selector("#waiting-room")

    code = page.inner_text("#table-code")
    table = httpx.get(f"{server.url}/api/tables/{code}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "empty", "bot", "empty"]
    assert [s["level"] for s in table["seats"]][1:4:2] == ["heuristic", "random"]
    assert table["options"]["target_score"] == 200 and table["options"]["hand_size"] == 5
    assert table["options"]["stacking"] and table["options"]["jump_in"] and not table["options"]["seven_zero"]
    assert table["turn_timer"] == 30
    assert page.input_value("#invite-link").endswith(f"/t/{code}")
    assert page.locator("#start-btn").is_disabled(), "the game cannot start with empty seats"
    assert "Ann" in page.inner_text("#seats li[data-seat='0']")

    # Fill an empty seat with a bot from the waiting room: the seat list updates for everyone.
    page.select_option("#seats li[data-seat='2'] select", "easy")
    page.wait_for_function("() => document.querySelector(\"#seats li[data-seat='2']\").textContent.includes('easy')")
    assert httpx.get(f"{server.url}/api/tables/{code}").json()["seats"][2]["level"] == "easy"


def test_lobby_on_a_phone_fits_the_screen(server, new_page, shots):
    page = new_page("phone")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    page.screenshot(path=shots / "lobby_phone.png", full_page=True)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the lobby is {overflow}px wider than a phone"


def test_lobby_refuses_a_missing_name_and_a_bad_code_and_creates_nothing(server, new_page):
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    before = table_count(server)
    page.fill("#create-form input[name=name]", "   ")
    page.click("#create-btn")
    page.wait_for_selector("#error-banner:not(.hidden)")
    assert "name" in page.inner_text("#error-banner").lower()
    assert table_count(server) == before
    assert page.locator("#create-form").count() == 1, "still in the lobby"

    page.fill("#lobby input[name=code]", "no!")
    page.locator("#lobby input[name=code]").press("Enter")
    page.wait_for_function("() => document.querySelector('#error-banner').textContent.includes('6 letters')")
    assert page.url.rstrip("/") == server.url


def test_a_name_of_24_emoji_joined_by_zero_width_joiners_is_typed_whole_and_a_25th_character_is_refused(server, new_page):
    """24 characters as the server counts them (8 technologist emoji: 24 code points, 40 UTF-16 units) fit the
    name field whole; one more is refused in one sentence before any table is made."""
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    before = table_count(server)
    page.fill("#create-form input[name=name]", "\U0001F469\u200d\U0001F4BB" * 8 + "!")
    page.click("#create-btn")
    page.wait_for_selector("#error-banner:not(.hidden)")
    assert page.inner_text("#error-banner .error-text") == "This name has 25 characters: a name has at most 24."
    assert table_count(server) == before

    name = "\U0001F469\u200d\U0001F4BB" * 8
    page.fill("#create-form input[name=name]", name)
    assert page.input_value("#create-form input[name=name]") == name, "the field kept every emoji"
    page.click("#create-btn")
    page.wait_for_selector("#start-btn")
    assert name in page.inner_text("#table-screen")


def test_an_unknown_table_link_says_so(server, new_page):
    page = new_page("desktop")
    page.goto(server.url + "/t/ZZZZZZ")
    page.wait_for_selector("text=There is no table with this code.")
    assert page.locator("#game").count() == 0


def test_a_spectator_sees_the_table_but_no_hand(server, new_page, shots):
    created = server.create(seats=3, bots={"0": "easy", "1": "easy", "2": "random"}, options={"hand_size": 4}, start=True)
    page = new_page("phone")
    page.goto(f"{server.url}/t/{created['code']}")  # a started table: the page watches
    page.wait_for_selector("#game")
    assert page.locator("#hand").count() == 0, "a spectator has no hand"
    assert page.locator(".opp").count() == 3, "a spectator sees every seat as an opponent"
    assert page.locator("#stock").is_disabled()
    sizes = page.eval_on_selector_all(".opp .count", "nodes => nodes.map(n => Number(n.textContent))")
    assert all(size >= 0 for size in sizes) and sum(sizes) > 0
    html = page.content()
    # Card faces a spectator may see are the discard pile's; hands are sizes only.
    assert page.locator(".opp .card:not(.card-back)").count() == 0, f"a hidden card was drawn: {html[:200]}"
