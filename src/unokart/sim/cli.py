"""``unokart simulate``: a tournament between bots, as a table, JSON or a plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..i18n import t


def register(app: typer.Typer) -> None:
    @app.command(help=t("sim.help.simulate"))
    def simulate(
        bots: str = typer.Option("heuristic,random", "--bots", "-b", help=t("sim.help.bots")),
        games: int = typer.Option(100, "--games", "-n", help=t("sim.help.games")),
        seed: int = typer.Option(1, help=t("sim.help.seed")),
        jobs: int = typer.Option(1, "--jobs", "-j", help=t("sim.help.jobs")),
        players: Optional[int] = typer.Option(None, "--players", "-p", help=t("sim.help.players")),
        option: list[str] = typer.Option([], "--option", "-o", help=t("sim.help.option")),
        target: Optional[int] = typer.Option(None, "--target", help=t("sim.help.target")),
        as_json: bool = typer.Option(False, "--json", help=t("sim.help.json")),
        plot: Optional[Path] = typer.Option(None, "--plot", help=t("sim.help.plot")),
        records: Optional[Path] = typer.Option(None, "--records", help=t("sim.help.records")),
    ) -> None:
        from ..rules.cli import parse_options
        from ..rules.errors import UnoKartError
        from .tournament import Setup, check_setup, iter_names, make_lineup, rounded_games

        def fail(message: str) -> None:
            typer.echo(t("sim.error", message=message), err=True)
            raise typer.Exit(2)

        names = list(iter_names(bots))
        if not names:
            fail(t("sim.error.no_bots"))
        if games < 1:
            fail(t("sim.error.games"))
        if jobs < 1:
            fail(t("sim.error.jobs"))
        options = parse_options(option)
        if target is not None:
            options["target_score"] = target
        try:
            check_setup(names, players, options)
        except (ValueError, UnoKartError) as err:
            fail(str(err))
        if records is not None:
            try:
                records.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                fail(t("sim.error.records", path=records, reason=err.strerror or err))
        if plot is not None and not plot.parent.is_dir():  # say so before the games, not after
            fail(t("sim.error.plot", path=plot, reason=t("sim.error.no_folder")))
        setup = Setup(make_lineup(names, players), options, seed, str(records) if records is not None else None)
        played_games = rounded_games(games, setup.players)
        if played_games != games:
            typer.echo(t("sim.rounded", games=games, played=played_games), err=True)
        summary = _play(setup, played_games, jobs)
        if summary is None:
            raise typer.Exit(130)
        if as_json:
            print(json.dumps(summary, indent=2))
        else:
            _print_table(summary)
        if plot is not None:
            try:
                draw_plot(summary, plot)
            except OSError as err:
                fail(t("sim.error.plot", path=plot, reason=err.strerror or err))
            typer.echo(t("sim.plot.saved", path=plot), err=True)
        if records is not None:
            typer.echo(t("sim.records.saved", path=records), err=True)


def _play(setup, games: int, jobs: int) -> dict | None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from .tournament import run, summarize, whole_blocks

    class GamesPerSecond(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed or 0.0
            return Text(t("sim.speed", speed=f"{speed:,.1f}"))

    with Progress(TextColumn(t("sim.progress")), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task("games", total=games)
        played = run(setup, games, jobs, on_game=lambda count: progress.advance(task, count))
    if len(played) < games:  # interrupted: sum up the blocks that finished
        played = whole_blocks(played, setup.players)
        typer.echo(t("sim.interrupted", games=len(played)), err=True)
        if not played:
            return None
    return summarize(setup, played)


def _print_table(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=t("sim.title", games=summary["games"], players=summary["players"], seed=summary["seed"]))
    for key in ("bot", "seats", "win", "ci", "rounds", "points", "ms", "rating"):
        table.add_column(t(f"sim.col.{key}"), justify="left" if key == "bot" else "right", no_wrap=True)
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        table.add_row(
            bot["name"], str(bot["seats"]), f"{bot['win_rate']:.1%}", f"{lo:.2%}-{hi:.2%}",
            f"{bot['round_win_rate']:.1%}", f"{bot['points_per_round']:.1f}", f"{bot['decision_ms']:.2f}",
            f"{bot['rating']['ordinal']:.1f}",
        )
    console = Console()
    if not console.is_terminal:  # piped into a file: do not squeeze the table into 80 columns
        console = Console(width=120)
    console.print(table)


def draw_plot(summary: dict, path: Path) -> None:
    """Win rates as bars with their 95% intervals (matplotlib, no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = summary["bots"]
    rates = [b["win_rate"] for b in bots]
    errors = [[r - b["ci95"][0] for r, b in zip(rates, bots)], [b["ci95"][1] - r for r, b in zip(rates, bots)]]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 + 1.4 * len(bots)), 4))
    bars = ax.bar([b["name"] for b in bots], rates, yerr=errors, capsize=6, color="#3b7dd8")
    ax.bar_label(bars, labels=[f"{r:.1%}" for r in rates], padding=3)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(t("sim.col.win"))
    ax.set_title(t("sim.plot.title", games=summary["games"]), fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
