"""Leaving a screen while it still loads (the Back button): when the load ends, it neither connects, draws nor moves the address."""

from __future__ import annotations

import time

import httpx

from helpers.web import finished_game


def hold(page, pattern: str) -> list:
    """Requests matching ``pattern`` wait, unanswered, in the returned list until the test lets them go."""
    held: list = []
    page.route(pattern, lambda route: held.append(route))
    return held


# Each answer's URL, recorded a task after its body was read: by then the code awaiting it has run on
# to its next wait (a connection opened, a screen drawn, or nothing), so a test can look without a pause.
ANSWERS_SPY = """
window.__answered = [];
const realFetch = window.fetch;
window.fetch = (...args) => realFetch(...args).then((response) => {
  const realJson = response.json.bind(response);
  response.json = () => realJson().finally(() => setTimeout(() => window.__answered.push(response.url)));
  return response;
});
"""


def spy_on_answers(page) -> None:
    page.add_init_script(ANSWERS_SPY)


def wait_until_answered(page, fragment: str) -> None:
    page.wait_for_function("part => window.__answered.some((url) => url.includes(part))", arg=fragment)


def wait_until_held(page, held: list) -> None:
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the screen never asked the server"
        page.wait_for_timeout(20)


def open_in_app(page, address: str) -> None:
    """As the app's own links do: the address changes without a page load."""
    page.evaluate("to => { history.pushState(null, '', to); dispatchEvent(new PopStateEvent('popstate')); }", address)


def test_a_table_left_while_it_loads_opens_no_connection_and_leaves_the_lobby_as_it_is(server, new_page):
    code = server.create(seats=2, bots={"1": "easy"})["code"]
    page = new_page("desktop")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    spy_on_answers(page)
    held = hold(page, f"**/api/tables/{code}?*")  # the page asks in its language (?lang=)
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby")
    open_in_app(page, f"/t/{code}")
    wait_until_held(page, held)
    page.go_back()
    page.wait_for_selector("#lobby")
    held[0].continue_()
    wait_until_answered(page, f"/api/tables/{code}?")  # the table's code has run on (or not)
    assert sockets == [], f"a connection was opened for a screen no longer shown: {sockets}"
    assert page.evaluate("location.pathname") == "/"
    assert page.locator("#table-screen").count() == 0 and page.locator("#lobby").count() == 1
    assert page.inner_text("#top-meta") == ""
    assert httpx.get(f"{server.url}/api/tables/{code}").json()["seats"][0]["kind"] == "empty", "nothing was joined"


def test_a_replay_left_while_it_loads_keeps_the_address_and_the_top_bar_of_the_screen_shown(server, new_page):
    game = finished_game(server)
    page = new_page("desktop")
    spy_on_answers(page)
    held = hold(page, f"**/api/games/{game['id']}?*")
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby")
    page.evaluate("to => { location.hash = to; }", f"#replay/{game['id']}")
    wait_until_held(page, held)
    page.go_back()
    page.wait_for_selector("#lobby")
    held[0].continue_()
    wait_until_answered(page, f"/api/games/{game['id']}?")
    assert page.evaluate("location.hash") == "", "the replay rewrote the address of the lobby"
    assert page.locator("#replay").count() == 0 and page.locator("#lobby").count() == 1
    assert page.inner_text("#top-meta") == ""
