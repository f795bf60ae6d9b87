"""``unokart replay`` and ``unokart watch``: the rules core seen from the command line."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import typer

from ..bots.random_bot import RandomBot
from ..i18n import join_list, os_reason, t
from ..narrate import card_name, describe_event, describe_refusal
from ..rules.engine import Game
from ..rules.errors import RecordError, UnoKartError
from ..rules.options import options_from_text
from ..rules.records import MAX_NAME_CHARS, MAX_RECORD_BYTES, parse_record_text
from ..rules.referee import Referee
from ..rules.replaying import replay_steps
from ..rules.states import GAME_OVER, ROUND_OVER

CARD_STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue", "W": "bold magenta"}


def styled(code: str, text: str | None = None) -> str:
    """A card as a chip in its colour: its code, or ``text`` (its name in words)."""
    from rich.markup import escape

    return f"[{CARD_STYLE[code[0]]}]{escape(text or code)}[/]"


def load_record(path: Path) -> object:
    """Read a record file, turning every way it can be broken into one RecordError (one sentence).

    Never more than the size limit is read, so that neither a huge file nor an endless one
    (a device, a pipe) can hold the command; size and nesting are checked before parsing.
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        reason = os_reason(err)
        raise RecordError(f"cannot read {path}: {reason}", key="core.record.unreadable",
                          params={"path": str(path), "reason": reason}) from None
    return parse_record_text(data)


def in_words(err: Exception, names: "list[str] | None" = None) -> str:
    """An error of the rules core as one sentence in the user's language, its rule id in front."""
    if not isinstance(err, UnoKartError):
        return str(err)
    rule = getattr(err, "rule", "")
    text = describe_refusal(err, names=names)
    return f"{rule} {text}" if rule else text


def fail(message: str) -> None:
    """One line on stderr and exit code 2: how every command here refuses."""
    typer.echo(t("cli.error", message=message), err=True)
    raise typer.Exit(2)


def print_events(console, game, start: int, seat: int | None = None) -> int:
    """Narrate the events since ``start`` (public ones, or those ``seat`` may see)."""
    from rich.markup import escape

    events = game.events_for(seat, start) if start <= game.event_count() else []
    for event in events:
        line = describe_event(event, game.names)
        if line:
            line = escape(line)  # names are the players' own text, never markup
            style = "bold" if event["type"] in ("item", "round_end", "game_end", "challenge", "caught") else ""
            console.print(f"  [{style}]{line}[/]" if style else f"  {line}", highlight=False)
    return game.event_count()


def print_scores(console, game) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=t("core.scores"))
    for name in game.names:
        table.add_column(escape(name), justify="right")
    table.add_row(*(str(s) for s in game.scores))
    console.print(table)


def register(app: typer.Typer) -> None:
    @app.command(help=t("cli.help.replay"))
    def replay(
        record: Path = typer.Argument(..., help=t("cli.help.record"), show_default=False),
        as_json: bool = typer.Option(False, "--json", help=t("cli.help.replay_json")),
        notation: bool = typer.Option(False, "--notation", help=t("cli.help.replay_notation")),
    ) -> None:
        from rich.console import Console


        console = Console(highlight=False)
        data: object = None
        try:
            data = load_record(record)
            if isinstance(data, dict) and isinstance(data.get("record"), dict) and "commitments" in data:
                data = data["record"]  # a finished game as /api/games/<id> serves it (verify reads it too)
            if as_json:
                game = Game.from_record(data)
                print(json.dumps(game.state(), indent=2))
                return
            game = _replay_narrated(console, data, notation)
        except (RecordError, UnoKartError) as err:
            fail(in_words(err, _names(data)))

    @app.command(help=t("cli.help.watch"))
    def watch(
        players: int = typer.Option(4, min=2, max=10, help=t("cli.help.players")),
        seed: int = typer.Option(1, help=t("cli.help.seed")),
        option: list[str] = typer.Option([], "--option", "-o", help=t("cli.help.option"), show_default=False),
        delay: float = typer.Option(0.0, min=0.0, max=60.0, help=t("cli.help.delay")),
        rounds: int = typer.Option(0, min=0, help=t("cli.help.rounds")),
    ) -> None:
        from rich.console import Console
        from rich.markup import escape


        console = Console(highlight=False)
        try:
            game = Game.new(players, seed=seed, options=options_from_text(option))
        except UnoKartError as err:
            fail(in_words(err))
        # Random players, asked in the referee's order: they say UNO, catch and jump in as well as play.
        referee, player, rng = Referee(game), RandomBot(), random.Random(seed)
        seen = print_events(console, game, 0)
        while game.awaiting != GAME_OVER:
            if game.awaiting == ROUND_OVER:
                print_scores(console, game)
                if rounds and game.round >= rounds:
                    return
                referee.next_round()
                seen = print_events(console, game, 0)
                continue
            referee.decline_idle()
            seat = referee.seat
            if not referee.reacting:
                state = game.state()
                hand = " ".join(styled(c) for c in state["hands"][seat])
                top = styled(state["top"], card_name(state["top"]))
                turn = {"name": escape(game.names[seat]), "hand": hand, "top": top}
                if state["top"][0] == "W" and state["color"]:  # a wild's chosen colour is what a card must match
                    color = styled(state["color"], t(f"core.color.{state['color']}"))
                    console.print(t("cli.watch_turn_wild", **turn, color=color), style="dim")
                else:
                    console.print(t("cli.watch_turn", **turn), style="dim")
            action = player.choose(game.view(seat), referee.legal, rng)
            referee.answer(action)
            seen = print_events(console, game, seen)
            if delay and action is not None:
                time.sleep(delay)
        print_scores(console, game)  # the game_end event has named the winner


def house_rules_text(options: dict) -> str:
    """The rules that differ from the standard ones, in words as the browser's waiting room says them."""
    parts = []
    if "target_score" in options:
        parts.append(t("web.wait.target", n=options["target_score"]))
    if "hand_size" in options:
        parts.append(t("web.wait.hand", n=options["hand_size"]))
    parts += [t(f"web.rule.{name}") for name, on in options.items() if on is True]  # every switch is off by default
    return join_list(parts)


def _names(data: object) -> "list[str] | None":
    """A record's player names, for naming seats in an error, when they are names at all."""
    players = data.get("players") if isinstance(data, dict) else None
    if isinstance(players, list) and all(isinstance(p, str) and 0 < len(p) <= MAX_NAME_CHARS for p in players):
        return players
    return None


def _replay_narrated(console, data: dict, notation: bool = False):
    """Replay round by round, printing what each action caused in words (and, with ``notation``, the action)."""
    from rich.markup import escape

    steps = replay_steps(data)
    game, _ = next(steps)  # the record is checked whole here: errors come before any output
    players = ", ".join(f"{seat} {name}" for seat, name in enumerate(game.names))
    console.print(t("cli.replay_players", players=players), markup=False)
    if game.options.to_dict():
        console.print(t("cli.replay_options", options=house_rules_text(game.options.to_dict())), markup=False)
    seen, index = print_events(console, game, 0), 0
    for game, text in steps:
        if text is None:  # a new round dealt
            seen, index = print_events(console, game, 0), 0
        else:
            if notation:
                console.print(f"[dim]{index:>4}[/] {escape(text)}", highlight=False)
            seen, index = print_events(console, game, seen), index + 1
        if game.awaiting in (ROUND_OVER, GAME_OVER):
            print_scores(console, game)
    return game
