"""``unokart simulate --round-robin``: the progress bar, the tables (Markdown) and the plot of a round robin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, NoReturn, cast

import typer

from ..i18n import os_reason, t
from ..levels import level_label as label
from ..narrate import describe_refusal
from ..replay.cli import load_record
from ..rules.errors import RecordError
from .plot import draw_round_robin, plot_problem
from .roundrobin import Pairing, run_round_robin
from .tournament import rounded_games


MAX_LEVELS = 100  # 4,950 pairings a table size; a saved file's heat map and tables grow as its square


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
    problem = plot_problem(plot) if plot is not None else None
    if problem:
        fail(t("sim.error.plot", path=plot, reason=problem))
    doc = read_saved(path, fail)
    report(doc, plot, as_json, fail)


def read_saved(path: Path, fail: Callable[[str], NoReturn]) -> dict:
    """A saved round robin, read as a game record is (never more than its size limit, nesting checked before
    the JSON parser recurses), then its shape checked: any fault is one sentence in the user's language."""
    try:
        doc = load_record(path)
    except RecordError as err:
        fail(t("sim.error.read_results", path=path, reason=_read_reason(err)))
    problem = shape_problem(doc)
    if problem is not None:
        fail(t("sim.error.read_results", path=path, reason=problem))
    return cast(dict, doc)  # shape_problem has made sure


_READ_FAULTS = ("too_large", "too_deep", "not_utf8", "not_json", "not_json_value")


def _read_reason(err: RecordError) -> str:
    """The record reader's fault said of a saved round robin (the catalogue's words for a record say "record")."""
    if err.key == "core.record.unreadable":
        return str(err.params["reason"])  # already os_reason's, in the user's language
    fault = err.key.rpartition(".")[2]
    return t(f"sim.error.results.{fault}", **err.params) if fault in _READ_FAULTS else describe_refusal(err)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_level(value: object) -> bool:
    try:
        return isinstance(value, str) and bool(label(value))
    except ValueError:
        return False


def _is_side(side: object, levels: list) -> bool:
    return (isinstance(side, dict) and side.get("level") in levels and _number(side.get("share"))
            and _number(side.get("decision_ms")) and isinstance(side.get("ci95"), list) and len(side["ci95"]) == 2
            and all(_number(x) for x in side["ci95"]))


def _is_pairing(row: object, levels: list, tables: list) -> bool:
    return (isinstance(row, dict) and row.get("players") in tables and _whole(row.get("games"))
            and isinstance(row.get("sides"), list) and len(row["sides"]) == 2
            and all(_is_side(side, levels) for side in row["sides"]))


def shape_problem(doc: object) -> str | None:
    """What keeps ``doc`` from being a round robin the tables and plot can show, in words; None if nothing."""
    if not isinstance(doc, dict) or doc.get("kind") != "round_robin":
        return t("sim.error.not_round_robin")
    levels, tables = doc.get("levels"), doc.get("tables")
    if (not isinstance(levels, list) or not 2 <= len(levels) <= MAX_LEVELS
            or not all(_is_level(level) for level in levels) or len(set(levels)) < len(levels)):
        return t("sim.error.results.levels", limit=MAX_LEVELS)
    if (not isinstance(tables, list) or not tables or not all(_whole(n) and 2 <= n <= 10 for n in tables)
            or len(set(tables)) < len(tables)):
        return t("sim.error.results.tables")
    if not _whole(doc.get("seed")):
        return t("sim.error.results.seed")
    if not isinstance(doc.get("pairings"), list):
        return t("sim.error.results.pairings")
    for number, row in enumerate(doc["pairings"], 1):
        if not _is_pairing(row, levels, tables):
            return t("sim.error.results.pairing", number=number)
    return None


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
