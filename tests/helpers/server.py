"""The server test harness: a real `unokart serve` on loopback (a subprocess), or the app built in the test's own
process (``in_process``: a real SQLite file, a ManualClock, HTTP and websockets over ASGI), and clients for both."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import random
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import uvicorn
import websockets
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport
from wsproto.utilities import LocalProtocolError

from unokart import Action, Game
from unokart.rules.cards import FACE_CODE
from unokart.server.shuffle import commitments_of

from .ports import free_port


class Server:
    """`unokart serve` in a subprocess; `kill()` is a real SIGKILL."""

    def __init__(self, db: Path, grace: float = 30.0, bot_delay: float = 0.0, extra: list[str] | None = None):
        self.db = db
        # Limits a test harness outgrows (one address makes every table): raised, or off, as an operator may.
        self.options = ["--bot-delay", str(bot_delay), "--round-pause", "0", "--grace", str(grace), "--rate-limit", "500",
                        "--http-rate", "1000", "--tables-per-address", "0", *(extra or [])]
        self.log = db.with_suffix(".log")
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def start(self, port: int | None = None) -> None:
        """Start (or restart) the server on ``port``, or a free one; a free port another process grabs first is replaced."""
        for _ in range(5):
            self.port = port or free_port()
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "unokart.cli", "serve", "--port", str(self.port), "--db", str(self.db),
                     *self.options], stdout=log, stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 60  # a loaded machine may take a while to import everything
            while self.proc.poll() is None and time.monotonic() < deadline:
                try:
                    if httpx.get(self.url + "/api/health", timeout=1).json() == {"status": "ok"}:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
            if self.proc.poll() is None:
                self.kill()
                raise RuntimeError("server did not start")
        raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def create(self, **body) -> dict:
        response = httpx.post(self.url + "/api/tables", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def errors_logged(self) -> str:
        return "\n".join(line for line in self.log.read_text().splitlines() if "ERROR" in line or "Traceback" in line)


class ManualClock:
    """The server's clock (server.clock.Clock) moved by the test, for a server in this process: time stands still
    until ``advance``, which runs every timer then due (turn timers, grace, round pauses, bot ticks), and the rate
    limits, idle sweeps and stored timestamps read it."""

    def __init__(self) -> None:
        self.now = time.time()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pending: list[ManualTimer] = []

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now  # one time for both: the test moves it

    def call_later(self, delay: float, callback, *args):
        self.loop = asyncio.get_running_loop()  # the server's
        if delay <= 0:  # due now: it runs without time moving (a round pause of 0)
            return self.loop.call_soon(callback, *args)
        timer = ManualTimer(self.now + delay, callback, args)
        self.pending.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on and return once the timers then due have run, on the server's loop
        (from another thread, as with ``serving``, or on that loop itself, for an app in the test's own loop)."""
        def move() -> None:
            self.now += seconds
            due = sorted((timer for timer in self.pending if timer.when <= self.now), key=lambda timer: timer.when)
            self.pending = [timer for timer in self.pending if timer.when > self.now and not timer.cancelled]
            for timer in due:
                if not timer.cancelled:
                    timer.callback(*timer.args)

        async def moved() -> None:
            move()

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if self.loop is None or running is self.loop:
            move()
            return
        asyncio.run_coroutine_threadsafe(moved(), self.loop).result(timeout=60)


class ManualTimer:
    def __init__(self, when: float, callback, args: tuple) -> None:
        self.when, self.callback, self.args, self.cancelled = when, callback, args, False

    def cancel(self) -> None:
        self.cancelled = True


@contextlib.contextmanager
def serving(app) -> Iterator[str]:
    """``app`` served by uvicorn on loopback in a thread of this process (so that a test can hand it a clock):
    its base URL, until the block ends."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="served", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a bound for a hang: a loaded machine may take a while
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


class InProcess:
    """The server built in the test's process and run on its event loop (``in_process``): HTTP through ``http``
    (an httpx client over the app's ASGI interface), websockets likewise (httpx-ws), time on ``clock``."""

    url = "http://unokart.test"

    def __init__(self, app, http: httpx.AsyncClient, clock: ManualClock, sockets: contextlib.AsyncExitStack):
        self.app, self.http, self.clock, self._sockets = app, http, clock, sockets

    @property
    def service(self):
        return self.app.state.directory.service

    async def create(self, **body) -> dict:
        response = await self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    async def websocket(self, code: str) -> "ASGISocket":
        # A transport of its own for each websocket: httpx-ws's ASGI transport holds one websocket at a time.
        http = await self._sockets.enter_async_context(
            httpx.AsyncClient(transport=ASGIWebSocketTransport(self.app), base_url=self.url))
        return ASGISocket(await self._sockets.enter_async_context(_websocket(f"/ws/{code}", http)))


@contextlib.asynccontextmanager
async def _websocket(url: str, http: httpx.AsyncClient):
    try:
        async with aconnect_ws(url, http) as session:
            yield session
    except* LocalProtocolError:  # a server frame racing the client's close: a real socket drops it, as here
        pass


class ASGISocket:
    """An httpx-ws session with the few methods of a ``websockets`` connection that Client uses."""

    def __init__(self, session) -> None:
        self.session = session

    async def send(self, text: str) -> None:
        await self.session.send_text(text)

    async def recv(self, timeout: float | None = None) -> str:
        # Its own timeout, in the calling task: httpx-ws's cancel scopes belong to the task that reads.
        return await self.session.receive_text(timeout=timeout)

    async def close(self) -> None:
        await self.session.close()


# What a test's server outgrows in a harness (one address makes every table): raised, or off, as Server's flags do.
HARNESS_SETTINGS = {"bot_delay": 0.0, "round_pause": 0.0, "grace": 30.0, "rate_limit": 500.0, "http_rate": 1000.0,
                    "tables_per_address": 0}


@contextlib.asynccontextmanager
async def in_process(db: Path, clock: ManualClock | None = None, **settings) -> AsyncIterator[InProcess]:
    """The app on ``db`` (a real SQLite file) in this process and event loop, started and stopped as uvicorn
    would (its lifespan), with a ManualClock the test moves (time stands still otherwise)."""
    from unokart.server.app import create_app
    from unokart.server.tables import Settings

    clock = clock or ManualClock()
    app = create_app(db, Settings(**{**HARNESS_SETTINGS, **settings}), clock=clock)
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    try:
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=ASGIWebSocketTransport(app), base_url=InProcess.url) as http:
                async with contextlib.AsyncExitStack() as sockets:
                    yield InProcess(app, http, clock, sockets)
    finally:
        logging.getLogger().removeHandler(errors)
    assert errors.lines == [], "the server logged errors"  # as a real server's log is checked (serve_for_module)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def run_in_process(main, tmp_path: Path, **settings) -> None:
    """``asyncio.run(main(server))`` with ``server`` an InProcess on a SQLite file in ``tmp_path``."""
    async def run() -> None:
        failure = None
        async with in_process(tmp_path / "tables.sqlite", **settings) as server:
            try:
                await main(server)
            except Exception:  # noqa: BLE001 - said whole below
                failure = traceback.format_exc()
        if failure is not None:
            # Raised here, outside the handler and the exit stack: an exception whose context chain loops
            # (anyio's cancel scopes make such chains) sends contextlib's exit into an endless loop.
            raise AssertionError(failure)

    asyncio.run(run())


class Served:
    """A server of this process at ``base`` (``serving``), with the parts of Server's face the clients use."""

    def __init__(self, base: str):
        self.url = base

    def ws_url(self, code: str) -> str:
        return self.url.replace("http", "ws", 1) + f"/ws/{code}"

    def create(self, **body) -> dict:
        response = httpx.post(self.url + "/api/tables", json=body)
        assert response.status_code == 201, response.text
        return response.json()


def finished_game(server: Server) -> int:
    """A game over at ``server`` (two random bots, one round): the id its games' routes know it by."""
    server.create(seats=2, bots={"0": "random", "1": "random"}, start=True, options={"target_score": 1})
    deadline = time.monotonic() + 60  # a bound for a hang: the bots finish the round at once
    while not (games := httpx.get(server.url + "/api/games").json()["games"]):
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.02)
    return games[0]["id"]


def serve_for_module(db: Path, **settings):
    """A module fixture's body: a real server until the module ends, whose log must show no error."""
    server = Server(db, **settings)
    yield server
    server.stop()
    assert server.errors_logged() == ""


class Client:
    """A websocket client that keeps every message it receives."""

    def __init__(self, ws, name: str = ""):
        self.ws = ws
        self.name = name
        self.received: list[dict] = []
        self.token: str | None = None
        self.seat: int | None = None
        self.last_state: dict | None = None

    @classmethod
    async def connect(cls, server: Server, code: str, name: str = "", source: str | None = None) -> "Client":
        """A client on its own connection; ``source`` (e.g. 127.0.0.2) makes it another address on loopback."""
        if isinstance(server, InProcess):
            assert source is None, "in process, every client is one address"
            return cls(await server.websocket(code), name)
        extra = {"local_addr": (source, 0)} if source else {}
        return cls(await websockets.connect(server.ws_url(code), max_size=2**22, max_queue=None, **extra), name)

    async def send(self, **message) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    async def recv(self, timeout: float = 20) -> dict:
        if isinstance(self.ws, ASGISocket):
            text = await self.ws.recv(timeout)
        else:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        message = json.loads(text)
        self.received.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    async def until(self, predicate, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    async def reply(self, code_or_type: str, timeout: float = 20) -> dict:
        """The next message that is an error with this code, or of this type."""
        return await self.until(lambda m: m["type"] == code_or_type or m.get("code") == code_or_type, timeout)

    async def join(self, name: str, seat: int | None = None) -> dict:
        message = {"type": "join", "name": name}
        if seat is not None:
            message["seat"] = seat
        await self.send(**message)
        welcome = await self.reply("welcome")
        self.token, self.seat = welcome["token"], welcome["seat"]
        return welcome

    async def resume(self, token: str) -> dict:
        await self.send(type="resume", token=token)
        welcome = await self.reply("welcome")
        self.token, self.seat = token, welcome["seat"]
        return welcome

    async def act(self, action: str, version: int, **extra) -> None:
        await self.send(type="action", token=self.token, version=version, action=action, **extra)

    async def close(self) -> None:
        await self.ws.close()


async def play_to_the_end(client: Client, rng: random.Random, timeout: float = 60) -> dict:
    """Play random legal moves for this client's seat on its turn until the game is over."""
    start = time.monotonic()
    deadline = start + timeout
    state = client.last_state
    acted_on = None
    sent = received = 0
    while True:
        if state is not None:
            view = state["view"]
            if view["awaiting"] == "game_over":
                return state
            if view["to_act"] == client.seat and state["legal"]:
                await client.act(rng.choice(state["legal"]), state["version"])
                acted_on = state
                sent += 1
        message = await client.recv(max(0.01, deadline - time.monotonic()))
        received += 1
        if message["type"] == "error" and message["code"] == "rate_limited":
            # Faster than a connection may send (two random players on a quick server): as a client should,
            # wait as told and send the dropped move again.
            await asyncio.sleep(message.get("retry_after") or 0.1)
            state = acted_on
            continue
        if message["type"] == "error":
            # A move sent just as another seat's ended the game (a bot's jump-in on the last card) is refused
            # not_playing, as a move sent just after any other seat's is refused stale_version.
            assert message["code"] in ("stale_version", "not_playing"), (message, f"sent {sent}, received {received} in "
                                                           f"{time.monotonic() - start:.1f} s", client.received[-6:])
        state = message if message["type"] == "state" else None


async def seated(server: Server, names=("Ann", "Bob"), start: bool = True, source: str | None = None,
                 **table) -> tuple[str, list[Client]]:
    """A new table with these people seated (seats 0, 1, ...), started when asked; each has seen the first state."""
    created = server.create(seats=table.pop("seats", len(names)), **table)
    code = (await created if inspect.isawaitable(created) else created)["code"]
    clients = []
    for name in names:
        client = await Client.connect(server, code, name, source)
        await client.join(name)
        clients.append(client)
    if start:
        await clients[0].send(type="start", token=clients[0].token)
        for client in clients:
            await client.reply("state")
    return code, clients


async def to_act(clients: list[Client]) -> Client:
    """The client whose seat must decide now, once every client has caught up with the latest state."""
    latest = max(c.last_state["version"] for c in clients)
    for client in clients:
        if client.last_state["version"] < latest:
            await client.until(lambda m: m["type"] == "state" and m["version"] >= latest)
    if clients[0].last_state["view"]["awaiting"] == "round_over":  # the next deal follows at once
        for client in clients:
            await client.until(lambda m: m["type"] == "state" and m["version"] > latest)
    return next(c for c in clients if c.last_state["view"]["to_act"] == c.seat)


# ---------------------------------------------------------------------------------------------- leak checks
CARD_CODES = frozenset(FACE_CODE)


def _cards_in(value, out: set) -> set:
    """Every card a message names: card codes, and the cards of actions in notation (never narrated text)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "text":
                _cards_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _cards_in(item, out)
    elif isinstance(value, str):
        if value in CARD_CODES:
            out.add(value)
        elif ": " in value and value.split(":")[0].isdigit():
            action = Action.parse(value)
            if action.card >= 0:
                out.add(FACE_CODE[action.card])
    return out


def _check(seat, message: dict, game: Game) -> None:
    assert message["view"] == game.view(seat).to_json()
    assert message["legal"] == ([str(a) for a in game.legal_actions(seat)] if seat is not None else [])
    for event in message["events"]:
        to, true = game.events[event["i"]]
        assert to is None or (seat is not None and seat in to), (seat, event)
        assert {k: v for k, v in event.items() if k not in ("i", "text")} == true
    known = _cards_in(game.events_for(seat), set())
    if seat is not None:
        known |= {FACE_CODE[f] for f in game.hand(seat)}
    assert _cards_in({k: v for k, v in message.items() if k != "commitments"}, set()) <= known
    current = message["commitments"][-1]
    assert current["round"] == game.round
    assert (current["seed"] is not None) == (game.awaiting in ("round_over", "game_over"))


def check_messages_against_record(clients: dict, number: int, stored: dict) -> int:
    """Replays a finished game (``/api/games/<id>``) and checks every `state` message of game ``number`` each
    client (by seat; None a spectator) received against the rules core at that version: exactly that seat's
    view and events, never a card it may not see. Returns how many messages were checked."""
    record = stored["record"]
    by_version: dict[int, list] = {}
    for seat, client in clients.items():
        for message in client.received:
            if message["type"] == "state" and message["game"] == number:
                by_version.setdefault(message["version"], []).append((seat, message))
            assert "stock_cards" not in message and "deck" not in json.dumps(message)
    version = min(by_version)
    rounds = record["rounds"]
    game = Game.new(record["players"], seed=rounds[0]["seed"], options=record["options"])
    assert commitments_of([r["seed"] for r in rounds], record["players"], record["options"]) == stored["commitments"]
    checked = 0
    for index, rnd in enumerate(rounds):
        if index:
            game.next_round(rnd["seed"])
            version += 1
        for position in range(len(rnd["actions"]) + 1):
            if position:
                game.apply(rnd["actions"][position - 1])
                version += 1
            for seat, message in by_version.pop(version, []):
                _check(seat, message, game)
                checked += 1
    assert not by_version  # every message matched a position of the game
    return checked
