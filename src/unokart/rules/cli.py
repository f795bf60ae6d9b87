"""``unokart replay`` and ``unokart watch``: the rules core seen from the command line."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import typer

from ..i18n import t

CARD_STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue", "W": "bold magenta"}


def styled(code: str) -> str:
    return f"[{CARD_STYLE[code[0]]}]{code}[/]"


def load_record(path: Path) -> dict:
    """Read a record file, turning every way it can be broken into one clear sentence."""
    from .errors import RecordError

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"{path} is not UTF-8 text (byte {err.start}): a record is JSON") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None


def parse_options(pairs: list[str]) -> dict:
    """``--option stacking --option target_score=200`` into an options dict (SetupError when one is bad)."""
    from .options import options_from_text

    return options_from_text(pairs)


def print_events(console, game, start: int, seat: int | None = None) -> int:
    """Narrate the events since ``start`` (public ones, or those ``seat`` may see)."""
    from rich.markup import escape

    from ..narrate import describe_event

    events = game.events_for(seat, start) if start <= len(game.events) else []
    for event in events:
        line = describe_event(event, game.names)
        if line:
            line = escape(line)  # names are the players' own text, never markup
            style = "bold" if event["type"] in ("item", "round_end", "game_end", "challenge", "caught") else ""
            console.print(f"  [{style}]{line}[/]" if style else f"  {line}", highlight=False)
    return len(game.events)


def print_scores(console, game) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=t("core.scores"))
    for name in game.names:
        table.add_column(escape(name), justify="right")
    table.add_row(*(str(s) for s in game.scores))
    console.print(table)


def register(app: typer.Typer) -> None:
    @app.command()
    def replay(
        record: Path = typer.Argument(..., help="A game record (JSON, NOTATION.md)."),
        as_json: bool = typer.Option(False, "--json", help="Print the final full state as JSON."),
    ) -> None:
        """Replay a game record and print it readably (or its final state with --json)."""
        from rich.console import Console

        from .engine import Game
        from .errors import RecordError, UnoKartError

        console = Console(highlight=False)
        try:
            data = load_record(record)
            if as_json:
                game = Game.from_record(data)
                print(json.dumps(game.state(), indent=2))
                return
            game = _replay_narrated(console, data)
        except (RecordError, UnoKartError) as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2)
        if game.game_winner is not None:
            console.print(t("core.event.game_end", name=game.names[game.game_winner]), style="bold", markup=False)

    @app.command()
    def watch(
        players: int = typer.Option(4, min=2, max=10, help="Number of players (2 to 10)."),
        seed: int = typer.Option(1, help="Seed: the same seed plays the same game."),
        option: list[str] = typer.Option([], "--option", "-o", help="House rule, e.g. -o stacking -o target_score=200."),
        delay: float = typer.Option(0.0, help="Seconds to wait between actions."),
        rounds: int = typer.Option(0, help="Stop after this many rounds (0: play the whole game)."),
    ) -> None:
        """Watch a whole game between random-move players, turn by turn."""
        from rich.console import Console
        from rich.markup import escape

        from .engine import Game
        from .errors import UnoKartError

        console = Console(highlight=False)
        try:
            game = Game.new(players, seed=seed, options=parse_options(option))
        except UnoKartError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2)
        rng = random.Random(seed)
        seen = print_events(console, game, 0)
        while True:
            if game.awaiting == "game_over":
                break
            if game.awaiting == "round_over":
                print_scores(console, game)
                if rounds and game.round >= rounds:
                    return
                game.next_round()
                seen = print_events(console, game, 0)
                continue
            state = game.state()
            hand = " ".join(styled(c) for c in state["hands"][game.to_act])
            console.print(t("cli.watch_turn", name=escape(game.names[game.to_act]), hand=hand, top=styled(state["top"])), style="dim")
            game.apply(rng.choice(game.legal_actions()))
            seen = print_events(console, game, seen)
            if delay:
                time.sleep(delay)
        print_scores(console, game)
        console.print(t("core.event.game_end", name=game.names[game.game_winner]), style="bold", markup=False)


def _replay_narrated(console, data: dict):
    """Replay round by round, printing each action and what it caused."""
    from .engine import Game

    game = Game.from_record(data)  # validates everything first: errors come before any output
    replayed = Game.from_record({**data, "rounds": [{**data["rounds"][0], "actions": []}]})
    players = ", ".join(f"{seat} {name}" for seat, name in enumerate(game.names))
    console.print(t("cli.replay_players", players=players), markup=False)
    if game.options.to_dict():
        console.print(t("cli.replay_options", options=json.dumps(game.options.to_dict())), markup=False)
    seen = print_events(console, replayed, 0)
    for number, rnd in enumerate(data["rounds"]):
        if number:
            replayed.next_round(rnd.get("seed", 0), rnd.get("deck"))
            seen = print_events(console, replayed, 0)
        for index, text in enumerate(rnd.get("actions", [])):
            console.print(f"[dim]{index:>4}[/] {text}", highlight=False)
            replayed.apply(text)
            seen = print_events(console, replayed, seen)
        if replayed.awaiting in ("round_over", "game_over"):
            print_scores(console, replayed)
    return game
