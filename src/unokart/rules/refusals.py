"""Why an action is refused: the error that names the rule, in English and as a catalogue key with its
parameters (which the server and clients translate). Only called for an action the game refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as A
from .actions import Action
from .cards import COLOR_NAMES, COLORS, FACE_CODE, WILD_DRAW_FOUR
from .errors import IllegalAction, NotationError, UnoKartError, shown
from .states import (
    AWAIT_CHALLENGE, AWAIT_COLOR, AWAIT_DRAWN, AWAIT_PLAY, AWAIT_STACK, AWAIT_SWAP, AWAIT_TARGET, GAME_OVER, ROUND_OVER,
)

if TYPE_CHECKING:
    from .engine import Game


def malformed(a: Action) -> NotationError | None:
    """What makes an Action object (built in code, not parsed) no action at all, or None."""
    if a.verb not in A.VERBS:
        return NotationError(f"unknown verb {shown(a.verb)}", "core.notation.unknown_verb",
                             {"verb": shown(a.verb), "verbs": ", ".join(A.VERBS)})
    if a.verb in (A.PLAY, A.JUMP) and not (isinstance(a.card, int) and 0 <= a.card < len(FACE_CODE)):
        return NotationError(f"there is no card {shown(a.card)}", "core.notation.card", {"text": shown(a.card)})
    if (a.verb == A.COLOR or (a.verb == A.PLAY and a.card == WILD_DRAW_FOUR)) and a.color not in range(4):
        return NotationError(f"{shown(a.color)} is not a colour (0 to 3: R, Y, G, B)", "core.notation.colour",
                             {"text": shown(a.color)})
    return None


def explain(game: Game, a: Action) -> UnoKartError:
    """Why ``a`` is refused now, as an error naming the rule, with a catalogue key and its parameters.

    Legality is the engine's alone: this is asked only once ``legal_actions`` has refused ``a``, and it asks the
    same gates ``legal_actions`` does (``to_act``, ``Game.uno_due``, ``uno_with_play``, ``may_jump``) to say
    which one ``a`` fails; what is left is said from the decision awaited (what it offers and ``a`` is not)."""
    refused = _outside_any_decision(game, a)
    if refused is not None:
        return refused
    seat, verb = a.seat, a.verb
    if verb == A.UNO:
        return _explain_uno(game, seat)
    if verb == A.CATCH:  # a catch of another seat is legal or void (R8.3): never refused
        return IllegalAction("R8.2", "a player cannot catch themselves", "core.refusal.catch_self", {"seat": seat})
    hand = game.hand(seat)
    if verb in (A.PLAY, A.JUMP) and a.card not in hand:
        return IllegalAction("R4.1", f"seat {seat} holds no {FACE_CODE[a.card]}",
                             "core.refusal.not_in_hand", {"seat": seat, "card": FACE_CODE[a.card]})
    if verb == A.JUMP:
        return _explain_jump(game, a)
    if seat != game.to_act:
        return IllegalAction("R2.1", f"it is seat {game.to_act}'s turn (awaiting {game.awaiting}), not seat {seat}'s",
                             "core.refusal.not_your_turn",
                             {"seat": seat, "to_act": game.to_act if game.to_act is not None else -1, "awaiting": game.awaiting})
    if verb == A.PLAY and a.uno and not game.uno_with_play(seat):
        return _uno_not_last(seat, len(hand))
    return _explain_turn(game, a)


def _outside_any_decision(game: Game, a: Action) -> UnoKartError | None:
    """What refuses ``a`` whatever is awaited: no such seat or target, the round or the game over, no action."""
    n, seat = game.n, a.seat
    if not 0 <= seat < n:
        return IllegalAction("R2.1", f"there is no seat {seat} (seats 0 to {n - 1})",
                             "core.refusal.no_such_seat", {"number": seat, "last": n - 1})
    if game.awaiting == GAME_OVER:
        return IllegalAction("R11.2", "the game is over", "core.refusal.game_over", {})
    if game.awaiting == ROUND_OVER:
        return IllegalAction("R9.1", "the round is over: deal the next round first", "core.refusal.round_over", {})
    broken = malformed(a)
    if broken is not None:
        return broken
    if a.verb in (A.TARGET, A.CATCH, A.SWAP) and not 0 <= a.target < n:
        return IllegalAction("R2.1", f"there is no seat {a.target} (seats 0 to {n - 1})",
                             "core.refusal.no_such_seat", {"number": a.target, "last": n - 1})
    return None


def _explain_uno(game: Game, seat: int) -> IllegalAction:
    """legal_actions offers UNO to the seat ``game.uno_open()`` names alone: which of its conditions fails."""
    if game.uno_due(seat):  # the seat may say it, but its window is not open
        return IllegalAction("R8.3", "the UNO window is closed: another player has taken a turn since",
                             "core.refusal.uno_window_closed", {"seat": seat})
    count = len(game.hand(seat))
    if count != 1:
        return IllegalAction("R8.3", f"UNO may be said only holding exactly one card (seat {seat} holds {count})",
                             "core.refusal.uno_not_one_card", {"seat": seat, "count": count})
    return IllegalAction("R8.3", f"seat {seat} has already said UNO", "core.refusal.uno_already", {"seat": seat})


def _uno_not_last(seat: int, count: int) -> IllegalAction:
    return IllegalAction("R8.3", f"UNO may be said only when the play leaves one card (seat {seat} would hold {count - 1})",
                         "core.refusal.uno_not_last", {"seat": seat, "count": count - 1})


def _explain_turn(game: Game, a: Action) -> IllegalAction:
    """A turn action of the seat to act that its awaited decision does not offer: which form it has wrong."""
    aw, verb, seat = game.awaiting, a.verb, a.seat
    top, drawn = game._discard[-1], game._drawn
    if aw == AWAIT_PLAY and verb == A.PLAY:
        return IllegalAction("R4.1", f"{FACE_CODE[a.card]} does not match {FACE_CODE[top]} (active colour {COLOR_NAMES[game.color]})",
                             "core.refusal.no_match", {"card": FACE_CODE[a.card], "top": FACE_CODE[top], "color": COLORS[game.color]})
    if aw == AWAIT_DRAWN and verb == A.PLAY:
        return IllegalAction("R4.3", f"only the card just drawn ({FACE_CODE[drawn]}) may be played now",
                             "core.refusal.only_drawn", {"card": FACE_CODE[a.card], "drawn": FACE_CODE[drawn]})
    if aw == AWAIT_DRAWN and verb == A.PASS:
        return IllegalAction("R12.3", f"force_play: the drawn {FACE_CODE[drawn]} can be played, so it must be",
                             "core.refusal.must_play_drawn", {"drawn": FACE_CODE[drawn]})
    if aw in (AWAIT_CHALLENGE, AWAIT_STACK) and verb == A.PLAY:
        if not game.options.stacking:
            return IllegalAction("R7.1", "challenge or accept the Wild Draw Four first", "core.refusal.challenge_first", {})
        w4 = top == WILD_DRAW_FOUR
        kind = "Wild Draw Four" if w4 else "Draw Two"
        return IllegalAction("R12.1", f"only a {kind} may be stacked on a {kind} (no mixing)",
                             "core.refusal.stack_only_w4" if w4 else "core.refusal.stack_only_d2", {"card": FACE_CODE[a.card]})
    if aw in (AWAIT_TARGET, AWAIT_SWAP) and verb in (A.TARGET, A.SWAP) and a.target == seat:
        return IllegalAction(_EXPECTED_RULE[aw], "choose another player, not yourself", "core.refusal.not_yourself", {"seat": seat})
    return expected_decision(game, verb)


# The rule that names each decision the seat to act owes.
_EXPECTED_RULE = {AWAIT_PLAY: "R4.1", AWAIT_DRAWN: "R4.3", AWAIT_CHALLENGE: "R7.1", AWAIT_STACK: "R12.1",
                  AWAIT_COLOR: "R6.6", AWAIT_TARGET: "R6.4", AWAIT_SWAP: "R12.5"}


def expected_decision(game: Game, verb: str) -> IllegalAction:
    """The refusal of ``verb`` from the seat to act, saying what it may do now (the key names the decision).
    Also what the referee says to a seat that would decline its own turn (rules/referee.py)."""
    aw = game.awaiting
    text = {
        AWAIT_PLAY: "play a card or draw",
        AWAIT_DRAWN: f"play the card just drawn ({FACE_CODE[game._drawn] if game._drawn >= 0 else '-'}) or pass",
        AWAIT_CHALLENGE: "challenge or accept the Wild Draw Four" + (" (or stack another)" if game.options.stacking else ""),
        AWAIT_STACK: "stack a card of the same kind or accept the draws",
        AWAIT_COLOR: "choose a colour: color R, Y, G or B",
        AWAIT_TARGET: "choose the opponent the Green Shell hits: target SEAT",
        AWAIT_SWAP: "choose the player to swap hands with: swap SEAT",
    }[aw]
    wanted = "challenge_or_stack" if aw == AWAIT_CHALLENGE and game.options.stacking else aw
    params: dict[str, str | int] = {"verb": verb, "awaiting": aw}
    if aw == AWAIT_DRAWN:
        params["drawn"] = FACE_CODE[game._drawn] if game._drawn >= 0 else "-"
    return IllegalAction(_EXPECTED_RULE[aw], f"'{verb}' is not allowed now: {text}", "core.refusal.expect." + wanted, params)


def _explain_jump(game: Game, a: Action) -> IllegalAction:
    """legal_actions offers a jump of the top card while ``game.may_jump(seat)`` (and UNO with it while
    ``game.uno_with_play(seat)``): the first of these that fails."""
    if not game.options.jump_in:
        return IllegalAction("R12.4", "jump-in is not a rule at this table", "core.refusal.jump_off", {})
    if a.card >= 52:  # never identical to a coloured top card, and a wild on top closes jump-in
        return IllegalAction("R12.4", "a wild can never jump in", "core.refusal.jump_wild", {"card": FACE_CODE[a.card]})
    if not game.may_jump(a.seat) and a.seat == game.to_act:
        return IllegalAction("R12.4", "it is your turn: play the card instead of jumping in", "core.refusal.jump_own_turn", {})
    if not game.may_jump(a.seat) and game.awaiting != AWAIT_PLAY:  # else a wild is on top: nothing is identical
        return IllegalAction("R12.4", f"no jump-in while a decision is pending (awaiting {game.awaiting})",
                             "core.refusal.jump_pending", {"awaiting": game.awaiting})
    if a.uno and not game.uno_with_play(a.seat):
        return _uno_not_last(a.seat, len(game.hand(a.seat)))
    top = game._discard[-1]
    return IllegalAction("R12.4", f"{FACE_CODE[a.card]} is not identical to the top card {FACE_CODE[top]}",
                         "core.refusal.jump_not_identical", {"card": FACE_CODE[a.card], "top": FACE_CODE[top]})
