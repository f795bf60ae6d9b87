"""The policy bot lives in ``bots/``: no module of ``bots/`` reaches into ``env/`` by a function-local import
(the hidden package circle), and the env's old import paths still name the same objects."""

from __future__ import annotations

import ast
from pathlib import Path

import unokart.bots

BOTS = Path(unokart.bots.__file__).parent


def function_local_imports(source: str) -> list[str]:
    """The module of every import inside a function of ``source``, relative ones written with their dots."""
    found = []
    for func in ast.walk(ast.parse(source)):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom):
                    found.append("." * node.level + (node.module or ""))
                elif isinstance(node, ast.Import):
                    found.extend(alias.name for alias in node.names)
    return found


def reaches_env(module: str) -> bool:
    return module == "..env" or module.startswith(("..env.", "unokart.env"))


def test_no_module_of_bots_imports_env_inside_a_function():
    assert reaches_env(function_local_imports("def make_bot(name):\n    from ..env import numpy_policy\n")[0])
    hidden = [(path.name, module) for path in sorted(BOTS.glob("*.py"))
              for module in function_local_imports(path.read_text()) if reaches_env(module)]
    assert hidden == []


def test_the_env_paths_re_export_the_bots_objects():
    from unokart.bots import policy
    from unokart.env import PolicyBot, numpy_policy, policy_bot

    assert PolicyBot is policy.PolicyBot and policy_bot.observation_for is policy.observation_for
    assert numpy_policy.NumpyPolicy is policy.NumpyPolicy and numpy_policy.known_policies is policy.known_policies
    assert (policy.PACKAGED_MODELS / "baseline.npz").is_file()
