"""Helpers for driving the terminal app headless with Textual's pilot."""

from __future__ import annotations

import random
import re
from pathlib import Path

from unokart.rules import FULL_DECK, Game, card_code
from unokart.bots import make_bot
from unokart.rules.cards import FACE_CODE
from unokart.tui.local import LocalTable


# Screen captures for people to look at (git-ignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "tui"
ARTIFACTS.mkdir(parents=True, exist_ok=True)  # a fresh clone has no artifacts folder


def screen_text(app) -> str:
    """The whole screen as plain text, line by line, as a person would read it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips(app.size))


def log_text(app) -> str:
    return "\n".join(strip.text for strip in app.query_one("#log").lines)


async def settle(pilot, table: LocalTable, limit: int = 2000) -> None:
    """Let keys already pressed take effect and the bots act, until only the human can move.

    Settled means: no bot has anything to do, for three pauses in a row at the same game version
    (a key's action can still be on its way through the app's message queue after press() returns).
    """
    quiet, version = 0, None
    for _ in range(limit):
        await pilot.pause()
        if table.next_bot() is None and table.game.version == version:
            quiet += 1
            if quiet == 3:
                return
        else:
            quiet, version = 0, table.game.version
    raise AssertionError(f"the bots never settled: {table.game!r}")


def deck_starting_with(top: list[str], seed: int = 7) -> list[str]:
    """A full 112-card deck whose first cards are ``top``; the rest shuffled from ``seed``."""
    rest = [card_code(f) for f in FULL_DECK]
    for code in top:
        rest.remove(code)
    random.Random(seed).shuffle(rest)
    return top + rest


def two_player_table(top: list[str], options: dict | None = None, seed: int = 3) -> LocalTable:
    """Ann (seat 0, dealt first) against the heuristic bot, no delay; dealer is seat 1."""
    game = Game.new(["Ann", "Luigi"], seed=seed, options={"hand_size": 3, **(options or {})},
                    dealer=1, deck=deck_starting_with(top))
    return LocalTable(game, {1: make_bot("heuristic")}, seat=0, delay=0, seed=seed)


class PredictableBot:
    """A real bot whose choice a test can foresee, whatever order the engine lists actions in.

    On its turn: play before challenge, colour, target, draw, pass, accept; the highest card first
    (wilds before colours), red for a wild; never UNO with a play (so it can be caught).
    Out of turn it lets every moment pass.
    """

    name = "predictable"
    PREFERENCE = ("play", "challenge", "color", "target", "swap", "draw", "pass", "accept")

    def choose(self, view, legal_actions, rng):
        if view.to_act != view.seat:
            return None
        candidates = [a for a in legal_actions if a.verb in self.PREFERENCE and not a.uno]
        return min(candidates, key=lambda a: (self.PREFERENCE.index(a.verb), -a.card, a.color, a.target))


def scripted_table(top: list[str], dealer: int, hand_size: int, options: dict | None = None,
                   names: tuple[str, str] = ("Ann", "Luigi")) -> LocalTable:
    """Ann (seat 0) against Luigi playing PredictableBot, on a stacked deck, no delay."""
    game = Game.new(list(names), seed=1, options={"hand_size": hand_size, **(options or {})},
                    dealer=dealer, deck=deck_starting_with(top))
    return LocalTable(game, {1: PredictableBot()}, seat=0, delay=0, seed=1)


async def press_for_turn(pilot, app) -> None:
    """One decision of a simple player, by keyboard: the first playable card, UNO said with the play."""
    legal = app.source.legal
    verbs = {a.verb for a in legal}
    if "color" in verbs:
        await pilot.press("r")
    elif "target" in verbs:
        await pilot.press("1")
    elif "challenge" in verbs or "accept" in verbs:
        await pilot.press("a")
    elif "play" in verbs:
        playable = [FACE_CODE[a.card] for a in legal if a.verb == "play"]
        index = next(i for i, code in enumerate(app.hand) if code in playable)
        if not app.uno_armed and any(a.uno for a in legal):
            await pilot.press("u")
        if app.view["awaiting"] == "play":  # walk to the card with the arrow key (a drawn card is preselected)
            await pilot.press(*["right"] * ((index - app.selected) % len(app.hand)))
        await pilot.press("enter")
        if app.mode == "wild_color":
            await pilot.press("r")
    elif "draw" in verbs:
        await pilot.press("d")
    elif "pass" in verbs:
        await pilot.press("p")


class Tmux:
    """A real terminal: a command in a detached tmux session of a given size, its screen captured as text."""

    def __init__(self, command: str, env: dict[str, str], width: int = 80, height: int = 24):
        import os
        import subprocess
        import uuid

        # a fresh name each time: id(self) is reused once an old Tmux is collected, and a new session
        # sent to a server still shutting down from kill-server fails with "server exited unexpectedly"
        self.socket = f"unokart-tui-{uuid.uuid4().hex}"
        self.width, self.height = width, height
        tests = str(Path(__file__).resolve().parents[1])  # scripts run in the terminal import helpers too
        pythonpath = os.pathsep.join(p for p in (tests, os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": pythonpath, **env}
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "play",
                        "-x", str(width), "-y", str(height), command], check=True, env=env)

    def _tmux(self, *args: str):
        import subprocess

        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "play").stdout

    def wait_for(self, *texts: str, tries: int = 150) -> str:
        """The screen once every one of ``texts`` is on it (compared with runs of spaces made one)."""
        import time

        for _ in range(tries):
            shown = self.screen()
            if all(flat(text) in flat(shown) for text in texts):
                time.sleep(0.3)  # a screen is drawn in pieces: take it once it holds still
                again = self.screen()
                if again == shown:
                    return shown
                continue
            time.sleep(0.2)
        raise AssertionError(f"{texts!r} never appeared on the screen:\n{shown}")

    def history(self) -> str:
        """Everything the pane has shown, the lines scrolled off the top included."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-t", "play").stdout

    def wait_without(self, text: str, tries: int = 150) -> str:
        """The screen once ``text`` has left it."""
        import time

        for _ in range(tries):
            shown = self.screen()
            if flat(text) not in flat(shown):
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} stayed on the screen:\n{shown}")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "play", *keys)

    def alive(self) -> bool:
        return self._tmux("has-session", "-t", "play").returncode == 0

    def wait_closed(self, tries: int = 50) -> bool:
        import time

        for _ in range(tries):
            if not self.alive():
                return True
            time.sleep(0.2)
        return False

    def close(self) -> None:
        self._tmux("kill-server")


def flat(text: str) -> str:
    """Text with every run of white space (line ends included) made one space; box lines and blocks dropped."""
    return " ".join(re.sub("[\u2500-\u259f]", " ", text).split())


# A card's notation code (NOTATION.md: "R0", "Y+2", "BS", "GR", "W+4", "WIB") standing as a word of its own.
# A rule id is no card: "R4.1" goes on with a dot, and the rules screen's headings are masked by the caller.
NOTATION_CODE = re.compile(r"(?<![\w+.])(?:[RYGB](?:[0-9]|\+2|S|R)|W\+4|WIB)(?![\w+]|\.\d)")


def notation_codes(screen: str) -> list[str]:
    """The card codes a screen shows (it should show none: cards are faces and words)."""
    return NOTATION_CODE.findall(screen)
