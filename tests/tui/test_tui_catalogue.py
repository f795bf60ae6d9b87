"""Every message the terminal client shows is in the English catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from unokart.i18n import catalogue
from unokart.rules.states import AWAITING

SOURCE = Path(__file__).resolve().parents[2] / "src" / "unokart" / "tui"


def test_every_literal_tui_key_exists():
    english = catalogue("en")
    used = {key for path in SOURCE.glob("*.py") for key in re.findall(r'"(tui\.[a-z_.]+)"', path.read_text())}
    assert used, "the scan found the keys"
    # a plural message is its forms: "tui.cards" is "tui.cards.one" and "tui.cards.other"
    assert sorted(key for key in used if key not in english and f"{key}.other" not in english) == []


def test_keys_built_from_names_exist():
    english = catalogue("en")
    decisions = [a for a in AWAITING if a not in ("round_over", "game_over")]
    built = [f"tui.prompt.{a}" for a in decisions] + [f"core.awaiting.{a}" for a in AWAITING]
    built += [f"tui.summary.{p}{k}" for p in ("", "server_") for k in ("keys", "final_keys")]
    built += [f"tui.key.{k}" for k in ("draw", "keep", "challenge", "accept", "catch", "color")]
    from unokart.tui.cli import _HELP_KEYS
    built += [f"tui.help.{name}" for name in (*_HELP_KEYS, "play", "options")] + ["cli.help.help"]  # play's --help says what every command's does
    from unokart.tui.screens import ITEMS, SECTIONS
    built += ["rules.title", "rules.intro", "rules.items.title"] + [f"rules.item.{item}" for item in ITEMS]
    built += [f"rules.section.{n}.{part}" for n in range(1, SECTIONS + 1) for part in ("title", "body")]
    assert [key for key in built if key not in english] == []
