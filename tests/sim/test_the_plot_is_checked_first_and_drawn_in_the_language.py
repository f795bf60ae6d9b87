"""``simulate --plot``: a path matplotlib cannot write is refused before any game is played, and the plot's
words are the language's, in the package's own fonts (no glyph missing), bots named by their level words."""

import json
import re
import warnings

import matplotlib
import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import LANGUAGES, join_list, t
from unokart.sim.cli import draw_plot
from unokart.sim.rr_cli import draw_round_robin


def simulate(*args, lang="en"):
    return CliRunner().invoke(app, ["simulate", *args], env={"UNOKART_LANG": lang})


SUFFIXES = join_list([".png", ".svg", ".pdf"], style="or")


@pytest.mark.parametrize("name, key, fields", [
    ("win.txt", "sim.error.plot_suffix", {"suffixes": SUFFIXES}),  # was matplotlib's ValueError after every game
    ("win", "sim.error.plot_suffix", {"suffixes": SUFFIXES}),  # matplotlib wrote win.png and we said "win"
    ("", "sim.error.plot_folder", {}),  # a folder: matplotlib wrote FOLDER.png beside it, "saved to FOLDER"
    ("no/such/win.png", "sim.error.no_folder", {}),
])
def test_a_plot_path_that_cannot_be_written_is_refused_before_any_game(tmp_path, name, key, fields):
    plot = tmp_path / name if name else tmp_path
    result = simulate("--bots", "random,random", "--games", "2", "--target", "60", "--plot", str(plot))
    assert result.exit_code == 2, (result.output, result.exception)
    assert t("sim.error.plot", path=plot, reason=t(key, **fields)) in result.stderr
    assert not result.stdout  # no table: no game was played
    assert not list(tmp_path.iterdir()) and not tmp_path.with_name(tmp_path.name + ".png").exists()  # nothing written


def test_a_saved_round_robin_refuses_a_bad_plot_path_before_drawing(tmp_path):
    saved = tmp_path / "rr.json"
    saved.write_text(json.dumps(ROUND_ROBIN), encoding="utf-8")
    result = simulate("--from-results", str(saved), "--plot", str(tmp_path / "rr.txt"))
    assert result.exit_code == 2, (result.output, result.exception)
    assert t("sim.error.plot", path=tmp_path / "rr.txt", reason=t("sim.error.plot_suffix", suffixes=SUFFIXES)) \
        in result.stderr


SUMMARY = {"games": 4, "bots": [{"name": "heuristic", "win_rate": 0.75, "ci95": [0.3, 0.95]},
                                {"name": "random", "win_rate": 0.25, "ci95": [0.05, 0.7]}]}
SIDE = {"share": 0.5, "ci95": [0.1, 0.9], "decision_ms": 0.1}
ROUND_ROBIN = {"kind": "round_robin", "levels": ["random", "careful"], "tables": [2], "seed": 1, "pairings": [
    {"players": 2, "games": 2, "sides": [{"level": "random", **SIDE}, {"level": "careful", **SIDE}]}]}


def drawn_texts(draw, doc, path, lang, monkeypatch):
    """The words of the plot, drawn as SVG text; a missing glyph fails (the warning is made an error)."""
    monkeypatch.setenv("UNOKART_LANG", lang)
    with warnings.catch_warnings(), matplotlib.rc_context({"svg.fonttype": "none"}):
        warnings.filterwarnings("error", message=r"Glyph .* missing")
        draw(doc, path)
    return re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_win_rate_plot_names_bots_by_level_words_in_the_language(tmp_path, lang, monkeypatch):
    texts = drawn_texts(draw_plot, SUMMARY, tmp_path / "win.svg", lang, monkeypatch)
    assert texts[:4] == [t("web.level.heuristic", lang), "(heuristic)", t("web.level.random", lang), "(random)"]
    assert t("sim.plot.title", lang, games=4) in texts and t("sim.col.win", lang) in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_round_robin_plot_is_in_the_language(tmp_path, lang, monkeypatch):
    texts = drawn_texts(draw_round_robin, ROUND_ROBIN, tmp_path / "rr.svg", lang, monkeypatch)
    assert t("web.level.careful", lang) in texts and t("sim.rr.plot_title", lang, players=2) in texts


def test_without_text_shaping_the_plot_is_in_english_words(tmp_path, monkeypatch):
    # matplotlib before 3.11 (or without brotli for the WOFF2 fonts) would draw Tamil letters unjoined
    from unokart.sim import plot

    monkeypatch.setattr(plot, "_families", lambda: None)
    texts = drawn_texts(draw_plot, SUMMARY, tmp_path / "win.svg", "ta", monkeypatch)
    assert texts[:4] == ["good", "(heuristic)", "beginner", "(random)"] and t("sim.col.win", "en") in texts
