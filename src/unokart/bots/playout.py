"""The heuristic's choices as plain functions of cards and seats, and whole rounds played with them.

Shared by the heuristic bot (which reads them from its view) and by search
(which plays determinized rounds out with them, reading the game directly).
Compiled with mypyc in a normal install, like the rules core: search spends
most of its time here.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..rules.actions import ACCEPT, DRAW, PASS, PLAY, Action
from ..rules.cards import DRAW_TWO, FACE_COLOR, FACE_POINTS, FACE_RANK, REVERSE, SKIP, WILD_DRAW_FOUR, WILD_ITEM_BOX
from ..rules.engine import Game, shuffle
from ..rules.states import AWAIT_COLOR, AWAIT_DRAWN, AWAIT_SWAP, AWAIT_TARGET, GAME_OVER, ROUND_OVER

THREAT: Final = 2  # an opponent holding this many cards or fewer is about to go out
WILDS_FROM: Final = 2  # a hand this small plays its wilds
POINT_WEIGHT: Final = 0.1  # per point of a card, against one per card held of its colour
# ISMCTS's patient values for the same three (bots/ismcts.py): against three heuristics over
# 8,000 games of four, each of them raised its prior's share of games won.
PATIENT_THREAT: Final = 1  # action cards and wilds go to work once an opponent is down to one card
PATIENT_WILDS_FROM: Final = 1  # otherwise a wild is kept for the last card
PATIENT_POINT_WEIGHT: Final = 0.0  # big cards are not shed early: the colour held most decides alone


def color_scores(hand: list[int]) -> list[float]:
    """How much of each colour a hand holds: one per card, ties broken by points."""
    score = [0.0, 0.0, 0.0, 0.0]
    for face in hand:
        if face < 52:
            score[FACE_COLOR[face]] += 1 + FACE_POINTS[face] / 100
    return score


def best_color(hand: list[int]) -> int:
    """The colour held most (by count, then by points), for wilds and Bob-ombs."""
    score = color_scores(hand)
    best = 0
    for color in range(1, 4):
        if score[color] > score[best]:
            best = color
    return best


def best_play(plays: list[Action], hand: list[int], seat: int, direction: int, hand_sizes: list[int], color: int, *,
              threat: int = THREAT, wilds_from: int = WILDS_FROM, point_weight: float = POINT_WEIGHT) -> Action:
    """The heuristic's favourite among ``plays``: points and the colour held most first,
    action cards at a player about to go out (``threat`` cards or fewer), wilds kept until
    then or until the hand is down to ``wilds_from`` cards."""
    n = len(hand_sizes)
    victim = (seat + direction) % n
    danger = False
    for other in range(n):
        if other != seat and hand_sizes[other] <= threat:
            danger = True
    victim_danger = hand_sizes[victim] <= threat
    colors = [0, 0, 0, 0, 0]
    bluff = False  # R7.2: a Wild Draw Four would lose a challenge
    for face in hand:
        colors[FACE_COLOR[face]] += 1
        if face < 52 and FACE_COLOR[face] == color:
            bluff = True
    favourite = -1
    best, best_value = plays[0], -1e9
    for action in plays:
        face = action.card
        rank = FACE_RANK[face]
        if face == WILD_ITEM_BOX:  # a free dump of 50 points, its item mostly hurts others
            value = 4.0 if danger or len(hand) <= wilds_from else -5.0
        elif face == WILD_DRAW_FOUR:
            if favourite < 0:
                favourite = best_color(hand)
            if bluff and not victim_danger:
                value = -50.0
            else:
                value = (6.0 if victim_danger or len(hand) <= wilds_from else -8.0) + (0.5 if action.color == favourite else 0.0)
        else:
            value = colors[FACE_COLOR[face]] + FACE_POINTS[face] * point_weight
            if rank == DRAW_TWO:
                value += 3.0 + (8.0 if victim_danger else 0.0)
            elif rank == SKIP or (rank == REVERSE and n == 2):
                value += 2.0 + (8.0 if victim_danger else 0.0)
            elif rank == REVERSE and victim_danger and hand_sizes[(seat - direction) % n] > threat:
                value += 4.0
        if value > best_value:
            best, best_value = action, value
    return best


def patient_play(plays: list[Action], hand: list[int], seat: int, direction: int, hand_sizes: list[int], color: int) -> Action:
    """``best_play`` with the patient values."""
    return best_play(plays, hand, seat, direction, hand_sizes, color,
                     threat=PATIENT_THREAT, wilds_from=PATIENT_WILDS_FROM, point_weight=PATIENT_POINT_WEIGHT)


def playout_action(game: Game, legal: tuple[Action, ...], patient_seat: int = -1) -> Action:
    """The heuristic's choice for the seat to act, read straight from the game (no views);
    ``patient_seat`` plays with the patient values."""
    seat = game.to_act
    assert seat is not None
    hand = game.hand(seat)
    awaiting = game.awaiting
    if awaiting == AWAIT_COLOR:
        color = best_color(hand)
        for action in legal:
            if action.color == color:
                return action
    if awaiting == AWAIT_TARGET or awaiting == AWAIT_SWAP:
        victim, fewest = -1, 1 << 30
        sizes = game.hand_sizes()
        for other in range(game.n):
            if other != seat and sizes[other] < fewest:
                victim, fewest = other, sizes[other]
        for action in legal:
            if action.target == victim:
                return action
    needs_uno = len(hand) == 2
    plays = [a for a in legal if a.verb == PLAY and (a.uno or not needs_uno)]
    if awaiting == AWAIT_DRAWN and plays and plays[0].card == WILD_DRAW_FOUR:
        for face in hand:
            if face < 52 and FACE_COLOR[face] == game.color:
                plays = []  # R7.2: keep a Wild Draw Four that would lose a challenge
                break
    if plays:
        sizes = game.hand_sizes()
        if seat == patient_seat:
            return patient_play(plays, hand, seat, game.direction, sizes, game.color)
        return best_play(plays, hand, seat, game.direction, sizes, game.color)
    for action in legal:
        if action.verb == DRAW or action.verb == PASS or action.verb == ACCEPT:
            return action
    return legal[0]


def playout(game: Game, limit: int, patient_seat: int = -1) -> None:
    """Play the round out with the heuristic's choices for every seat, ``patient_seat`` with the
    patient values (at most ``limit`` actions)."""
    steps = 0
    while game.awaiting != ROUND_OVER and game.awaiting != GAME_OVER and steps < limit:
        game.apply(playout_action(game, game.legal_actions(), patient_seat))
        steps += 1


def round_value(game: Game, seat: int, point_scale: float) -> float:
    """How good a played-out round is for ``seat``, in [-1, 1]: a won or lost game is worth the
    most; otherwise the points the round's winner scored, for or against (R11.1), over
    ``point_scale``. A round cut short is scored as if the smallest hand had gone out."""
    winner = game.round_winner
    gain = sum(game.hand_points())
    if winner is None:
        sizes = game.hand_sizes()
        winner = 0
        for other in range(game.n):
            if sizes[other] < sizes[winner]:
                winner = other
        final = game.scores[winner] + gain
    else:
        final = game.scores[winner]
    if final >= game.options.target_score:
        return 1.0 if winner == seat else -1.0
    value = min(0.9, gain / point_scale)
    return value if winner == seat else -value


def deal(hidden: list[int], hands: list[list[int]], sizes: list[int], lacks: list[int], counts: list[int],
         rng: random.Random) -> None:
    """Shuffle the ``hidden`` cards and deal them into ``hands`` (which hold what is known already) up to
    ``sizes``; what is left of ``hidden`` is the stock. A seat read as lacking faces (``lacks``: a bit
    mask of faces) for ``counts`` of its cards gets that many it may hold first, if there are that many."""
    shuffle(rng, hidden)
    for seat in range(len(sizes)):
        count = counts[seat]
        if not count:
            continue
        mask = lacks[seat]
        picked: list[int] = []
        for i in range(len(hidden)):
            if not (mask >> hidden[i]) & 1:
                picked.append(i)
                if len(picked) == count:
                    break
        if len(picked) == count:  # otherwise the reading was wrong: deal freely
            hand = hands[seat]
            for i in picked:
                hand.append(hidden[i])
            for j in range(count - 1, -1, -1):
                hidden.pop(picked[j])
    for seat in range(len(sizes)):
        free = sizes[seat] - len(hands[seat])
        if free > 0:
            hand = hands[seat]
            for _ in range(free):
                hand.append(hidden.pop())


def play_candidates(view: Any, hands: list[list[int]], stock: list[int], candidates: list[Action], seat: int,
                    rng: random.Random, w4_guilty: bool, limit: int, point_scale: float) -> list[float]:
    """Each candidate played on the same deal (``hands`` and ``stock`` of ``view``'s position, never
    changed), the round played out (``seat`` patient) and valued for ``seat`` (``round_value``)."""
    values: list[float] = []
    for action in candidates:
        game = Game.from_view(view, [hand[:] for hand in hands], stock[:], rng, w4_guilty)
        game.apply(action)
        playout(game, limit, seat)
        values.append(round_value(game, seat, point_scale))
    return values
