"""``unokart simulate``: a tournament between bots, as a table, JSON or a plot."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NoReturn, Optional

import typer

from ..bots import make_bot
from ..i18n import os_reason, t
from ..levels import LADDER, BotLevel, ladder_text
from ..narrate import describe_refusal
from ..rules import Game
from ..rules.errors import UnoKartError
from ..rules.options import MAX_TARGET_SCORE, options_from_text
from ..rules.records import MAX_NAME_CHARS
from .distributed import RayUnavailable, connect, run_ray
from .match import MAX_DECISIONS
from .plot import bot_label, draw_plot, plot_problem
from .rr_cli import MAX_LEVELS, report_saved, round_robin_command
from .tournament import Setup, check_setup, iter_names, make_lineup, rounded_games, run, summarize, whole_blocks


MAX_GAMES = 10_000_000  # about a day at 100 games a second on one core; a bigger number is a slip of the finger
MAX_JOBS = 256  # processes (or a local Ray cluster's CPUs); more than a big machine's cores only costs memory


def register(app: typer.Typer) -> None:
    @app.command(help=t("sim.help.simulate"))
    def simulate(
        bots: Optional[str] = typer.Option(None, "--bots", "-b", help=t("sim.help.bots", ladder=ladder_text()),
                                            show_default=False),
        games: int = typer.Option(100, "--games", "-n", help=t("sim.help.games")),
        seed: int = typer.Option(1, help=t("sim.help.seed")),
        jobs: int = typer.Option(1, "--jobs", "-j", help=t("sim.help.jobs")),
        players: Optional[int] = typer.Option(None, "--players", "-p", help=t("sim.help.players")),
        option: list[str] = typer.Option([], "--option", "-o", help=t("sim.help.option")),
        target: Optional[int] = typer.Option(None, "--target", help=t("sim.help.target")),
        as_json: bool = typer.Option(False, "--json", help=t("sim.help.json")),
        plot: Optional[Path] = typer.Option(None, "--plot", help=t("sim.help.plot")),
        records: Optional[Path] = typer.Option(None, "--records", help=t("sim.help.records")),
        ray: bool = typer.Option(False, "--ray", help=t("sim.help.ray")),
        ray_address: Optional[str] = typer.Option(None, "--ray-address", help=t("sim.help.ray_address")),
        max_decisions: int = typer.Option(MAX_DECISIONS, "--max-decisions", min=1, max=10_000_000,
                                          help=t("sim.help.max_decisions", default=f"{MAX_DECISIONS:,}"), show_default=False),
        round_robin: bool = typer.Option(False, "--round-robin", help=t("sim.help.round_robin")),
        tables: str = typer.Option("2,4", "--table-sizes", help=t("sim.help.tables")),
        save: Optional[Path] = typer.Option(None, "--results", help=t("sim.help.save")),
        saved: Optional[Path] = typer.Option(None, "--from-results", help=t("sim.help.from_results")),
    ) -> None:
        if saved is not None:  # a round robin played before: its tables and plot, no game played
            report_saved(saved, plot, as_json, _fail)
            return
        if round_robin:
            names = list(iter_names(bots if bots is not None else ",".join(LADDER)))
            if not 2 <= len(set(names)) == len(names) <= MAX_LEVELS:
                _fail(t("sim.error.round_robin_levels", limit=MAX_LEVELS))
            options = _checked_setup(names, games, jobs, 2, option, target, None, plot)
            round_robin_command(names, tables, games, seed, options, save, plot, as_json, max_decisions, _fail)
            return
        names = list(iter_names(bots if bots is not None else "heuristic,random"))
        options = _checked_setup(names, games, jobs, players, option, target, records, plot)
        setup = Setup(make_lineup(names, players), options, seed, str(records) if records is not None else None,
                      max_decisions)
        played_games = rounded_games(games, setup.players)
        if played_games != games:
            typer.echo(t("sim.rounded", count=games, played=played_games), err=True)
        summary = _run(setup, played_games, jobs, ray or bool(ray_address), ray_address)
        if summary is None:
            raise typer.Exit(130)
        _report(summary, as_json, plot, records)


def _fail(message: str) -> NoReturn:
    typer.echo(t("sim.error", message=message), err=True)
    raise typer.Exit(2)


def _checked_setup(names: list[str], games: int, jobs: int, players: int | None, option: list[str],
                   target: int | None, records: Path | None, plot: Path | None) -> dict:
    """The command's arguments checked before any game, each mistake said in one sentence; the options."""
    if not names:
        _fail(t("sim.error.no_bots"))
    if not 1 <= games <= MAX_GAMES:
        _fail(t("sim.error.games", games=games, limit=f"{MAX_GAMES:,}"))
    if not 1 <= jobs <= MAX_JOBS:  # each job is a process forked at once: 100,000 would swamp the machine
        _fail(t("sim.error.jobs", jobs=jobs, limit=MAX_JOBS))
    for name in names:  # a level that is none, or a model file that is not there, is said before any bot is built
        try:
            level = BotLevel.parse(name)
        except ValueError as err:
            _fail(str(err))
        # policy:NAME is a shipped or $UNOKART_MODELS policy (make_bot names a missing one); else a file
        if level.kind == "policy" and not level.named_policy and not Path(level.policy).is_file():
            _fail(t("sim.error.no_policy", path=level.policy))
    if records is not None:
        too_long = [name for name in names if len(name) > MAX_NAME_CHARS]
        if too_long:  # a record names each seat by its bot, and a record's names are short
            _fail(t("sim.error.records_name", name=too_long[0], limit=MAX_NAME_CHARS))
    if players is None and len(names) == 1:  # not R2.1's "not 1": the user listed one bot and gave no table size
        _fail(t("sim.error.one_bot", bot=bot_label(names[0])))
    try:
        options = options_from_text(option)
        if target is not None:
            options["target_score"] = target
        for name in names:  # a bot level that is not one is said first
            make_bot(name)
        # Then the table (R2.1 players, R3.2 the hands fit the deck), in the user's language.
        Game.new(players or len(names), seed=0, options=options)
        check_setup(names, players, options)
    except UnoKartError as err:  # in the user's language, with the rule id where one applies
        rule = getattr(err, "rule", "")
        _fail(f"{rule} {describe_refusal(err)}" if rule else describe_refusal(err))
    except (ValueError, RuntimeError, OSError, ImportError) as err:  # a bot level make_bot refuses
        _fail(str(err))
    _check_target(options)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            _fail(t("sim.error.records", path=records, reason=os_reason(err)))
    problem = plot_problem(plot) if plot is not None else None
    if problem:  # say so before the games, not after
        _fail(t("sim.error.plot", path=plot, reason=problem))
    return options


def _check_target(options: dict) -> None:
    """The target score within the server's bound (R11.2 sets no upper one): a game to more would hardly end."""
    if options.get("target_score", 0) > MAX_TARGET_SCORE:
        _fail(t("sim.error.target", target=options["target_score"], limit=f"{MAX_TARGET_SCORE:,}"))


def _run(setup: Setup, games: int, jobs: int, use_ray: bool, ray_address: str | None) -> dict | None:
    """The games, on a Ray cluster when asked (reached before the first game, shut down after the last)."""
    started_ray = False
    if use_ray:
        try:  # before the first game: a cluster that cannot be reached is said at once
            started_ray = connect(ray_address, jobs if jobs > 1 else None)
        except RayUnavailable as err:
            _fail(t("sim.error.ray_missing") if err.reason == "not_installed" else t(
                "sim.error.ray_connect", address=ray_address or os.environ.get("RAY_ADDRESS") or t("sim.ray.local"),
                reason=err.reason))
    try:
        return _play(setup, games, jobs, use_ray=use_ray)
    finally:
        if started_ray:
            import ray as ray_module  # the library itself, installed only with the "ray" extra

            ray_module.shutdown()


def _report(summary: dict, as_json: bool, plot: Path | None, records: Path | None) -> None:
    if as_json:
        print(json.dumps(summary, indent=2))
    else:
        _print_table(summary)
    if summary.get("abandoned"):  # never silently dropped: how many games a looping round ended
        # (after JSON on stderr: stdout stays one JSON document, whose "abandoned" counts them too)
        typer.echo(t("sim.abandoned", count=summary["abandoned"], games=summary["games"],
                     cap=f"{summary['max_decisions']:,}"), err=as_json)
    if plot is not None:
        try:
            draw_plot(summary, plot)
        except OSError as err:
            _fail(t("sim.error.plot", path=plot, reason=os_reason(err)))
        typer.echo(t("sim.plot.saved", path=plot), err=True)
    if records is not None:
        typer.echo(t("sim.records.saved", path=records), err=True)


def _play(setup, games: int, jobs: int, use_ray: bool = False) -> dict | None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed or 0.0
            return Text(t("sim.speed", speed=f"{speed:,.1f}"))

    with Progress(TextColumn(t("sim.progress")), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task("games", total=games)
        if use_ray:
            played = run_ray(setup, games, on_game=lambda count: progress.advance(task, count))
        else:
            played = run(setup, games, jobs, on_game=lambda count: progress.advance(task, count))
    if len(played) < games:  # interrupted: sum up the blocks that finished
        played = whole_blocks(played, setup.players)
        typer.echo(t("sim.interrupted", games=len(played)), err=True)
        if not played:
            return None
    return summarize(setup, played)


TABLE_WIDTH = 80  # the table fits a terminal of 80 columns; --json has everything in full
BOT_CHARS = 20  # longer bot names ("very good (careful)" fits) are numbered in the table and written out below it


def _print_table(summary: dict) -> None:
    for line in table_lines(summary):
        typer.echo(line)


def table_lines(summary: dict, width: int = TABLE_WIDTH) -> list[str]:
    """The summary as lines of at most ``width`` columns: headers wrap, numbers never do. Bots are named as
    players see their levels; when those names would break a header inside a word, they are numbered and
    written out below."""
    lines = _table_lines(summary, width, BOT_CHARS)
    return lines if lines is not None else _table_lines(summary, width, 0) or []


def _table_lines(summary: dict, width: int, bot_chars: int) -> list[str] | None:
    from rich.cells import cell_len

    keys = ("bot", "seats", "win", "ci", "rounds", "points", "ms", "rating")
    legend = []
    rows = []
    for number, bot in enumerate(summary["bots"], 1):
        lo, hi = bot["ci95"]
        name = bot_label(bot["name"])  # as players see the level, with what --bots calls it
        if cell_len(name) > bot_chars:
            legend.append(t("sim.legend", label=f"#{number}", name=name))
            name = f"#{number}"
        ms = bot["decision_ms"]
        rows.append([name, str(bot["seats"]), f"{bot['win_rate']:.1%}", f"{100 * lo:.2f}-{100 * hi:.2f}",
                     f"{bot['round_win_rate']:.1%}", f"{bot['points_per_round']:.1f}",
                     f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}",
                     f"{bot['rating']['ordinal']:.1f}"])
    headers = [t(f"sim.col.{key}") for key in keys]
    data = [max(cell_len(row[i]) for row in rows) for i in range(len(keys))]
    words = [max(d, max(cell_len(piece) for word in header.split() for piece in re.split(r"(?<=[/-])", word)))
             for d, header in zip(data, headers)]  # a header may wrap at spaces and after "/" or "-"
    widths = [max(d, cell_len(header)) for d, header in zip(data, headers)]
    gap = 2
    if bot_chars and sum(words) + gap * (len(words) - 1) > width:
        return None  # named bots leave too little room: number them
    # Narrow the headers until the table fits: first by wrapping them at spaces, then inside words.
    for floor in (words, data):
        while sum(widths) + gap * (len(widths) - 1) > width:
            slack = [w - f for w, f in zip(widths, floor)]
            widest = max(range(len(widths)), key=lambda i: slack[i])
            if slack[widest] <= 0:
                break  # the numbers are never cut
            widths[widest] -= 1
    wrapped = [_wrap(header, w) for header, w in zip(headers, widths)]
    height = max(len(lines) for lines in wrapped)
    out = [t("sim.title", games=summary["games"], players=summary["players"], seed=summary["seed"]), ""]
    for line in range(height):
        cells = [(lines[line - height + len(lines)] if line >= height - len(lines) else "") for lines in wrapped]
        out.append(_row(cells, widths, gap))
    out.append((" " * gap).join("─" * w for w in widths))
    out += [_row(row, widths, gap) for row in rows]
    return [line.rstrip() for line in out] + legend


def _pad(text: str, width: int, left: bool) -> str:
    from rich.cells import cell_len

    space = " " * max(0, width - cell_len(text))
    return text + space if left else space + text


def _row(cells: list[str], widths: list[int], gap: int) -> str:
    return (" " * gap).join(_pad(cell, w, i == 0) for i, (cell, w) in enumerate(zip(cells, widths)))


def _clusters(word: str) -> list[str]:
    """A word in pieces that may be split apart: after a slash or hyphen, and never before a vowel sign or
    other mark, nor after a virama or a joiner (a Tamil, Telugu or Kannada letter stays whole)."""
    import unicodedata

    pieces: list[str] = []
    for ch in word:
        joined = pieces and (unicodedata.category(ch).startswith("M") or ch in "\u200c\u200d"
                             or unicodedata.combining(pieces[-1][-1]) == 9 or pieces[-1][-1] in "\u200c\u200d")
        if joined:
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces


def _chop(word: str, width: int) -> list[str]:
    """A word too wide for ``width`` cells in lines, broken after "/" or "-" where it can be, else between letters."""
    from rich.cells import cell_len

    lines = [""]
    for piece in _clusters(word):
        if lines[-1] and cell_len(lines[-1] + piece) > width:
            lines.append("")
        lines[-1] += piece
    for i, line in enumerate(lines[:-1]):  # move a break back to just after a slash or hyphen on its line
        cut = max(line.rfind("/"), line.rfind("-"))
        if 0 < cut < len(line) - 1 and cell_len(line[cut + 1:] + lines[i + 1]) <= width:
            lines[i], lines[i + 1] = line[:cut + 1], line[cut + 1:] + lines[i + 1]
    return lines


def _wrap(text: str, width: int) -> list[str]:
    """A header in lines of ``width`` cells: at spaces, and inside a word only when it must."""
    from rich.cells import cell_len

    lines: list[str] = []
    for word in text.split():
        pieces = _chop(word, width) if cell_len(word) > width else [word]
        for piece in pieces:
            if lines and cell_len(lines[-1]) + 1 + cell_len(piece) <= width:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
    return lines or [""]
