"""The command line's own words (usage lines, panel titles, argument errors) from the catalogue.

Typer prints its help and its parsing errors in English whatever the language. Here the
language is taken from ``--lang`` anywhere on the line (before any help text is made), the
help's fixed words come from the catalogue, and a parsing error becomes one sentence, in
the user's language, with exit code 2, as every other refusal of the commands.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Callable

import typer
import typer.core
import typer.main

from .i18n import LANGUAGES, join_list, t
from .rules.errors import printable
from .tui import cells

# typer's base of every argument error (click's UsageError, or typer's own copy of click).
UsageError = next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "UsageError")


class LanguageError(ValueError):
    """``--lang`` names no language of the catalogue."""


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """The language ``--lang X`` (or ``--lang=X``) names anywhere in ``argv``, and ``argv`` without it."""
    lang, rest, i = None, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang":
                if i + 1 >= len(argv):
                    raise LanguageError(t("tui.error.lang", code="", languages=", ".join(LANGUAGES)))
                value, i = argv[i + 1], i + 2
            else:
                value, i = arg.split("=", 1)[1], i + 1
            if value not in LANGUAGES:
                raise LanguageError(t("tui.error.lang", code=printable(value), languages=", ".join(LANGUAGES)))
            lang = value
            continue
        rest.append(arg)
        i += 1
    return lang, rest


def localize_help() -> None:
    """Typer's fixed help words (panel titles, defaults) in the current language."""
    import typer.rich_utils as rich_utils

    rich_utils.OPTIONS_PANEL_TITLE = t("cli.help.options_panel")
    rich_utils.COMMANDS_PANEL_TITLE = t("cli.help.commands_panel")
    rich_utils.ARGUMENTS_PANEL_TITLE = t("cli.help.arguments_panel")
    rich_utils.DEFAULT_STRING = t("cli.help.default").replace("{default}", "{}")
    rich_utils.REQUIRED_LONG_STRING = t("cli.help.required")
    if not getattr(rich_utils._make_rich_text, "folds", False):
        rich_utils._make_rich_text = _folding(rich_utils._make_rich_text)


def _folding(make_text):
    """Help text whose long words (a URL, a list of levels) go on to the next line instead of ending in "…"."""

    def make(*args, **kwargs):
        text = make_text(*args, **kwargs)
        if hasattr(text, "overflow"):
            text.overflow = "fold"
        return text

    make.folds = True
    return make


# Typer's type hints ("<int>", "<path>") by the catalogue's word for them; a choice list ("a|b") stays.
_TYPE_WORDS = {"str": "text", "int": "whole_number", "int range": "whole_number", "float": "number",
               "float range": "number", "path": "path", "list[str]": "repeated"}
_METAVARS = {"PORT": "port", "URL": "url", "ADDRESSES": "addresses"}  # the metavars the commands name themselves
_ARGUMENTS = {"record": "record", "target": "copy"}  # an argument's word in the usage line and its errors, by its name


def argument_word(param) -> str:
    """What the usage line and a missing-argument error call an argument ("RECORD", "பதிவு")."""
    word = _ARGUMENTS.get(getattr(param, "name", "") or "")
    return t(f"cli.help.argument.{word}") if word else str(getattr(param, "name", "") or "").upper()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def type_hint(param, ctx) -> str | None:
    """What ``param`` takes, in the current language ("<whole number> [1 to 10000000]"); None for a flag."""
    if getattr(param, "is_flag", False):
        return None  # a flag takes no value: "<bool>" beside it only puzzled
    shown = type(param).display_type_rich(param, ctx)  # the class's, not an earlier call's
    if shown is None:
        return None
    if shown.startswith("<") and shown.endswith(">"):
        word = _TYPE_WORDS.get(shown[1:-1])
        hint = f"<{t(f'cli.help.type.{word}')}>" if word else shown
    else:
        hint = f"<{t(f'cli.help.metavar.{_METAVARS[shown]}')}>" if shown in _METAVARS else shown
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        hint += " " + t("cli.help.range.between", min=_number(low), max=_number(high))
    elif low is not None:
        hint += " " + t("cli.help.range.at_least", min=_number(low))
    elif high is not None:
        hint += " " + t("cli.help.range.at_most", max=_number(high))
    return hint


class _Localized:
    """The usage line's "Usage:", the --help option's text and the type hints from the catalogue."""

    options_metavar: str | None

    def _name_arguments(self, ctx) -> None:
        # Typer writes a required argument "{record}", which reads as a placeholder left unfilled, and in English.
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if getattr(param, "param_type_name", "") == "argument":
                param.metavar = word = argument_word(param)
                param._usage_display_name = lambda word=word, required=param.required: word if required else f"[{word}]"

    def format_help(self, ctx, formatter) -> None:
        self._name_arguments(ctx)
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if hasattr(param, "display_type_rich"):
                # Typer prints the type and, apart, an English range ("1<=x<=10000000"): one hint holds both.
                param.display_type_rich = lambda ctx=None, hint=type_hint(param, ctx): hint
                param._get_number_range_help_str = lambda: None
        super().format_help(ctx, formatter)  # type: ignore[misc]

    def format_usage(self, ctx, formatter) -> None:
        self.options_metavar = t("cli.help.options_metavar")
        if hasattr(self, "subcommand_metavar"):
            self.subcommand_metavar = t("cli.help.command_metavar")
        self._name_arguments(ctx)
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=t("cli.usage") + " ")

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = t("cli.help.help")
        return option


class Command(_Localized, typer.core.TyperCommand):
    pass


class Group(_Localized, typer.core.TyperGroup):
    """The root command: ``--lang`` read first, argument errors as one sentence (for ``main`` and typer's runner alike)."""

    rebuild: "Callable[[], typer.Typer] | None" = None  # the command made again once --lang has set the language

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        try:
            lang, args = take_language(args)
        except LanguageError as err:
            typer.echo(t("cli.error", message=err), err=True)
            sys.exit(2)
        cells.install()  # every width (help, tables) as terminals draw Tamil, Telugu and Kannada vowel signs
        command = self
        if lang:
            set_language(lang)
            if self.rebuild is not None:
                command = typer.main.get_command(self.rebuild())
        try:
            result = super(Group, command).main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except UsageError as err:
            if type(err).__name__ == "NoArgsIsHelpError":  # the bare command: its help
                typer.echo(err.ctx.get_help())
                result = 0
            else:
                typer.echo(t("cli.error", message=usage_error_text(err, sorted(command.commands))), err=True)
                result = 2
        except (typer.Abort, KeyboardInterrupt):
            typer.echo(t("cli.aborted"), err=True)
            result = 130
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def _option_name(err: Exception) -> str:
    param = getattr(err, "param", None)
    opts = getattr(param, "opts", None) or []
    if opts:
        return max(opts, key=len)  # "--games", not "-n"
    name = getattr(param, "human_readable_name", None) or getattr(param, "name", None)
    return str(name or getattr(err, "option_name", "") or "")


def _range_sentence(param, option: str) -> str | None:
    """A number outside an option's bounds (NaN among them), said with the bounds: Typer's reason is English."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return t("cli.usage.range.between", option=option, min=_number(low), max=_number(high))
    if low is not None:
        return t("cli.usage.range.at_least", option=option, min=_number(low))
    if high is not None:
        return t("cli.usage.range.at_most", option=option, max=_number(high))
    return None


def usage_error_text(err: Exception, commands: list[str] | None = None) -> str:
    """An argument error of the command line as one sentence in the user's language."""
    kind = type(err).__name__
    message = err.format_message() if hasattr(err, "format_message") else str(err)
    if kind == "NoSuchOption":
        # What was typed, on one line and cut ("--\x1e" is a line break to Python, "--\x1b[2J" clears a screen).
        option = printable(str(getattr(err, "option_name", "")))
        possible = getattr(err, "possibilities", None)
        if possible:  # one sentence, as every refusal: "There is no option --gamez: did you mean --games?"
            return t("cli.usage.no_such_option_meant", option=option, options=join_list(sorted(possible), style="or"))
        return t("cli.usage.no_such_option", option=option)
    if kind == "MissingParameter":
        param = getattr(err, "param", None)
        if getattr(param, "param_type_name", "") == "argument":
            return t("cli.usage.missing_argument", name=argument_word(param))
        return t("cli.usage.missing_option", option=_option_name(err))
    if kind == "BadOptionUsage" and "requires" in message:
        return t("cli.usage.needs_value", option=getattr(err, "option_name", ""))
    if kind == "BadParameter":
        option = _option_name(err)
        reason = getattr(err, "message", message)
        if "valid integer" in reason:
            return t("cli.usage.not_whole_number", option=option)
        if "valid number" in reason or "valid float" in reason:
            return t("cli.usage.not_a_number", option=option)
        out_of_range = _range_sentence(getattr(err, "param", None), option)
        if out_of_range:
            return out_of_range
        return t("cli.usage.bad_value", option=option, reason=reason)
    found = re.match(r"No such command '(.*)'\.", message)
    if found:
        return t("cli.usage.no_such_command", name=printable(found.group(1)), commands=", ".join(commands or []))
    found = re.match(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if found:
        return t("cli.usage.extra_arguments", args=printable(found.group(1)))
    return message


def set_language(lang: str | None) -> None:
    if lang is not None:
        os.environ["UNOKART_LANG"] = lang  # current_language() reads it, in this process and its children
