"""Every screen of scripted games, in a real 80x24 terminal (tmux), in all five languages (issue 22).

The table mid-game, the challenge, the rules (top and items), the question before leaving, a refused
card with its rule, a drawn card, the Wild Draw Four's colour picker, a round's summary and the next
round, each item's effect (Mushroom, Bob-omb's colour, Green Shell's target, Banana Peel), and the
game's summary. Every capture is saved in artifacts/tui/walk/ for people to look at, and asserted:
- no card's notation code ("Y+2", "W+4", "R0"): cards are faces and words;
- no English word on a non-English screen, but the names, UNO and the keys' own names;
- nothing past the edge: every row at most 79 cells (the last column free), no row starting with a
  vowel sign or virama (a cluster split), and the text each step waits for is on the screen whole.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import unicodedata
from pathlib import Path

import pytest

from unokart.i18n import t
from unokart.narrate import card_name
from unokart.tui.cells import cell_width

from helpers.tui import ARTIFACTS, Tmux, notation_codes

APP = f"{sys.executable} {Path(__file__).with_name('tmux_app.py')}"
UNOKART = str(Path(sys.executable).with_name("unokart"))
WALK = ARTIFACTS / "walk"
# Latin words a non-English screen may hold: the players' names, UNO, and keys named by their keycaps.
NOT_ENGLISH = {"Ann", "Luigi", "UNO", "Enter", "Esc", "PgUp", "PgDn"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
LINK_OR_PATH = re.compile(r"\S*[/:]\S*/\S*")
PATIENCE = 600  # tries of 0.2 s: a machine running other tests may take a minute to start a terminal app
RULE_HEADING = re.compile(r"(?<!\S)R\d{1,2}(?= )")  # the rules screen's "R4 ...": a rule's id, not a card


class Walk:
    """One language's captures, each checked as it is taken."""

    def __init__(self, lang: str):
        self.lang, self.count = lang, 0
        self.codes: set[str] = set()  # tables' codes ("K7Q2XM"): letters, but no words
        WALK.mkdir(parents=True, exist_ok=True)

    def t(self, key: str, **fields) -> str:
        return t(key, self.lang, **fields)

    def take(self, term: Tmux, step: str, *keys: str, rules: bool = False) -> str:
        """The screen once every catalogue text ``keys`` names (``key`` or ``(key, fields)``) is on it, whole."""
        texts = [self.t(k) if isinstance(k, str) else self.t(k[0], **k[1]) for k in keys]
        screen = term.wait_for(*texts, tries=PATIENCE)
        self.count += 1
        (WALK / f"{self.lang}_{self.count:02d}_{step}.txt").write_text(screen, encoding="utf-8")
        self.check(step, screen, rules)
        return screen

    def check(self, step: str, screen: str, rules: bool) -> None:
        shown = RULE_HEADING.sub("", screen) if rules else screen
        assert notation_codes(shown) == [], (step, notation_codes(shown), screen)
        if self.lang != "en":
            words = LINK_OR_PATH.sub(" ", screen)  # a table's link and the seats file's path are no words
            english = [w for w in LATIN_WORD.findall(words) if w not in NOT_ENGLISH | self.codes]
            assert english == [], (step, english, screen)
        for row in screen.splitlines():
            text = row.rstrip()
            if all("\u2500" <= ch <= "\u259f" or ch == " " for ch in text):
                continue  # a rule line or a modal's border: drawn to the edge on purpose
            assert cell_width(text) <= 79, (step, "past the edge", row)
            first = text.strip()[:1]
            assert not first or unicodedata.category(first) not in ("Mn", "Mc"), (step, "split cluster", row)


def play(scenario: str, lang: str) -> Tmux:
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    return Tmux(f"{APP} {scenario}", {"UNOKART_LANG": lang})


def walk_challenge(walk: Walk) -> None:
    term = play("challenge", walk.lang)
    try:
        walk.take(term, "table_challenge", ("tui.prompt.challenge", {"count": 4}),
                  ("tui.prompt.can_catch", {"names": "1 Luigi"}))
        term.keys("?")
        walk.take(term, "rules_top", "rules.title", "rules.intro", rules=True)
        term.keys("End")
        walk.take(term, "rules_items", "rules.item.bobomb", rules=True)
        term.keys("Escape")
        term.wait_for(walk.t("tui.prompt.challenge", count=4), tries=PATIENCE)
        term.keys("q")
        walk.take(term, "quit", "tui.quit.confirm")
        term.keys("x")
        term.wait_without(walk.t("tui.quit.confirm"), tries=PATIENCE)
        term.keys("c")
        walk.take(term, "challenge_won", "tui.prompt.play")
    finally:
        term.close()


def walk_refusal(walk: Walk) -> None:
    term = play("refusal", walk.lang)
    try:
        walk.take(term, "table_nothing_matches", "tui.prompt.play", ("tui.cards", {"count": 2}))
        term.keys("1", "Enter")
        walk.take(term, "refused", ("tui.rule_help", {"rule": "R4.1"}))
        term.keys("d")
        walk.take(term, "drawn", ("tui.prompt.drawn", {"card": card_name("G5", walk.lang)}))
    finally:
        term.close()


def walk_wild(walk: Walk) -> None:
    term = play("wild", walk.lang)
    try:
        term.wait_for(walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("u", "Enter")
        walk.take(term, "wild_colour_picker", "tui.prompt.wild_color")
        term.keys("g")
        walk.take(term, "challenge_lost", ("core.event.uno", {"name": "Ann"}), "tui.prompt.play")
        term.keys("Enter")
        walk.take(term, "round_summary", "tui.prompt.round_over",
                  ("tui.summary.round", {"round": 1, "name": "Ann", "count": 106}))
        term.keys("n")
        walk.take(term, "round_two", ("core.event.round_start", {"round": 2, "name": "Ann"}))
    finally:
        term.close()


def walk_items(walk: Walk) -> None:
    term = play("items", walk.lang)
    try:
        term.wait_for(walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("Enter")
        walk.take(term, "item_mushroom", ("core.event.item.mushroom", {"name": "Ann", "card": card_name("R9", walk.lang)}))
        term.keys("Enter")
        walk.take(term, "item_bobomb_colour", "tui.prompt.color")
        term.keys("b")
        luigi_played = walk.t("core.event.play", name="Luigi", card=card_name("B2", walk.lang))
        term.wait_for(luigi_played, walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("4", "Enter")  # the hand B1 B5 B7 WIB WIB: the fourth card is a box
        walk.take(term, "item_green_shell_target", ("tui.prompt.target", {"seats": "1 Luigi"}))
        term.keys("1")
        luigi_played = walk.t("core.event.play", name="Luigi", card=card_name("G8", walk.lang))
        term.wait_for(luigi_played, walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("Enter")
        walk.take(term, "item_banana", ("core.event.item.banana", {"name": "Ann", "card": card_name("Y9", walk.lang),
                                                                   "victim": "Luigi"}))
    finally:
        term.close()


def walk_lobby(walk: Walk, tmp_path: Path) -> None:
    """A server's table joined with no name: the lobby, a bot seated, then the table."""
    from helpers.server import Server
    from unokart.server.messages import bot_name

    server = Server(tmp_path / f"{walk.lang}.sqlite")
    try:
        created = server.create(seats=2)
        code = created["link"].rsplit("/", 1)[1]
        walk.codes.update(LATIN_WORD.findall(code))
        # A short config folder, as a person's (~/.config/unokart): pytest's own would be folded mid-word.
        config = tempfile.mkdtemp(prefix="uk-")
        term = Tmux(f"{UNOKART} play --join {created['link']}", {"UNOKART_LANG": walk.lang, "UNOKART_CONFIG_DIR": config})
        try:
            walk.take(term, "lobby", ("tui.remote.lobby", {"code": code, "link": created["link"]}),
                      ("tui.prompt.lobby", {"level": walk.t("web.level.heuristic")}))
            term.keys("s")
            walk.take(term, "lobby_bot_seated", ("tui.remote.lobby", {"code": code, "link": created["link"]}))
            term.wait_for(f"1 {bot_name(1, 'heuristic', walk.lang)}", tries=PATIENCE)
            term.keys("n")
            walk.take(term, "server_table", "tui.top", "tui.key.rules")
        finally:
            term.close()
            shutil.rmtree(config, ignore_errors=True)
    finally:
        server.kill()


def walk_last_cards(walk: Walk) -> None:
    term = play("last_cards", walk.lang)
    try:
        term.wait_for(walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("u", "Enter")
        term.wait_for(walk.t("core.event.uno", name="Ann"), walk.t("tui.prompt.play"), tries=PATIENCE)
        term.keys("Enter")
        walk.take(term, "game_summary", ("tui.summary.final", {"name": "Ann", "count": 9}), "tui.prompt.game_over")
    finally:
        term.close()


@pytest.mark.parametrize("lang", ["en", "ta", "kn", "te", "sd"])
def test_every_screen_in_80x24_without_codes_english_or_overflow(lang, tmp_path):
    walk = Walk(lang)
    walk_lobby(walk, tmp_path)
    for part in (walk_challenge, walk_refusal, walk_wild, walk_items, walk_last_cards):
        part(walk)
    assert walk.count == 20
