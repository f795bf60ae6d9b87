"""A seat at a table on a unokart server, over the websocket protocol of docs/PROTOCOL.md.

Seat tokens are kept in ``seats.json`` in the config folder: ``$UNOKART_CONFIG_DIR``, else
``$XDG_CONFIG_HOME/unokart``, else ``~/.config/unokart``; with a profile (``--profile NAME``
or ``$UNOKART_PROFILE``) in ``profiles/NAME/seats.json`` there. A token is kept per table
link and name, so a dropped connection, or a new ``unokart play --join`` with the same
``--name`` (or none), comes back to the same seat with ``resume``; another name takes a new seat.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from ..i18n import current_language, os_reason, t
from ..levels import bot_name
from ..rules import Action, NotationError
from ..rules.errors import printable
from ..rules.states import GAME_OVER
from .source import OnChange, TableError, TableSource

CODE_PATTERN = re.compile(r"^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$")
PROFILE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
LEGACY_NAME = "Player"  # the name of a seat kept by an earlier version without one
DEFAULT_SERVER = "http://127.0.0.1:8000"
ANSWER_TIMEOUT = 10.0  # seconds to wait for the server's answer to an action
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # then every 4 s, for as long as the app runs
# Join errors that no retry can fix: the player must choose another table or name.
STOP, REJOIN, SYNC = "stop", "rejoin", "sync"
FATAL_CODES = frozenset(("no_such_table", "table_full", "already_started", "bad_name", "seat_taken", "no_such_seat"))


class JoinError(ValueError):
    """A --join that cannot work: not a table code or link, no such table, no server there."""


def server_base(server: str) -> str:
    """``--server`` as an http(s) base address, checked before anything is sent to it."""
    try:
        parts = urlsplit(server.strip())
        _ = parts.port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise JoinError(t("tui.remote.bad_server", server=printable(server)))
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"  # a path: a server behind a proxy's prefix


def parse_address(text: str, server: str = DEFAULT_SERVER) -> tuple[str, str]:
    """``K7Q2XM`` or ``http://host:port/t/K7Q2XM`` (or ``ws://host:port/ws/K7Q2XM``) -> (http base, CODE)."""
    text = text.strip()
    if "://" not in text:
        base, code = server_base(server), text
    else:
        try:
            parts = urlsplit(text)
            _ = parts.port  # a port that is not a number raises here, not in the middle of a join
        except ValueError:
            raise JoinError(t("tui.remote.bad_address", address=printable(text))) from None
        scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme)
        segments = [s for s in parts.path.split("/") if s]
        if scheme is None or not parts.netloc or not segments:
            raise JoinError(t("tui.remote.bad_address", address=printable(text)))
        base, code = f"{scheme}://{parts.netloc}", segments[-1]
    if not CODE_PATTERN.match(code.upper()):
        raise JoinError(t("tui.remote.bad_code", code=printable(code)))
    return base, code.upper()


def config_dir() -> Path:
    """$UNOKART_CONFIG_DIR, else $XDG_CONFIG_HOME/unokart, else ~/.config/unokart."""
    if os.environ.get("UNOKART_CONFIG_DIR"):
        return Path(os.environ["UNOKART_CONFIG_DIR"]).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "unokart"


def seats_file(profile: str | None = None) -> Path:
    """Where seat tokens are kept: seats.json in the config folder, or a profile's own file."""
    profile = profile or os.environ.get("UNOKART_PROFILE") or None
    if profile is None:
        return config_dir() / "seats.json"
    if not PROFILE_PATTERN.match(profile):
        raise JoinError(t("tui.error.profile", name=repr(printable(profile))))
    return config_dir() / "profiles" / profile / "seats.json"


def shown_name(place: dict | None, name: str) -> str:
    """A seat's name as the player reads it: a bot's in the player's language ("பாட் 1 (நல்லது)"), not the
    server's English "Bot 1 (good)"; a person's as they chose it."""
    if place and place.get("kind") == "bot" and place.get("level"):
        return bot_name(place["seat"], place["level"])
    return name


def well_formed(view: dict, seat: int) -> bool:
    """A view this client can draw: a hand per player (the seat's own a list of cards, holding the drawn
    card if any; the others' sizes), a score per player, and a seat to act that is at the table or none."""
    players, hands, scores = view["players"], view["hands"], view["scores"]
    if not (isinstance(players, list) and isinstance(hands, list) and isinstance(scores, list)
            and len(hands) == len(players) == len(scores) and 0 <= seat < len(players)):
        return False
    own, drawn, to_act = hands[seat], view["drawn"], view["to_act"]
    return (isinstance(own, list) and all(isinstance(card, str) for card in own)
            and all(isinstance(size, int) for other, size in enumerate(hands) if other != seat)
            and all(isinstance(name, str) for name in players) and all(isinstance(score, int) for score in scores)
            and (drawn is None or drawn in own) and (to_act is None or (isinstance(to_act, int) and 0 <= to_act < len(players)))
            and isinstance(view["round"], int) and isinstance(view["awaiting"], str))


class SeatStore:
    """Seat tokens by table link, then by the name played under: ``{link: {name: {"token", "seat"}}}``.

    A broken file is treated as empty (and rewritten on the next join). The file of earlier
    versions (``{link: {"token", "seat", "name"}}``) is read as one seat under its name.
    """

    def __init__(self, path: Path | None = None):
        self.path = path or seats_file()
        self._unsaved: dict | None = None  # what the file should hold, when it could not be written
        self.problem: str | None = None  # why it could not

    def _load(self) -> dict:
        if self._unsaved is not None:
            return json.loads(json.dumps(self._unsaved))
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @staticmethod
    def _seats(data: dict, link: str) -> dict[str, dict]:
        entries = data.get(link)
        if not isinstance(entries, dict):
            return {}
        if isinstance(entries.get("token"), str):  # the one-seat-per-link file of earlier versions
            return {str(entries.get("name") or LEGACY_NAME): entries}
        return {name: entry for name, entry in entries.items()
                if isinstance(entry, dict) and isinstance(entry.get("token"), str)}

    def get(self, link: str, name: str | None = None) -> dict | None:
        """The seat kept for ``name`` at ``link``; without a name, the seat used last there."""
        seats = self._seats(self._load(), link)
        if name is None:
            return list(seats.values())[-1] if seats else None
        return seats.get(name)

    def name_of(self, link: str) -> str | None:
        """The name of the seat used last at ``link``."""
        seats = self._seats(self._load(), link)
        return list(seats)[-1] if seats else None

    def put(self, link: str, name: str, entry: dict | None) -> str | None:
        """Keep (or with None forget) a seat; the reason when the file could not be written, the seat then
        being kept for this run only."""
        data = self._load()
        seats = self._seats(data, link)
        seats.pop(name, None)
        if entry is not None:
            seats[name] = entry  # last in the file: the seat a --join without --name resumes
        if seats:
            data[link] = seats
        else:
            data.pop(link, None)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data, indent=2), encoding="utf-8")
            temporary.chmod(0o600)  # tokens are secrets
            temporary.replace(self.path)
        except OSError as err:
            self._unsaved, self.problem = data, os_reason(err)
            return self.problem
        self._unsaved = self.problem = None
        return None


class RemoteTable(TableSource):
    deals_itself = True

    def __init__(self, base: str, code: str, name: str | None, store: SeatStore | None = None):
        self.base, self.code = base, code
        self.link = f"{base}/t/{code}"
        self.ws_url = base.replace("http", "ws", 1) + f"/ws/{code}"
        self.store = store or SeatStore()
        # No --name: the seat used last at this table, if any. A name: that name's seat, or a new one.
        self.name = name or self.store.name_of(self.link) or t("tui.default_name")
        self.seat = (self.store.get(self.link, self.name) or {}).get("seat", 0)
        self.view = None
        self.legal = []
        self.table: dict | None = None  # the latest table summary
        self.version = 0
        self._whole_next = True  # the first state of a connection is whole: no version gap to judge
        self._seen: set[tuple] = set()  # (game, round, i) of events already passed on
        self._ws = None
        self._connected = False  # this connection has been welcomed or sent a state: retries start afresh
        self._ids = itertools.count(1)
        self._answers: dict[int, asyncio.Future] = {}
        self._sent_at: dict[int, int] = {}  # the version each awaited message was sent at
        self._on_change: OnChange | None = None
        self._task: asyncio.Task | None = None

    @classmethod
    def from_address(cls, address: str, name: str | None, server: str = DEFAULT_SERVER,
                     store: SeatStore | None = None) -> "RemoteTable":
        return cls(*parse_address(address, server), name, store)

    def check(self) -> None:
        """Before opening the app: the server answers and has this table (GET /api/tables/CODE)."""
        from http.client import HTTPException
        from urllib.error import HTTPError, URLError
        from urllib.request import urlopen

        try:
            with urlopen(f"{self.base}/api/tables/{self.code}", timeout=5):
                pass
        except HTTPError as err:
            if err.code == 404:
                raise JoinError(t("tui.remote.no_such_table", code=self.code, server=printable(self.base))) from None
            raise JoinError(t("tui.remote.unreachable", server=printable(self.base), reason=f"HTTP {err.code}")) from None
        except (URLError, OSError, ValueError, HTTPException) as err:  # a URL urllib cannot use (no scheme, InvalidURL)
            cause = getattr(err, "reason", err)
            reason = os_reason(cause) if isinstance(cause, OSError) else printable(str(cause))
            raise JoinError(t("tui.remote.unreachable", server=printable(self.base), reason=reason)) from None

    # ------------------------------------------------------------------ TableSource
    async def start(self, on_change: OnChange) -> None:
        self._on_change = on_change
        self._notify(t("tui.remote.connecting", link=self.link))
        self._task = asyncio.create_task(self._stay_connected())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
        if self._ws is not None:
            await self._ws.close()

    async def act(self, action: Action) -> None:
        await self._send({"type": "action", "version": self.version, "action": str(action)}, wait=True)

    async def next_round(self) -> None:
        """In the lobby: start the game; after a game: a rematch. Rounds are dealt by the server."""
        status = (self.table or {}).get("status")
        if self.view is None or status == "lobby":
            await self._send({"type": "start"})
        elif self.view["awaiting"] == GAME_OVER:
            await self._send({"type": "rematch"})
        else:
            raise TableError(t("tui.remote.server_deals"))

    async def fill_empty_seats(self, level: str) -> None:
        if self.view is not None or self.table is None or self.table["status"] != "lobby":
            raise TableError(t("tui.error.no_lobby"))
        for place in self.table["seats"]:
            if place["kind"] == "empty":
                await self._send({"type": "bot", "seat": place["seat"], "level": level})

    async def come_back(self) -> None:
        """Resume on a second, short connection: any message with the seat's token ends the away state."""
        import websockets

        saved = self.store.get(self.link, self.name)
        if not self.away or saved is None:
            raise TableError(t("tui.error.not_away"))
        try:
            async with websockets.connect(self.ws_url, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "resume", "token": saved["token"], "lang": current_language()}))
                await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
        except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
            raise TableError(t("tui.remote.offline")) from None

    @property
    def status_note(self) -> str | None:
        """While there is no game view: the lobby, one line per seat."""
        if self.view is not None or self.table is None:
            return None
        lines = [t("tui.remote.lobby", code=self.code, link=self.link)]
        for place in self.table["seats"]:
            name = shown_name(place, place["name"]) if place["kind"] != "empty" else t("tui.remote.empty_seat")
            lines.append(f"  {place['seat']} {name}" + (" " + t("tui.you") if place["seat"] == self.seat else ""))
        return "\n".join(lines)

    # ------------------------------------------------------------------ connection
    async def _stay_connected(self) -> None:
        import websockets

        attempt = 0
        while True:
            try:
                async with websockets.connect(self.ws_url, open_timeout=5) as ws:
                    self._ws = ws
                    self._whole_next = True
                    self._connected = False
                    try:
                        await self._hello(ws)
                    except websockets.exceptions.ConnectionClosed:
                        pass  # the server may have said why before closing (no_such_table): read it
                    async for frame in ws:
                        outcome = self._take(frame)
                        if self._connected:
                            attempt = 0
                        if outcome == STOP:
                            return
                        if outcome == REJOIN:
                            break
                        if outcome == SYNC:
                            await ws.send(json.dumps({"type": "sync"}))
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                pass
            finally:
                self._ws = None
                for answer in self._answers.values():
                    if not answer.done():
                        answer.set_exception(TableError(t("tui.remote.offline")))
                self._answers.clear()
            delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
            attempt += 1
            self._notify(t("tui.remote.reconnecting", seconds=delay))
            await asyncio.sleep(delay)

    async def _hello(self, ws) -> None:
        saved = self.store.get(self.link, self.name)
        if saved:
            await ws.send(json.dumps({"type": "resume", "token": saved["token"], "lang": current_language()}))
        else:
            await ws.send(json.dumps({"type": "join", "name": self.name, "lang": current_language()}))

    async def _send(self, message: dict, wait: bool = False) -> None:
        """Send a message carrying the seat token; with ``wait``, until the server answers it (state or error).

        Without ``wait`` (start, rematch: answered by a broadcast) a refusal still arrives, as a notice.
        """
        import websockets

        saved = self.store.get(self.link, self.name)
        if self._ws is None or saved is None:
            raise TableError(t("tui.remote.offline"))
        number = next(self._ids)
        answer = asyncio.get_running_loop().create_future()
        if wait:
            self._answers[number] = answer
            self._sent_at[number] = self.version
        try:
            await self._ws.send(json.dumps({**message, "token": saved["token"], "id": number}))
            if wait:
                await asyncio.wait_for(answer, ANSWER_TIMEOUT)
        except asyncio.TimeoutError:
            try:  # the answer may have been lost on its way: ask for the table as it is now
                await self._ws.send(json.dumps({"type": "sync"}))
            except (AttributeError, websockets.exceptions.WebSocketException):
                pass
            raise TableError(t("tui.remote.no_answer")) from None
        except websockets.exceptions.ConnectionClosed:
            raise TableError(t("tui.remote.offline")) from None
        finally:
            self._answers.pop(number, None)
            self._sent_at.pop(number, None)

    def _answer(self, message: dict, error: str | None = None, rule: str | None = None) -> bool:
        answer = self._answers.get(message.get("re"))
        if answer is None or answer.done():
            return False
        if error is None:
            answer.set_result(message)
        else:
            answer.set_exception(TableError(error, rule))
        return True

    def _settle_lost_answers(self, before: int, message: dict) -> None:
        """States between ``before`` and this one were lost: an action sent at a version whose next state
        was among them may have been answered by that lost state, so it is settled by this newer one (the
        whole table as it is now) rather than left to time out as if the server never answered."""
        for number, sent_at in self._sent_at.items():
            if before <= sent_at < message["version"] - 1:
                self._answer({**message, "re": number})

    def _take(self, frame: str | bytes) -> str | None:
        """One frame from the server; a malformed one is reported and skipped (the protocol may grow)."""
        try:
            return self._handle(json.loads(frame))
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            self._notify(t("tui.remote.bad_message"))
            return None

    def _handle(self, message: dict) -> str | None:
        """Take one server message; STOP when no retry can help, REJOIN to take a seat afresh."""
        kind = message.get("type")
        if kind == "welcome":
            self.seat = message["seat"]
            self._connected = True
            if message.get("token"):
                self.store.put(self.link, self.name, {"token": message["token"], "seat": self.seat,
                                                      "name": message.get("name")})
            problem = self.store.problem
            kept = (t("tui.remote.seat_kept", path=self.store.path) if problem is None
                    else t("tui.remote.seat_not_saved", path=self.store.path, reason=printable(problem)))
            self._notify(t("tui.remote.seated", code=self.code, seat=self.seat) + " " + kept)
        elif kind == "table":
            self.table = message["table"]
            self.target_score = self.table["options"]["target_score"]
            self._take_seats(self.table["seats"])
            self._notify()
        elif kind == "state":
            before = self.version
            outcome = self._take_state(message)
            self._connected = True
            if not self._answer(message) and outcome == SYNC:
                self._settle_lost_answers(before, message)
            return outcome
        elif kind == "error":
            return self._take_error(message)
        return None

    def _take_seats(self, seats: list[dict]) -> None:
        self.away = any(place["seat"] == self.seat and place["away"] for place in seats)

    def _take_state(self, message: dict) -> str | None:
        """Take a state; SYNC when versions jumped (they grow by one): a state never reached us. A state
        whose view this client could not draw is refused whole (a ValueError: reported, the old one kept)."""
        if not isinstance(message["version"], int) or not well_formed(message["view"], self.seat):
            raise ValueError("a state this client cannot draw")
        missed = not self._whole_next and message["version"] > self.version + 1
        self._whole_next = False
        self.version = message["version"]
        deadline = message.get("deadline")
        self.deadline = deadline["at"] / 1000 if deadline and deadline["seat"] == self.seat else None
        self._take_seats(message.get("seats") or [])
        self.view = message["view"]
        seats = {place["seat"]: place for place in message.get("seats") or (self.table or {}).get("seats", [])}
        self.view["players"] = [shown_name(seats.get(seat), name) for seat, name in enumerate(self.view["players"])]
        try:
            self.legal = [Action.parse(text) for text in message["legal"]]
        except NotationError:
            self.legal = []
        game, rnd = message.get("game"), self.view["round"]
        fresh = []
        for event in message["events"]:
            key = (game, rnd, event.get("i"))
            if key not in self._seen:
                self._seen.add(key)
                fresh.append(event)
        if self._on_change:
            self._on_change(fresh, None)
        return SYNC if missed else None

    def _take_error(self, message: dict) -> str | None:
        code, text = message.get("code"), message.get("message") or message.get("code")
        # An action refused because the table moved on: our answer may have been lost, so fetch the table anew.
        behind = code in ("stale_version", "duplicate") and isinstance(message.get("version"), int) \
            and message["version"] > self.version
        if self._answer(message, text, message.get("rule")):
            if behind:  # answers come in the order sent: an earlier action still waiting lost its answer
                for number in [n for n in self._answers if n < message["re"]]:
                    self._answer({"re": number})
                return SYNC
            return None
        self._notify(text)
        if code == "bad_token":  # the seat was given up (left the lobby): join afresh on the next connection
            self.store.put(self.link, self.name, None)
            return REJOIN
        return STOP if code in FATAL_CODES else None

    def _notify(self, notice: str | None = None) -> None:
        if self._on_change:
            self._on_change([], notice)
