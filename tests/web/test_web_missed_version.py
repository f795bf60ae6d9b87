"""A state lost on its way (a relay dropped it) is noticed by the page: versions grow by one, so
the next state's jump makes the page ask for the whole state again, and the lost events reach
the log. Chromium watches a bots' table through a websocket route that drops one state frame."""

from __future__ import annotations

import json
import time

import pytest
from helpers.server import serve_for_module


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory):
    """Bots that take a moment, so the watched table keeps sending states at a readable pace."""
    yield from serve_for_module(tmp_path_factory.mktemp("missed") / "unokart.sqlite", bot_delay=0.2)


def wait_until(page, condition, what: str) -> None:
    """Until ``condition()`` holds: the route's callbacks run while Playwright waits."""
    deadline = time.monotonic() + 60  # a bound for a hang, not a pause
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        page.wait_for_timeout(20)


def is_droppable(message: dict, received: list[dict]) -> bool:
    """One news state after the page's first (whole) one, while every hand holds three cards or more:
    the round cannot end before the next state (one card a move), whose jump sends the sync,
    and the sync's whole state (the round's events) still holds the lost events."""
    return (message.get("type") == "state" and bool(message.get("events"))
            and any(m.get("type") == "state" for m in received)
            and all(size >= 3 for size in message["view"]["hands"]))


def dropping_relay(drop, received: list[dict] | None = None):
    """A websocket route between page and server that drops the first frame ``drop`` picks: the route, what
    the page sent, and what was dropped (``received`` collects what reached the page)."""
    sent: list[dict] = []
    dropped: list[dict] = []

    def relay(route):
        upstream = route.connect_to_server()

        def to_server(frame):
            sent.append(json.loads(frame))
            upstream.send(frame)

        def to_page(frame):
            message = json.loads(frame)
            if not dropped and drop(message):
                dropped.append(message)
                return
            if received is not None:
                received.append(message)
            route.send(frame)

        route.on_message(to_server)
        upstream.on_message(to_page)

    return relay, sent, dropped


def test_a_dropped_state_is_noticed_and_its_events_are_fetched_again(paced_server, new_page):
    server = paced_server
    created = server.create(seats=2, bots={"0": "easy", "1": "easy"}, start=True)
    page = new_page("desktop")
    received: list[dict] = []  # what reached the page
    relay, sent, dropped = dropping_relay(lambda message: is_droppable(message, received), received)
    page.route_web_socket(f"**/ws/{created['code']}", relay)
    page.goto(f"{server.url}/t/{created['code']}#watch")
    wait_until(page, lambda: dropped, "the route dropped a state")  # the bots play on; hands are dealt again each round
    lost = dropped[0]
    page.wait_for_function(
        "v => Number(document.querySelector('#game')?.dataset.version) > v", arg=lost["version"], timeout=30000)
    wait_until(page, lambda: any(m.get("type") == "sync" for m in sent), "the page asked for the whole state after the jump")
    # The lost state's events come back with the whole state, and are logged.
    page.wait_for_function(
        """([key, round, wanted]) => {
            const logged = JSON.parse(sessionStorage.getItem(key) || "[]").filter((entry) => entry.round === round);
            return wanted.every((i) => logged.some((entry) => entry.event.i === i));
        }""",
        arg=[f"unokart.log.{created['code']}.{lost.get('game', 1)}", lost["view"]["round"], [e["i"] for e in lost["events"]]],
        timeout=15000)


# One move of the seat's, clicked inside the page (the element found is the one clicked): another decision's first
# button, else the stock on its turn to play. Returns whether it clicked.
SEAT_MOVES_JS = """() => {
  const mine = document.querySelector("#game[data-mine='true']");
  if (!mine) return false;
  const other = mine.querySelector("#decision :is([data-color], [data-target], [data-verb='accept'], [data-verb='pass'])");
  const target = other ?? (mine.dataset.awaiting === 'play' ? document.getElementById('stock') : null);
  target?.click();
  return Boolean(target);
}"""


def test_an_action_whose_answer_was_lost_does_not_leave_the_page_waiting_for_ever(paced_server, new_page):
    """The state answering the seat's own draw is dropped while the decision is still the seat's, so no newer
    state follows: on the page's clock, moved on, the page asks for the whole table and takes it."""
    import httpx

    server = paced_server
    created = server.create(seats=2, bots={"1": "easy"}, options={"target_score": 5000})
    token = httpx.post(f"{server.url}/api/tables/{created['code']}/join", json={"name": "Mo", "seat": 0}).json()["token"]
    page = new_page("desktop")
    page.clock.install()
    page.add_init_script(f"localStorage.setItem('unokart.token.{created['code']}', '{token}')")
    relay, sent, dropped = dropping_relay(
        lambda message: message.get("type") == "state" and "re" in message and message["view"]["to_act"] == 0)
    page.route_web_socket(f"**/ws/{created['code']}", relay)
    page.goto(f"{server.url}/t/{created['code']}")
    page.click("#start-btn")
    deadline = time.monotonic() + 60  # a bound for a hang
    while not dropped:  # the seat draws on its turns, and answers any other decision (a colour, a target, pass)
        assert time.monotonic() < deadline, "no answer of the seat's was dropped"
        version = page.get_attribute("#game", "data-version") if page.locator("#game").count() else None
        if not page.evaluate(SEAT_MOVES_JS):
            page.wait_for_timeout(20)
            continue
        wait_until(page, lambda: dropped or page.get_attribute("#game", "data-version") != version, "an answer")
    lost = dropped[0]
    assert not any(m.get("type") == "sync" for m in sent), "the page asked again before its wait was over"
    page.clock.run_for(9000)
    wait_until(page, lambda: any(m.get("type") == "sync" for m in sent), "the page asked for the table again")
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) >= v", arg=lost["version"])
