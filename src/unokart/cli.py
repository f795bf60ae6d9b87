"""The one command: ``unokart play | serve | simulate | replay | watch | verify ...``.

Each face registers its own sub-commands (``register(app)`` in its ``cli``
module) and imports its heavy libraries only when its command runs.
"""

from __future__ import annotations

import importlib

import typer

from .i18n import t

app = typer.Typer(help=t("cli.help.app"), no_args_is_help=True, add_completion=False)

FACES = ("unokart.rules.cli", "unokart.sim.cli", "unokart.server.cli", "unokart.tui.cli")

for _name in FACES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
