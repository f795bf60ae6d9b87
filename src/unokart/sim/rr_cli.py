"""``unokart simulate --round-robin``: the progress bar, the tables (Markdown) and the plot of a round robin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, NoReturn

import typer

from ..i18n import os_reason, t
from ..levels import level_label as label
from .roundrobin import Pairing, run_round_robin
from .tournament import rounded_games


def parse_tables(text: str, fail: Callable[[str], NoReturn]) -> list[int]:
    try:
        tables = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail(t("sim.error.tables", tables=text))
    if not tables or any(not 2 <= n <= 10 for n in tables):
        fail(t("sim.error.tables", tables=text))
    return list(dict.fromkeys(tables))


def round_robin_command(levels: list[str], tables_text: str, games: int, seed: int, options: dict,
                        save: Path | None, plot: Path | None, as_json: bool, max_decisions: int,
                        fail: Callable[[str], NoReturn]) -> None:
    tables = parse_tables(tables_text, fail)
    if save is not None and not save.parent.is_dir():
        fail(t("sim.error.save", path=save, reason=t("sim.error.no_folder")))
    doc = _play(levels, tables, games, seed, options, save, max_decisions)
    report(doc, plot, as_json, fail)
    if save is not None:
        typer.echo(t("sim.rr.saved", path=save), err=True)


def report_saved(path: Path, plot: Path | None, as_json: bool, fail: Callable[[str], NoReturn]) -> None:
    """The tables and plot of a round robin saved by ``--results`` (a finished run, or one stopped early)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        fail(t("sim.error.read_results", path=path, reason=os_reason(err)))
    except ValueError as err:
        fail(t("sim.error.read_results", path=path, reason=err))
    if not isinstance(doc, dict) or doc.get("kind") != "round_robin":
        fail(t("sim.error.read_results", path=path, reason=t("sim.error.not_round_robin")))
    report(doc, plot, as_json, fail)


def report(doc: dict, plot: Path | None, as_json: bool, fail: Callable[[str], NoReturn]) -> None:
    if as_json:
        print(json.dumps(doc, indent=1))
    else:
        for line in markdown_lines(doc):
            typer.echo(line)
    if plot is not None:
        try:
            draw_round_robin(doc, plot)
        except OSError as err:
            fail(t("sim.error.plot", path=plot, reason=os_reason(err)))
        typer.echo(t("sim.plot.saved", path=plot), err=True)


def _play(levels: list[str], tables: list[int], games: int, seed: int, options: dict, save: Path | None,
          max_decisions: int) -> dict:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    total = sum(rounded_games(games, n) for n in tables) * len(levels) * (len(levels) - 1) // 2
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(t("sim.progress"), total=total)

        def on_game(pairing: Pairing) -> None:
            progress.update(task, advance=1, description=t(
                "sim.rr.progress", a=label(pairing.a), b=label(pairing.b), players=pairing.players))

        return run_round_robin(levels, tables, games, seed, options, save, on_game, max_decisions=max_decisions)


def _percent(x: float) -> str:
    return f"{100 * x:.1f}"


def markdown_lines(doc: dict, lang: str | None = None) -> list[str]:
    """For each table size: a matrix of the row level's share of games against the column level, then
    every pairing with its games, interval and decision times."""
    levels = doc["levels"]
    out: list[str] = []
    for players in doc["tables"]:
        rows = [r for r in doc["pairings"] if r["players"] == players]
        share = {}
        for r in rows:
            a, b = r["sides"]
            share[a["level"], b["level"]] = a
            share[b["level"], a["level"]] = b
        out += [t("sim.rr.title", lang, players=players, seed=doc["seed"]), ""]
        out.append("| " + " | ".join([""] + [label(level, lang) for level in levels]) + " |")
        out.append("|" + "---|" * (len(levels) + 1))
        for row in levels:
            cells = [_percent(share[row, col]["share"]) if (row, col) in share else "" for col in levels]
            out.append("| " + " | ".join([label(row, lang)] + cells) + " |")
        out += ["", "| " + " | ".join(t(f"sim.rr.col.{k}", lang) for k in
                                       ("a", "b", "games", "won", "ci", "ms_a", "ms_b")) + " |", "|---" * 7 + "|"]
        for r in rows:
            a, b = r["sides"]
            out.append(f"| {label(a['level'], lang)} | {label(b['level'], lang)} | {r['games']:,} | "
                       f"{_percent(a['share'])}% | {_percent(a['ci95'][0])}–{_percent(a['ci95'][1])}% | "
                       f"{a['decision_ms']:.2f} | {b['decision_ms']:.2f} |")
        out.append("")
    return out


def draw_round_robin(doc: dict, path: Path) -> None:
    """One heat map a table size: the row level's share of games against the column level (50%: even), with its
    95% interval and the games played."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    levels = doc["levels"]
    n = len(levels)
    fig, axes = plt.subplots(1, len(doc["tables"]), figsize=(1.0 + 5.2 * len(doc["tables"]), 5.2), squeeze=False)
    for ax, players in zip(axes[0], doc["tables"]):
        grid = np.full((n, n), np.nan)
        notes = {}
        for r in doc["pairings"]:
            if r["players"] != players:
                continue
            for mine, theirs in (r["sides"], r["sides"][::-1]):
                i, j = levels.index(mine["level"]), levels.index(theirs["level"])
                grid[i, j] = mine["share"]
                lo, hi = mine["ci95"]
                notes[i, j] = f"{100 * mine['share']:.0f}%\n{100 * lo:.0f}–{100 * hi:.0f}\n{r['games']:,}"
        ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0)
        for (i, j), note in notes.items():  # white on the dark ends of the scale
            ax.text(j, i, note, ha="center", va="center", fontsize=6,
                    color="white" if abs(grid[i, j] - 0.5) > 0.3 else "black")
        names = [label(level).replace(" (", "\n(") for level in levels]
        ax.set_xticks(range(n), names, fontsize=7, rotation=45, ha="right")
        ax.set_yticks(range(n), names, fontsize=7)
        ax.set_title(t("sim.rr.plot_title", players=players), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
