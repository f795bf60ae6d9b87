"""``unokart play``: the terminal client (a local game against bots, or a seat at a server's table)."""

from __future__ import annotations

import random
from typing import Optional

import typer

from ..i18n import t
from .remote import DEFAULT_SERVER


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        players: int = typer.Option(4, help="Number of players, you included (2 to 10)."),
        bots: str = typer.Option("heuristic", help="Bot levels for the other seats, cycled: e.g. heuristic,easy,ismcts:200."),
        name: str = typer.Option("Player", help="Your name at the table."),
        seed: Optional[int] = typer.Option(None, help="Seed: the same seed deals the same game (default: random)."),
        option: list[str] = typer.Option([], "--option", "-o", help="House rule, e.g. -o stacking -o hand_size=5."),
        target: Optional[int] = typer.Option(None, help="The score that wins the game (R11.2; default 500)."),
        delay: float = typer.Option(0.6, min=0.0, help="Seconds each bot waits before it acts."),
        join: Optional[str] = typer.Option(None, help="Join a table on a unokart server: its link, or its code with --server."),
        server: str = typer.Option(DEFAULT_SERVER, help="The server of a table given by its code."),
    ) -> None:
        """Play in the terminal: against bots here, or at a server's table with --join."""
        from ..rules import UnoKartError
        from ..rules.cli import parse_options
        from .app import PlayApp

        if join:
            from .remote import JoinError, RemoteTable

            try:
                source = RemoteTable.from_address(join, name, server)
                source.check()
            except JoinError as err:
                typer.echo(f"error: {err}", err=True)
                raise typer.Exit(2)
        else:
            from .local import local_table

            if not 2 <= players <= 10:
                typer.echo(f"error: {t('tui.error.players', players=players)}", err=True)
                raise typer.Exit(2)
            options = parse_options(option)
            if target is not None:
                options["target_score"] = target
            seed = random.randrange(2**31) if seed is None else seed
            try:
                source = local_table(players, bots, name, seed, options, delay)
            except UnoKartError as err:
                typer.echo(f"error: {t('tui.error.bad_option', reason=err)}", err=True)
                raise typer.Exit(2)
            except ValueError as err:
                typer.echo(f"error: {t('tui.error.bad_bot', reason=err)}", err=True)
                raise typer.Exit(2)
        PlayApp(source).run()
        if not join:
            typer.echo(t("tui.seed_hint", seed=seed))
