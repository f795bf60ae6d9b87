"""The bot-level grammar, written once: what ``--bots``, a table's seat and ``make_bot`` name.

    random | easy | heuristic | careful | ismcts | ismcts:<iterations> | ismcts:<N>ms | policy:<NAME or file>

``BotLevel.parse(text)`` reads one level as the server does (kinds in any case, a budget in ASCII digits without
leading zeros, no spaces inside; a policy's name or path as written) and
``str(level)`` writes it back in its one spelling, so ``BotLevel.parse(str(level)) == level``.
A bad level is a ``ValueError`` saying what is wrong and what the grammar allows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .i18n import join_list, t
from .rules.errors import shown

KINDS = ("random", "easy", "heuristic", "careful", "ismcts", "policy")
SIMPLE = KINDS[:4]                    # levels that take no argument
POLICY_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")  # a shipped or offered policy, by name (never a path)
BUDGET = re.compile(r"0|[1-9][0-9]*", re.ASCII)  # one spelling a number: ASCII digits, no leading zeros
GRAMMAR = "random, easy, heuristic, careful, ismcts, ismcts:<iterations>, ismcts:<N>ms, policy:<NAME>"


@dataclass(frozen=True)
class BotLevel:
    """One bot level: its ``kind``, and for ``ismcts`` a budget of ``iterations`` or ``milliseconds`` a
    decision (neither: the default), for ``policy`` the ``policy``'s name or file as written."""

    kind: str
    iterations: int | None = None
    milliseconds: int | None = None
    policy: str = ""

    @classmethod
    def parse(cls, text: str) -> BotLevel:
        """A level as the server's grammar reads it (server/protocol.py's level_pattern): spaces around the whole
        allowed, none inside; the kind in any case; a budget in ASCII digits without leading zeros."""
        kind, sep, arg = text.strip().partition(":")
        if kind != kind.strip() or arg != arg.strip():
            raise ValueError(t("core.level.spaces", level=shown(text)))
        lowered = kind.lower() if kind.isascii() else kind
        if lowered in SIMPLE and not sep:
            return cls(lowered)
        if lowered == "ismcts":
            return cls._ismcts(sep, arg)
        if lowered == "policy" and arg:
            return cls("policy", policy=arg)
        raise ValueError(t("core.level.unknown", level=shown(text), known=GRAMMAR))

    @classmethod
    def _ismcts(cls, sep: str, arg: str) -> BotLevel:
        if not sep:
            return cls("ismcts")
        ms = arg[-2:].isascii() and arg[-2:].lower() == "ms"
        number = arg[:-2] if ms else arg
        if BUDGET.fullmatch(number) and not (ms and number == "0"):
            return cls("ismcts", milliseconds=int(number)) if ms else cls("ismcts", iterations=int(number))
        raise ValueError(t("core.level.budget", budget=shown(arg), problem=_budget_problem(number, ms)))

    @property
    def named_policy(self) -> bool:
        """A policy named (shipped, or offered by a server), not a file path."""
        return self.kind == "policy" and POLICY_NAME.fullmatch(self.policy) is not None

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"ismcts:{self.iterations}"
        if self.milliseconds is not None:
            return f"ismcts:{self.milliseconds}ms"
        return f"policy:{self.policy}" if self.kind == "policy" else self.kind


def _budget_problem(number: str, ms: bool) -> str:
    """What is wrong with a budget that is no number in its one spelling."""
    if number.isdigit() and not number.isascii():
        return t("core.level.problem.digits")
    if number.isdigit() and number.startswith("0") and number != "0":
        return t("core.level.problem.leading_zeros")
    if ms and number == "0":
        return t("core.level.problem.time")
    return t("core.level.problem.sign")


# The levels players meet, weakest first, as measured (docs/measurements/levels.md): what the browser's lobby
# offers, what ``unokart play --bots`` and ``simulate --round-robin`` take by default, and the order their
# names (the catalogue's ``web.level.*``) rise in. Every face reads this one list.
LADDER = ("random", "easy", "heuristic", "policy:trained", "careful", "ismcts")


def parse_levels(text: str) -> list[BotLevel]:
    """A comma-separated list of levels (``--bots heuristic,ismcts:200``); empty entries are skipped."""
    return [BotLevel.parse(part) for part in text.split(",") if part.strip()]


def level_name(level: str, lang: str | None = None) -> str:
    """A level as players read it, in ``lang``: its ladder word (the catalogue's ``web.level.<kind>``, the
    browser's and the server's words too), with an ISMCTS budget after a colon ("strong:200"); a policy
    other than the shipped ``trained`` keeps its own name."""
    parsed = BotLevel.parse(level)
    if parsed.kind == "policy" and parsed.policy != "trained":
        return str(parsed)
    word = t(f"web.level.{parsed.kind}", lang)
    budget = str(parsed).partition(":")[2] if parsed.kind == "ismcts" else ""
    return f"{word}:{budget}" if budget else word


def bot_name(seat: int, level: str, lang: str | None = None) -> str:
    """A bot's name in a language, its level in the lobby's words ("Bot 2 (strong:200)"): the server's name for
    a bot seat, and the terminal client's for a server's bot."""
    kind, colon, budget = level.partition(":")
    try:
        label = t(f"web.level.{kind}", lang) + colon + budget
    except KeyError:
        label = level
    return t("server.bot_name", lang, seat=seat, level=label)


def level_label(level: str, lang: str | None = None) -> str:
    """A level as players read it, with what ``--bots`` calls it when that differs: "good (heuristic)"."""
    name = level_name(level, lang)
    return name if name == level else f"{name} ({level})"


def ladder_text(lang: str | None = None) -> str:
    """The ladder, weakest first, for help texts: "beginner (random), easy, good (heuristic), ..."."""
    return join_list([level_label(level, lang) for level in LADDER], lang)  # Sindhi's comma is "،"
