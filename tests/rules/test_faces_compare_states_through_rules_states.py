"""Outside rules/, what a game awaits is compared with rules.states' names, never a string literal: a literal
is a second spelling of the state that a rename in the core would not reach (issue 23)."""

from __future__ import annotations

import ast
from pathlib import Path

import unokart

PACKAGE = Path(unokart.__file__).parent
# Folders whose literals are being replaced in another change; remove a name once its folder is clean.
NOT_YET: set[str] = set()


def _is_awaiting(node: ast.AST, aliases: set[str]) -> bool:
    """``x.awaiting``, ``x["awaiting"]``, ``x.get("awaiting")``, or a name that was given one of those."""
    if isinstance(node, ast.Attribute):
        return node.attr == "awaiting"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "awaiting"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "awaiting"
    return isinstance(node, ast.Name) and node.id in aliases


def _has_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_has_literal(item) for item in node.elts)
    return False


def awaiting_literals(source: str) -> list[int]:
    """The lines where ``source`` compares what a game awaits with a string literal."""
    tree = ast.parse(source)
    aliases = {"awaiting", "aw"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_awaiting(node.value, set()):
            aliases |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_awaiting(o, aliases) for o in operands) and any(_has_literal(o) for o in operands):
                lines.append(node.lineno)
    return lines


def test_the_scan_finds_every_form_of_a_literal_comparison():
    source = """
if game.awaiting == "play": pass
if view["awaiting"] != "round_over": pass
if view.get("awaiting") in ("game_over", None): pass
state = view["awaiting"]
if "color" == state: pass
if game.awaiting == AWAIT_PLAY or view["to_act"] == "me": pass
"""
    assert awaiting_literals(source) == [2, 3, 4, 6]


def test_no_face_compares_awaiting_with_a_string_literal():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        folder = path.relative_to(PACKAGE).parts[0]
        if folder == "rules" or folder in NOT_YET:
            continue
        found += [f"{path.relative_to(PACKAGE)}:{line}" for line in awaiting_literals(path.read_text("utf-8"))]
    assert found == [], "compare with rules.states' names instead: " + ", ".join(found)
