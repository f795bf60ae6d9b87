"""A join page watches its table: a seat taken by someone else leaves the page at once (issue 14).

Ann's table has three empty seats; Bob opens its invite link and, while he is
still typing his name, two other people take seats through the API. Bob's page
drops each taken seat without a reload (it watches the table over the
websocket); once the last seat is taken it shows the table as a spectator.
"""

from __future__ import annotations

import httpx


def sit_buttons(page) -> list[str]:
    return page.eval_on_selector_all("#seats li", "rows => rows.filter(r => r.querySelector('button')).map(r => r.dataset.seat)")


def test_a_taken_seat_leaves_the_join_page_at_once(server, new_page):
    code = server.create(seats=4)["code"]
    httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Ann", "seat": 0}).raise_for_status()
    bob = new_page("phone")
    bob.goto(f"{server.url}/t/{code}")
    bob.wait_for_selector("#join-page")
    assert sit_buttons(bob) == ["1", "2", "3"]
    bob.fill("#join-name", "Bob")

    httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Cy", "seat": 2}).raise_for_status()
    bob.wait_for_function("() => !document.querySelector('#seats li[data-seat=\"2\"] button')")
    assert sit_buttons(bob) == ["1", "3"]
    assert "Cy" in bob.inner_text('#seats li[data-seat="2"]')
    assert bob.input_value("#join-name") == "Bob", "what Bob typed is kept"

    httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Di", "seat": 1}).raise_for_status()
    httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Ed", "seat": 3}).raise_for_status()
    bob.wait_for_selector("#waiting-room")  # every seat taken: Bob watches
    assert bob.locator("#join-page").count() == 0
    assert bob.locator("#seats button").count() == 0
    assert bob.locator("#start-btn").count() == 0, "a spectator cannot start the game"
