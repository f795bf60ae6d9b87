"""Compiles the rules core and the bots' playouts with mypyc when building a wheel; editable installs stay pure Python.

The pure-Python modules are the source of truth and work alone: a compiled
module is only a faster copy of the same file (UNOKART_PURE=1 skips it).
"""

import os
import sys

from setuptools import setup

COMPILED = [
    "src/unokart/rules/cards.py", "src/unokart/rules/actions.py", "src/unokart/rules/states.py",
    "src/unokart/rules/view.py", "src/unokart/rules/engine.py", "src/unokart/rules/referee.py",
    "src/unokart/bots/playout.py",  # what search spends its time in
    "src/unokart/env/batch_core.py",  # BatchEnv's inner loop and the writes into its arrays
]


def ext_modules():
    if os.environ.get("UNOKART_PURE") == "1" or "editable_wheel" in sys.argv:
        return []
    from mypyc.build import mypycify

    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=ext_modules())
