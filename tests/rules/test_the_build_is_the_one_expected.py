"""The compiled modules are all compiled or all pure Python, and the kind this run expects.

./test.sh runs the suite on the compiled install, then the rules, bots and env tests again on
the pure-Python sources (UNOKART_BUILD=pure, PYTHONPATH=src) so that the two builds cannot drift.
"""

from __future__ import annotations

import importlib
import os

# setup.py's COMPILED list, as modules
COMPILED = ("unokart.rules.cards", "unokart.rules.actions", "unokart.rules.states", "unokart.rules.view",
            "unokart.rules.engine", "unokart.rules.referee", "unokart.bots.playout",
            "unokart.env.batch_core")


def test_every_compiled_module_is_of_one_kind_and_the_kind_expected():
    kinds = {name: "pure" if importlib.import_module(name).__file__.endswith(".py") else "compiled" for name in COMPILED}
    assert len(set(kinds.values())) == 1, f"a half-compiled install: {kinds}"
    expected = os.environ.get("UNOKART_BUILD")
    if expected is not None:  # set by ./test.sh for each of its two runs
        assert set(kinds.values()) == {expected}, kinds


def test_the_list_here_is_setup_pys():
    from pathlib import Path

    setup = (Path(__file__).resolve().parents[2] / "setup.py").read_text()
    for name in COMPILED:
        assert f'"src/{name.replace(".", "/")}.py"' in setup, name
