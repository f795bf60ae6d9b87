"""The browser tests' window sizes, finished games to open in them, and scripted tables."""

import asyncio
import json
import re
import threading
import time

import httpx

from unokart import Action, Game, Options
from unokart.server import messages
from unokart.server.store import StoredSeat
from unokart.server.tables import Seat, Table

from helpers.server import Client

VIEWPORTS = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
# The three sizes every language is checked at (issue 14): a phone, a tablet, a laptop.
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024}, "laptop": {"width": 1280, "height": 800}}


def finished_game(server) -> dict:
    """A game that three bots played to its end at ``server`` (GET /api/games/{id})."""
    server.create(seats=3, bots={"0": "easy", "1": "random", "2": "easy"}, options={"hand_size": 3, "target_score": 1}, start=True)
    deadline = time.monotonic() + 30
    while not (games := httpx.get(server.url + "/api/games").json()["games"]):
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    return httpx.get(f"{server.url}/api/games/{games[0]['id']}").json()


def finished_game_of(server, name: str) -> dict:
    """A game that a person called ``name`` played (the first legal move, always) with a bot to its end."""
    code = server.create(seats=2, bots={"1": "random"}, options={"hand_size": 2, "target_score": 1})["code"]
    token = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": name, "seat": 0}).json()["token"]

    async def play():
        client = await Client.connect(server, code)
        await client.resume(token)
        await client.send(type="start", token=token)
        while True:
            message = await client.recv(30)
            if message["type"] != "state":
                continue
            if message["view"]["awaiting"] == "game_over":
                break
            if message["legal"]:
                await client.act(message["legal"][0], message["version"])
        await client.ws.close()

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    failure: list[BaseException] = []
    worker = threading.Thread(target=lambda: _run(play(), failure))
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    games = httpx.get(server.url + "/api/games").json()["games"]
    game = next(g for g in games if g["code"] == code)
    return httpx.get(f"{server.url}/api/games/{game['id']}").json()


def _run(coroutine, failure: list) -> None:
    try:
        asyncio.run(coroutine)
    except BaseException as err:  # handed to the test's thread
        failure.append(err)


class ScriptedTable:
    """A table whose websocket the test plays (Playwright's route_web_socket) with the server's own messages.

    The rules core deals a seeded round; the messages a page receives are the server's own
    (messages.state_message and table_summary on a server Table), so the page reads exactly
    what it would from `unokart serve`. Pages' actions are applied to the game; the other seats
    (bots) are moved by ``advance``, one action at a time, a state broadcast after each. Nothing
    waits on a clock: a test moves the game, then waits for the page's DOM to show it.
    """

    def __init__(self, names, bots=None, seed=1, options=None, code="SCRIPT", dealer=None, turn_timer=None):
        bots = bots or {}
        self.options = Options.from_dict(options or {})
        seats = []
        for seat, name in enumerate(names):
            if seat in bots:
                seats.append(Seat(StoredSeat("bot", messages.bot_name(seat, bots[seat]), bots[seat])))
            else:
                seats.append(Seat(StoredSeat("human", name, None, f"hash{seat}")))
                seats[-1].connections.add(object())  # shown as connected
        self.table = Table(code, self.options, turn_timer, seats, 0.0)
        self.table.status, self.table.game_number, self.table.seeds = "playing", 1, [seed]
        self.table.game = Game.new(players=[s.name for s in seats], seed=seed, options=self.options, dealer=dealer)
        self.code = code
        self.routes = []  # (websocket route, seat, lang)

    @property
    def game(self):
        return self.table.game

    def state(self, seat, lang, start=0):
        return messages.state_message(self.table, seat, lang, start)

    def table_message(self, url="http://127.0.0.1"):
        return {"type": "table", "table": messages.table_summary(self.table, url)}

    def attach(self, page, seat):
        """Serve this table's websocket to ``page``, sat at ``seat`` (None: a spectator)."""
        def handler(ws):
            def on_message(text):
                message = json.loads(text)
                if message["type"] in ("resume", "watch", "sync"):
                    lang = message.get("lang", "en")
                    if message["type"] != "sync":
                        self.routes.append((ws, seat, lang))
                        ws.send(json.dumps({"type": "welcome", "code": self.code, "seat": seat, "name": None}))
                        ws.send(json.dumps(self.table_message()))
                    ws.send(json.dumps(self.state(seat, lang)))
                elif message["type"] == "action" and seat is not None:
                    self.apply(message["action"])
                elif message["type"] == "chat" and seat is not None:  # as the server relays it (its checks are its own tests')
                    self.send_all({"type": "chat", "seat": seat, "name": self.table.seats[seat].name, "text": message["text"], "at": 0})
                elif message["type"] == "react":
                    self.send_all({"type": "react", "seat": seat, "emoji": message["emoji"]})

            ws.on_message(on_message)

        page.route_web_socket(re.compile(rf"/ws/{self.code}$"), handler)

    def apply(self, text):
        """One action (notation), then the news to every page, as the server broadcasts it."""
        start = len(self.game.events)
        self.game.apply(Action.parse(text))
        self.table.version += 1
        self.broadcast(start)

    def send_all(self, message):
        for ws, _seat, _lang in self.routes:
            ws.send(json.dumps(message))

    def broadcast(self, start):
        for ws, seat, lang in self.routes:
            ws.send(json.dumps(self.state(seat, lang, start)))

    def advance(self, until, limit=2000, choose=None):
        """Move the game (the first legal action, or ``choose(legal)``'s) until ``until(game)`` holds."""
        for _ in range(limit):
            if until(self.game):
                return
            legal = self.game.legal_actions()
            if not legal:
                raise AssertionError(f"the scripted game is stuck at {self.game.awaiting}")
            action = choose(self.game, legal) if choose else None
            self.apply(str(action or legal[0]))
        raise AssertionError("the scripted game never reached the situation asked for")
