"""The one command: ``unokart play | serve | simulate | replay | watch | verify ...``.

Each face registers its own sub-commands (``register(app)`` in its ``cli``
module) and imports its heavy libraries only when its command runs. The root
(cli_text.Group) reads ``--lang`` from anywhere on the line before any help
text is made, so every command speaks the chosen language, and turns argument
errors into one sentence with exit code 2.
"""

from __future__ import annotations

import importlib
from typing import Optional

import typer

from . import __version__
from .cli_text import Command, Group, localize_help, set_language
from .i18n import LANGUAGES, t

FACES = ("unokart.replay.cli", "unokart.sim.cli", "unokart.server.cli", "unokart.tui.cli")


class _App(typer.Typer):
    """A Typer whose commands take the catalogue's usage line and help option by default."""

    def command(self, *args, cls=None, **kwargs):
        return super().command(*args, cls=cls or Command, **kwargs)


def _show_version(shown: bool) -> None:
    if shown:
        typer.echo(f"unokart {__version__}")
        raise typer.Exit()


def build_app() -> typer.Typer:
    """The command with every face's sub-commands, its texts in the current language."""
    localize_help()
    app = _App(help=t("cli.help.app"), no_args_is_help=True, add_completion=False, cls=Group,
               context_settings={"help_option_names": ["-h", "--help"]})  # every command's, as play had alone

    @app.callback()
    def _root(lang: Optional[str] = typer.Option(None, "--lang", help=t("cli.help.lang", languages=", ".join(LANGUAGES))),
              _version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                            help=t("cli.help.version"))) -> None:
        set_language(lang)  # main() has taken it from the line already; this serves callers of app() itself

    for name in FACES:
        importlib.import_module(name).register(app)
    return app


Group.rebuild = staticmethod(build_app)  # a plain function, not a method
app = build_app()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
