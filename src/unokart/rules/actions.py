"""Typed actions that round-trip through the text notation ("2: play W+4 G uno")."""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import COLORS, FACE_CODE, WILD_DRAW_FOUR, parse_card, parse_color
from .errors import NotationError, shown

PLAY: Final = "play"
JUMP: Final = "jump"
DRAW: Final = "draw"
PASS: Final = "pass"
CHALLENGE: Final = "challenge"
ACCEPT: Final = "accept"
COLOR: Final = "color"
TARGET: Final = "target"
UNO: Final = "uno"
CATCH: Final = "catch"
SWAP: Final = "swap"

VERBS: Final = (PLAY, JUMP, DRAW, PASS, CHALLENGE, ACCEPT, COLOR, TARGET, UNO, CATCH, SWAP)
# R8.3: these close another seat's UNO window; `uno` and `catch` do not.
TURN_VERBS: Final = frozenset((PLAY, JUMP, DRAW, PASS, CHALLENGE, ACCEPT, COLOR, TARGET, SWAP))
_SEAT_ARG = frozenset((TARGET, CATCH, SWAP))
_NO_ARG = frozenset((DRAW, PASS, CHALLENGE, ACCEPT, UNO))


class Action(NamedTuple):
    """One decision by one seat. ``card`` is a face, ``color`` 0-3, -1 when unused."""

    seat: int
    verb: str
    card: int = -1
    color: int = -1
    target: int = -1
    uno: bool = False

    def __str__(self) -> str:
        parts = [f"{self.seat}: {self.verb}"]
        if self.verb in (PLAY, JUMP):
            parts.append(FACE_CODE[self.card])
            if self.color >= 0:
                parts.append(COLORS[self.color])
            if self.uno:
                parts.append("uno")
        elif self.verb == COLOR:
            parts.append(COLORS[self.color])
        elif self.verb in _SEAT_ARG:
            parts.append(str(self.target))
        return " ".join(parts)

    def __repr__(self) -> str:
        # the notation, so that eval(repr(a)) == a: Action.parse('2: play W+4 G uno'), not card=52
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: object) -> "Action":
        return parse_action(text)


_cache: dict[tuple, Action] = {}


def make(seat: int, verb: str, card: int = -1, color: int = -1, target: int = -1, uno: bool = False) -> Action:
    """The one shared instance of an action (legal-move lists allocate nothing new)."""
    key = (seat, verb, card, color, target, uno)
    action = _cache.get(key)
    if action is None:
        action = _cache[key] = Action(seat, verb, card, color, target, uno)
    return action


def _seat_number(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise NotationError(f"{what} must be a seat number, not {shown(text)}", "core.notation.seat", {"text": shown(text)})
    return int(text)


def parse_action(text: object) -> Action:
    """Parse ``SEAT: VERB [ARGS]`` exactly as NOTATION.md writes it (case-insensitive)."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}", "core.notation.not_text", {"type": type(text).__name__})
    head, sep, rest = text.partition(":")
    if not sep:
        raise NotationError(f"action {shown(text)} has no 'SEAT:' prefix", "core.notation.no_prefix", {"text": shown(text)})
    seat = _seat_number(head.strip(), "the seat")
    words = rest.split()
    if not words:
        raise NotationError(f"action {shown(text)} has no verb", "core.notation.no_verb", {"text": shown(text)})
    verb, args = words[0].lower(), words[1:]
    if verb not in VERBS:
        raise NotationError(f"unknown verb {shown(words[0])} in {shown(text)}", "core.notation.unknown_verb",
                            {"verb": shown(words[0]), "verbs": ", ".join(VERBS)})
    if verb in _NO_ARG:
        if args:
            raise NotationError(f"'{verb}' takes no arguments: {shown(text)}", "core.notation.no_arguments", {"verb": verb})
        return make(seat, verb)
    if verb == COLOR:
        if len(args) != 1:
            raise NotationError(f"'color' takes one colour (R, Y, G, B): {shown(text)}", "core.notation.color_arg", {"text": shown(text)})
        return make(seat, verb, color=parse_color(args[0]))
    if verb in _SEAT_ARG:
        if len(args) != 1:
            raise NotationError(f"'{verb}' takes one seat number: {shown(text)}", "core.notation.seat_arg", {"verb": verb})
        return make(seat, verb, target=_seat_number(args[0], f"the seat in '{verb}'"))
    # play / jump
    if not args:
        raise NotationError(f"'{verb}' needs a card: {shown(text)}", "core.notation.needs_card", {"verb": verb})
    card = parse_card(args[0])
    rest_args = args[1:]
    uno = bool(rest_args) and rest_args[-1].lower() == "uno"
    if uno:
        rest_args.pop()
    color = -1
    if card == WILD_DRAW_FOUR:
        if len(rest_args) != 1:
            raise NotationError(f"a Wild Draw Four needs a colour (R, Y, G, B): {shown(text)}", "core.notation.w4_color", {"text": shown(text)})
        color = parse_color(rest_args.pop())
    if rest_args:
        extra = shown(" ".join(rest_args))
        raise NotationError(f"unexpected {extra} in {shown(text)}", "core.notation.unexpected", {"extra": extra, "text": shown(text)})
    return make(seat, verb, card=card, color=color, uno=uno)


def as_action(action: object) -> Action:
    if isinstance(action, Action):
        return action
    return parse_action(action)
