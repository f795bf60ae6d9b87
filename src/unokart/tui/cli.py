"""``unokart play``: the terminal client (a local game against bots, or a seat at a server's table).

Every help text and error comes from the catalogue (tui.help.*, tui.error.*), in the language of
``--lang`` (anywhere on the line), else UNOKART_LANG, else the locale.
"""

from __future__ import annotations

import random
import re
import shlex
import sys
from typing import NoReturn, Optional

import typer

from ..i18n import t
from ..levels import ladder_text
from ..names import TextRefused, clean_name
from ..narrate import describe_refusal
from ..rules.errors import UnoKartError, visible
from ..rules import Game, Options
from ..rules.options import MAX_TARGET_SCORE, options_from_text
from .local import local_table
from .remote import DEFAULT_SERVER, JoinError, RemoteTable, SeatStore, config_dir, seats_file

# The play command's options, by parameter name: their help is tui.help.<name>.
_HELP_KEYS = ("players", "bots", "name", "seed", "option", "target", "delay", "join", "server", "profile", "lang")
_DEFAULTS = {"players": 4, "bots": "heuristic", "delay": 0.6, "server": DEFAULT_SERVER}


def _help(name: str, lang: str | None = None) -> str:
    if name == "help":  # the words every command's --help has
        return t("cli.help.help", lang)
    if name == "name":
        return t("tui.help.name", lang, default=t("tui.default_name", lang))
    if name == "profile":
        return t("tui.help.profile", lang, dir=config_dir())
    if name == "bots":  # the one ladder of levels, in the reader's words (unokart.levels)
        return t("tui.help.bots", lang, default=_DEFAULTS[name], ladder=ladder_text(lang))
    if name in _DEFAULTS:
        return t(f"tui.help.{name}", lang, default=_DEFAULTS[name])
    return t(f"tui.help.{name}", lang)


def _show_help(ctx: typer.Context, _param, value: bool) -> None:
    """--help (-h too); widths are measured as terminals draw them (the root command installed that)."""
    if value:
        typer.echo(ctx.get_help())
        raise typer.Exit()


def register(app: typer.Typer) -> None:
    panel = t("tui.help.options")  # defaults are said in the help texts, in the user's language

    @app.command(help=t("tui.help.play"), add_help_option=False)
    def play(
        # Read by the root command from anywhere on the line, before any help is made (cli_text.Group.main);
        # declared here so that play's help names it.
        _lang: Optional[str] = typer.Option(None, "--lang", help=_help("lang"), expose_value=False,
                                            rich_help_panel=panel),
        players: int = typer.Option(_DEFAULTS["players"], help=_help("players"), show_default=False,
                                    rich_help_panel=panel),
        bots: str = typer.Option(_DEFAULTS["bots"], help=_help("bots"), show_default=False, rich_help_panel=panel),
        name: Optional[str] = typer.Option(None, help=_help("name"), rich_help_panel=panel),
        seed: Optional[int] = typer.Option(None, help=_help("seed"), rich_help_panel=panel),
        option: list[str] = typer.Option([], "--option", "-o", help=_help("option"), show_default=False,
                                         rich_help_panel=panel),
        target: Optional[int] = typer.Option(None, help=_help("target"), rich_help_panel=panel),
        delay: float = typer.Option(_DEFAULTS["delay"], min=0.0, help=_help("delay"), show_default=False,
                                    rich_help_panel=panel),
        join: Optional[str] = typer.Option(None, help=_help("join"), rich_help_panel=panel),
        server: str = typer.Option(DEFAULT_SERVER, help=_help("server"), show_default=False, rich_help_panel=panel),
        profile: Optional[str] = typer.Option(None, help=_help("profile"), rich_help_panel=panel),
        _help_option: bool = typer.Option(False, "--help", "-h", help=_help("help"), callback=_show_help,
                                          is_eager=True, expose_value=False, rich_help_panel=panel),
    ) -> None:
        from .app import PlayApp  # Textual loads only when a game opens

        if name is not None:  # the server's rule for names (names.py), here too: checked before the app opens
            try:
                name = clean_name(name)
            except TextRefused as err:
                _refuse(err.message())
        if join:
            try:
                source = RemoteTable.from_address(join, name, server, SeatStore(seats_file(profile)))
                source.check()
            except JoinError as err:
                _refuse(str(err))
        else:
            try:
                Game.check_table(players, Options())  # the core's own refusal, its rule id in front as everywhere
            except UnoKartError as err:
                _refuse(_in_words(err))
            seed = random.randrange(2**31) if seed is None else seed
            try:
                options = options_from_text(option)
            except UnoKartError as err:
                _refuse(t("tui.error.bad_option", reason=_in_words(err)))
            if target is not None:
                options["target_score"] = target
            if options.get("target_score", 0) > MAX_TARGET_SCORE:  # the bound every face offers
                _refuse(t("tui.error.bad_option", reason=t("sim.error.target", target=options["target_score"],
                                                           limit=f"{MAX_TARGET_SCORE:,}")))
            try:
                source = local_table(players, bots, name or t("tui.default_name"), seed, options, delay)
            except UnoKartError as err:
                _refuse(t("tui.error.bad_option", reason=_in_words(err)))
            except (ValueError, RuntimeError, OSError, ImportError) as err:  # a bot level make_bot refuses
                _refuse(t("tui.error.bad_bot", reason=visible(str(err))))
        if not (sys.stdin.isatty() and sys.stdout.isatty()):  # else Textual waits on no one, drawing into a file
            _refuse(t("tui.error.no_terminal"))
        PlayApp(source).run()
        if not join:
            typer.echo(t("tui.seed_hint", seed=seed, command=same_game_command(seed, players, bots, option, target)))


def same_game_command(seed: int, players: int, bots: str, option: list[str], target: int | None) -> str:
    """The command that deals this game again: the seed with every choice that shapes the deal or the play."""
    words = ["unokart", "play", "--seed", str(seed)]
    if players != _DEFAULTS["players"]:
        words += ["--players", str(players)]
    if bots != _DEFAULTS["bots"]:
        words += ["--bots", bots]
    for text in option:
        words += ["-o", text]
    if target is not None:
        words += ["--target", str(target)]
    return shlex.join(words)


def _refuse(message: str) -> NoReturn:
    """One sentence on stderr, in the user's language, and exit code 2."""
    typer.echo(t("cli.error", message=message), err=True)
    raise typer.Exit(2)


def _in_words(err: Exception) -> str:
    """A setup refusal of the rules core in the user's language, its rule id in front (a command line's error)."""
    found = re.match(r"R\d+(?:\.\d+)* ", str(err))  # a SetupError names its rule only in its English sentence
    rule = getattr(err, "rule", "") or (found.group(0).strip() if found else "")
    text = describe_refusal(err)
    return f"{rule} {text}" if rule else text
