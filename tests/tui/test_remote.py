"""--join: a seat at a real server's table (uvicorn on 127.0.0.1), kept across a dropped connection."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from unokart.server.app import create_app
from unokart.server.tables import Settings
from unokart.tui.app import PlayApp
from unokart.tui.remote import JoinError, RemoteTable, SeatStore, parse_address

from helpers.ports import free_port
from helpers.server import ManualClock, serving
from helpers.tui import log_text, screen_text

UNOKART = str(Path(sys.executable).with_name("unokart"))


class Server:
    """``unokart serve`` as a real process, that can be killed and started again on the same port and file."""

    def __init__(self, db: Path):
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [UNOKART, "serve", "--port", str(self.port), "--db", str(self.db), "--bot-delay", "0",
             "--round-pause", "0.2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a loaded machine may take a while to import everything
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.base}/api/health").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "tables.sqlite")
    running.start()
    yield running
    if running.process.poll() is None:
        running.kill()


async def until(pilot, condition, what: str, app) -> None:
    for _ in range(400):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never happened: {what}\n{screen_text(app)}")


def my_turn(table: RemoteTable) -> bool:
    return bool(table.view) and table.view["to_act"] == table.seat and bool(table.legal)


async def draw_or_keep(pilot, table: RemoteTable) -> None:
    """A turn by keyboard: draw (d) on a fresh turn, keep (p) a playable drawn card, accept (a) draws."""
    verbs = {a.verb for a in table.legal}
    await pilot.press("d" if "draw" in verbs else "p" if "pass" in verbs else "a" if "accept" in verbs else "r")


async def test_join_play_lose_the_server_and_come_back_to_the_same_seat(server, tmp_path):
    created = httpx.post(f"{server.base}/api/tables", json={"seats": 2}).json()
    store = SeatStore(tmp_path / "config" / "seats.json")
    table = RemoteTable(*parse_address(created["link"]), "Ann", store)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.status_note and "Ann (you)" in table.status_note, "seated in the lobby", app)
        token = json.loads(store.path.read_text())[created["link"]]["Ann"]["token"]
        assert len(token) == 32 and "n  start the game" in screen_text(app)
        await pilot.press("n")  # seat 1 is empty: refused, with the server's reason
        await until(pilot, lambda: len(log_text(app).split("Seated at table")[-1].strip().splitlines()) > 1,
                    "the refusal to start, in words", app)
        assert table.view is None and "seat" in log_text(app).splitlines()[-1].lower()
        await pilot.press("s")  # a heuristic bot in seat 1
        await until(pilot, lambda: "1 Bot 1" in screen_text(app), "the bot seated", app)
        await pilot.press("n")
        await until(pilot, lambda: my_turn(table), "Ann's turn", app)
        version = table.version
        await draw_or_keep(pilot, table)
        await until(pilot, lambda: table.version > version, "the action accepted", app)
        assert "Ann " in log_text(app).split("Seated at table")[-1]

        server.kill()
        await until(pilot, lambda: "connection to the server is lost" in log_text(app), "the drop noticed", app)
        await asyncio.to_thread(server.start)  # same port, same database: the table is rebuilt from its record
        await until(pilot, lambda: log_text(app).count("Seated at table") == 2, "the seat resumed", app)
        await until(pilot, lambda: my_turn(table), "Ann's turn again", app)
        assert log_text(app).count("The first card is") == 1  # the resumed round is not told twice
        assert json.loads(store.path.read_text())[created["link"]]["Ann"]["token"] == token
        version = table.version
        await draw_or_keep(pilot, table)
        await until(pilot, lambda: table.version > version, "an action after the reconnection", app)

    # A new `unokart play --join` with the same seat file resumes the seat (a join would be refused now).
    again = RemoteTable(*parse_address(created["link"]), "Ann", store)
    app = PlayApp(again)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: again.view is not None, "the game view on resume", app)
        assert again.seat == 0 and "Seated at table" in log_text(app)
        assert "0 Ann (you)" in screen_text(app)


def run_play(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([UNOKART, "play", *args], capture_output=True, text=True, timeout=60)


def test_join_errors_are_one_clear_sentence(server):
    unknown = run_play("--join", f"{server.base}/t/ZZZZZZ", "--name", "Ann")
    assert unknown.returncode == 2
    assert unknown.stderr == f"error: There is no table ZZZZZZ on the server at {server.base}.\n"
    nobody = run_play("--join", f"http://127.0.0.1:{free_port()}/t/K7Q2XM")
    assert nobody.returncode == 2 and "Cannot reach a unokart server at http://127.0.0.1:" in nobody.stderr
    bad = run_play("--join", "K7Q2X0")
    assert bad.returncode == 2 and "'K7Q2X0' is not a table code" in bad.stderr


async def test_a_table_gone_from_the_server_is_named_and_not_retried(server, tmp_path):
    table = RemoteTable(server.base, "ZZZZZZ", "Ann", SeatStore(tmp_path / "seats.json"))
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table._task.done(), "giving up", app)
        assert "ZZZZZZ" in log_text(app).splitlines()[-1]
        assert "trying again" not in log_text(app)


def test_table_addresses():
    assert parse_address("http://127.0.0.1:8000/t/k7q2xm") == ("http://127.0.0.1:8000", "K7Q2XM")
    assert parse_address("ws://example.org:9/ws/K7Q2XM") == ("http://example.org:9", "K7Q2XM")
    assert parse_address("K7Q2XM", "http://h:1") == ("http://h:1", "K7Q2XM")
    for bad in ("K7Q2X0", "ftp://h/t/K7Q2XM", "http:///t/K7Q2XM", ""):
        with pytest.raises(JoinError):
            parse_address(bad)


def test_a_broken_seat_file_is_treated_as_empty(tmp_path):
    path = tmp_path / "seats.json"
    path.write_text("{not json")
    store = SeatStore(path)
    assert store.get("http://h/t/K7Q2XM") is None
    store.put("http://h/t/K7Q2XM", "Ann", {"token": "x" * 32, "seat": 1})
    assert store.get("http://h/t/K7Q2XM", "Ann")["seat"] == 1 and oct(path.stat().st_mode)[-3:] == "600"


async def test_turn_timer_counts_down_then_away_and_back(tmp_path):
    # The server runs in this process on a clock the test moves: a turn's 5 s pass when the test says so.
    clock = ManualClock()
    served = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=0, round_pause=0.2), clock=clock)
    with serving(served) as base:
        # Two human seats: Ann here, Bob never decides, so every turn waits on a person and the timer runs.
        created = httpx.post(f"{base}/api/tables", json={"seats": 2, "turn_timer": 5}).json()
        bob = httpx.post(f"{base}/api/tables/{created['code']}/join", json={"name": "Bob"}).json()
        table = RemoteTable(*parse_address(f"{base}/t/{created['code']}"), "Ann", SeatStore(tmp_path / "seats.json"))
        app = PlayApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: table.status_note is not None, "the lobby", app)
            await pilot.press("n")
            await until(pilot, lambda: table.view is not None, "the deal", app)
            if table.view["to_act"] != table.seat:  # Bob's timer runs out first; then it is Ann's turn
                clock.advance(5)
                await until(pilot, lambda: table.deadline is not None, "Ann's turn", app)
            assert table.deadline is not None and " s left" in screen_text(app).splitlines()[0]
            assert not table.away
            clock.advance(5)
            await until(pilot, lambda: table.away, "Ann away after her timer ran out", app)
            assert "You are away: a bot plays for you. Press h to come back." in screen_text(app)
            await pilot.press("h")
            await until(pilot, lambda: not table.away, "Ann back", app)
            assert "You are away" not in screen_text(app)
        assert bob["seat"] == 0 and table.seat == 1


GOOD_VIEW = {"round": 1, "dealer": 0, "direction": 1, "to_act": 0, "awaiting": "play", "top": "R5", "color": "R",
             "hands": [["R1", "G7"], 7], "stock": 80, "discard": 1, "uno_said": [False, False], "scores": [0, 0],
             "seat": 0, "players": ["Ann", "Bot 1"], "pending": 0, "drawn": None}
BAD_VIEWS = {
    "no hands": {k: v for k, v in GOOD_VIEW.items() if k != "hands"},
    "fewer hands than players": {**GOOD_VIEW, "hands": [["R1"]]},
    "a drawn card not in the hand": {**GOOD_VIEW, "drawn": "B9"},
    "the own hand as a number": {**GOOD_VIEW, "hands": [2, 7]},
    "a seat to act beyond the table": {**GOOD_VIEW, "to_act": 5},
    "scores missing a player": {**GOOD_VIEW, "scores": [0]},
}


@pytest.mark.parametrize("problem", BAD_VIEWS)
def test_a_state_the_client_cannot_draw_is_refused_whole_and_the_last_one_kept(tmp_path, problem):
    table = RemoteTable("http://127.0.0.1:1", "K7Q2XM", "Ann", SeatStore(tmp_path / "seats.json"))
    notices: list[str | None] = []
    table._on_change = lambda fresh, notice: notices.append(notice)
    state = {"type": "state", "version": 1, "game": 1, "legal": ["0: draw"], "events": [], "view": dict(GOOD_VIEW)}
    table._take(json.dumps(state))
    assert table.version == 1 and table.view["hands"] == [["R1", "G7"], 7]
    table._take(json.dumps({**state, "version": 2, "view": BAD_VIEWS[problem]}))
    assert table.version == 1 and table.view["hands"] == [["R1", "G7"], 7], f"{problem}: the bad state was taken"
    assert notices[-1] == "The server sent a message this client does not understand; it is skipped."
