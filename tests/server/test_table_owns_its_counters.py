"""A table's counters (its version, game number, events told, bots asked, last touch) move only through its own
methods: two modules each writing one of them once broadcast a round's events from a stale count (issue 23)."""

from __future__ import annotations

import ast
from pathlib import Path

from unokart import Game
from unokart.server import tables
from unokart.server.tables import Table

SERVER = Path(tables.__file__).parent
COUNTERS = {"version", "game_number", "touched", "sent", "_told", "think_version", "_bots_version"}


def _writes_from_outside(source: str) -> list[int]:
    """Lines assigning ``x.<counter>`` for an ``x`` that is not ``self``, outside the class Table itself."""
    tree = ast.parse(source)
    inside = {line for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == "Table"
              for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    lines = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in inside:
            continue
        if isinstance(node, ast.Assign):
            targets = node.targets
        else:
            targets = [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in COUNTERS and \
                        not (isinstance(part.value, ast.Name) and part.value.id == "self"):
                    lines.append(node.lineno)
    return lines


def test_no_module_writes_a_tables_counters():
    found = [f"{path.name}:{line}" for path in sorted(SERVER.glob("*.py"))
             for line in _writes_from_outside(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_scan_sees_a_write_and_an_increment():
    source = "table.sent = 3\nt.version += 1\nself.version = 0\nclass Table:\n    def f(t):\n        t.version = 1\n"
    assert _writes_from_outside(source) == [1, 2]


def _table() -> Table:
    return Table("ABCD", Game.new(["Ann", "Bob"], seed=1).options, None, [], 0.0)


def test_news_starts_where_the_last_broadcast_ended_and_a_new_round_starts_at_zero():
    table = _table()
    game = Game.new(["Ann", "Bob"], seed=1)
    table.began(game, 7, 1)
    assert (table.version, table.game_number, table.status) == (1, 1, "playing")
    assert table.news() == 0
    dealt = game.event_count()
    game.apply(game.legal_actions(game.to_act)[0])
    assert table.acted() == 1 and table.version == 2
    assert table.news() == dealt  # the action's events, from where the last broadcast ended
    assert table.news() == game.event_count()  # nothing new since
    assert not table.bots_asked()
    table.asking_bots()
    assert table.bots_asked()
    table.ask_bots_again()
    assert not table.bots_asked()
