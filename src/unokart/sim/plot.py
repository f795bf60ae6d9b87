"""``simulate --plot``: the win rates of a tournament, or a round robin's heat maps, drawn with matplotlib.

The text is in the user's language, in the fonts the package ships for the browser (web/fonts, WOFF2 subsets
of Noto). Matplotlib reads WOFF2 only once it is unpacked (fontTools, brotli), and only from 3.11 on does it
shape text (libraqm): Tamil, Kannada and Telugu letters joined into their clusters, Sindhi's Arabic letters
joined and set right to left. Without these the plot is drawn in English, with the bots' level ids: readable,
where the language's own words would come out as loose or missing glyphs.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import warnings
from pathlib import Path

from ..i18n import current_language, join_list, t
from ..levels import level_label

SUFFIXES = (".png", ".svg", ".pdf")  # what matplotlib writes without further libraries; the name says which
FONT_DIR = Path(__file__).resolve().parents[1] / "web" / "fonts"
SCRIPTS = ("latin", "tamil", "kannada", "telugu", "arabic")  # the first with a glyph draws a character


def plot_problem(path: Path) -> str | None:
    """Why ``--plot path`` cannot be written, in words (said before any game is played); None if it can."""
    if path.is_dir():  # matplotlib would write "path.png" beside it
        return t("sim.error.plot_folder")
    if path.suffix.lower() not in SUFFIXES:
        return t("sim.error.plot_suffix", suffixes=join_list(list(SUFFIXES), style="or"))
    if not path.parent.is_dir():
        return t("sim.error.no_folder")
    return None


def bot_label(level: str, lang: str | None = None) -> str:
    """A bot as players see its level, with what --bots calls it ("good (heuristic)"); a name that is no
    level (a summary written by hand) as it is."""
    try:
        return level_label(level, lang)
    except ValueError:
        return level


@functools.cache
def _families() -> tuple[str, ...] | None:
    """The shipped fonts, unpacked once into matplotlib's cache and registered; their families, or None when
    this matplotlib cannot draw the scripts right (see the module's docstring)."""
    import matplotlib
    from matplotlib import font_manager

    if matplotlib.__version_info__ < (3, 11):
        return None
    try:
        import brotli  # noqa: F401  (fontTools unpacks WOFF2 with it)
        from fontTools.ttLib import TTFont

        cache = Path(matplotlib.get_cachedir()) / "unokart-fonts"
        families = []
        for script in SCRIPTS:
            data = (FONT_DIR / f"unokart-{script}-400.woff2").read_bytes()
            ttf = cache / f"{script}-{hashlib.sha256(data).hexdigest()[:12]}.ttf"  # a new font, a new file
            if not ttf.is_file():
                cache.mkdir(parents=True, exist_ok=True)
                font = TTFont(io.BytesIO(data))
                font.flavor = None
                part = ttf.with_name(f"{ttf.name}.{os.getpid()}.part")  # jobs may unpack at once
                font.save(part)
                os.replace(part, ttf)
            font_manager.fontManager.addfont(str(ttf))
            families.append(font_manager.FontProperties(fname=str(ttf)).get_name())
    except (ImportError, OSError):
        return None
    return (*families, "DejaVu Sans")


def _drawing():
    """matplotlib's pyplot, set to the shipped fonts; the language the plot's words are in."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families = _families()
    lang = current_language() if families else "en"
    style = {"font.family": list(families), "text.language": lang} if families else {}
    return plt, plt.rc_context(style), lang


def _save(fig, path: Path) -> None:
    with warnings.catch_warnings():
        if _families() is None:  # drawn in English: only a bot's own name (a model's path) may lack a glyph
            warnings.filterwarnings("ignore", message=r"Glyph .* missing")
        fig.savefig(path, format=path.suffix[1:].lower(), dpi=120)


def draw_plot(summary: dict, path: Path) -> None:
    """Win rates as bars with their 95% intervals."""
    plt, style, lang = _drawing()
    bots = summary["bots"]
    rates = [b["win_rate"] for b in bots]
    errors = [[r - b["ci95"][0] for r, b in zip(rates, bots)], [b["ci95"][1] - r for r, b in zip(rates, bots)]]
    with style:
        fig, ax = plt.subplots(figsize=(max(5.0, 1.6 + 1.6 * len(bots)), 4))
        names = [bot_label(b["name"], lang).replace(" (", "\n(") for b in bots]
        bars = ax.bar(range(len(bots)), rates, yerr=errors, capsize=6, color="#3b7dd8", tick_label=names)
        ax.bar_label(bars, labels=[f"{r:.1%}" for r in rates], padding=3)
        ax.set_ylim(0, 1.12)  # room for the label of a bar at 100%
        ax.set_ylabel(t("sim.col.win", lang))
        ax.set_title(t("sim.plot.title", lang, games=summary["games"]), fontsize=10)
        fig.tight_layout()
        try:
            _save(fig, path)
        finally:
            plt.close(fig)


def draw_round_robin(doc: dict, path: Path) -> None:
    """One heat map a table size: the row level's share of games against the column level (50%: even), with its
    95% interval and the games played."""
    import numpy as np

    plt, style, lang = _drawing()
    levels = doc["levels"]
    n = len(levels)
    with style:
        fig, axes = plt.subplots(1, len(doc["tables"]), figsize=(1.0 + 5.2 * len(doc["tables"]), 5.2),
                                 squeeze=False)
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
            names = [bot_label(level, lang).replace(" (", "\n(") for level in levels]
            ax.set_xticks(range(n), names, fontsize=7, rotation=45, ha="right")
            ax.set_yticks(range(n), names, fontsize=7)
            ax.set_title(t("sim.rr.plot_title", lang, players=players), fontsize=9)
        fig.tight_layout()
        try:
            _save(fig, path)
        finally:
            plt.close(fig)
