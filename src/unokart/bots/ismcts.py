"""Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration deals the cards this seat cannot see at random (a
determinization consistent with its view), walks the one shared tree with
UCB restricted to the actions legal in that deal, adds one node, then plays
the round out with the heuristic's policy and backs up who won it, by how much.
Opponents' hands follow what their draws and Wild Draw Fours suggest they lack
(knowledge.hand_voids).
"""

from __future__ import annotations

import math
import random
import time

from ..rules import Action, Game, View
from ..rules import actions as A
from ..rules.cards import FACE_COLOR, FACE_POINTS, WILD_DRAW_FOUR
from .determinize import Determinizer
from .heuristic import HeuristicBot, best_color, best_play

DEFAULT_ITERATIONS = 200
EXPLORATION = 0.7
ROLLOUT_LIMIT = 400  # actions; a round still running then is scored by hand sizes
WIN_SHARE, LOSS_SHARE, POINT_SCALE = 0.7, 0.3, 150.0  # a round's value: win, then points

_FREE_WORDS = (A.UNO, A.CATCH, A.JUMP)
_OVER = ("round_over", "game_over")


def search_actions(legal: list[Action]) -> list[Action]:
    """The turn actions worth searching: no free words, and every play that can say UNO does."""
    turn = [a for a in legal if a.verb not in _FREE_WORDS]
    if any(a.uno for a in turn):
        turn = [a for a in turn if a.uno or a.verb != A.PLAY]
    return turn


def rollout_action(game: Game, legal: list[Action]) -> Action:
    """The rollout policy: the heuristic's choices, read straight from the game (no views)."""
    seat = game.to_act
    hand = game.hands[seat]
    awaiting = game.awaiting
    if awaiting == "color":
        color = best_color(hand)
        return next(a for a in legal if a.color == color)
    if awaiting == "target" or awaiting == "swap":
        victim = min((s for s in range(game.n) if s != seat), key=lambda s: len(game.hands[s]))
        return next(a for a in legal if a.target == victim)
    needs_uno = len(hand) == 2
    plays = [a for a in legal if a.verb == A.PLAY and (a.uno or not needs_uno)]
    if awaiting == "drawn" and plays and plays[0].card == WILD_DRAW_FOUR:
        plays = [] if any(f < 52 and FACE_COLOR[f] == game.color for f in hand) else plays
    if plays:
        return best_play(plays, hand, seat, game.direction, [len(h) for h in game.hands], game.color)
    for action in legal:
        if action.verb in (A.DRAW, A.PASS, A.ACCEPT):
            return action
    return legal[0]


class _Node:
    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


class IsmctsBot(HeuristicBot):
    """Searches its budget of determinizations per decision, then keeps the heuristic's move
    unless a searched one looks clearly better. The free words (UNO, catches, jump-ins) and
    forced moves are the heuristic's, without search."""

    margin = 0.03  # how much better than the heuristic's move a searched move must look

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, milliseconds: int | None = None):
        """A budget of ``iterations`` per decision (reproducible), or of ``milliseconds`` of wall
        time (as many iterations as fit: stronger on a faster machine, not reproducible)."""
        if iterations < 1 or (milliseconds is not None and milliseconds < 1):
            raise ValueError("the ISMCTS budget must be at least 1 iteration or 1 millisecond")
        self.iterations = iterations
        self.milliseconds = milliseconds
        if milliseconds is not None:
            self.name = f"ismcts:{milliseconds}ms"
        else:
            self.name = "ismcts" if iterations == DEFAULT_ITERATIONS else f"ismcts:{iterations}"

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        if view.seat != view.to_act or any(a.verb in (A.UNO, A.CATCH) for a in legal_actions):
            return super().choose(view, legal_actions, rng)
        candidates = search_actions(legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, rng)

    def search(self, view: View, candidates: list[Action], rng: random.Random) -> Action:
        root = _Node()
        deal = Determinizer(view)
        log = math.log
        deadline = time.perf_counter() + self.milliseconds / 1000 if self.milliseconds else None
        iteration = 0
        while (iteration < self.iterations) if deadline is None else (iteration == 0 or time.perf_counter() < deadline):
            iteration += 1
            game = deal.sample(rng)
            node, path = root, []
            while game.awaiting not in _OVER:
                legal = search_actions(game.legal_actions())
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    for other in legal:
                        if other in children:
                            children[other].available += 1
                    child = children[action] = _Node()
                    child.available = 1
                    path.append((game.to_act, child))
                    game.apply(action)
                    break
                best, best_value = None, -1.0
                for other in legal:
                    child = children[other]
                    child.available += 1
                    value = child.reward / child.visits + EXPLORATION * math.sqrt(log(child.available) / child.visits)
                    if value > best_value:
                        best, best_value = other, value
                path.append((game.to_act, children[best]))
                node = children[best]
                game.apply(best)
            rewards = self.rollout(game)
            for seat, child in path:
                child.visits += 1
                child.reward += rewards[seat]
        return self.final_choice(view, candidates, root, rng)

    def final_choice(self, view: View, candidates: list[Action], root: "_Node", rng: random.Random) -> Action:
        """The heuristic's move, unless the search found one clearly better: round values are
        noisy, and small differences between moves are mostly noise."""
        default = HeuristicBot.choose(self, view, candidates, rng)

        def visits(action: Action) -> int:
            child = root.children.get(action)
            return child.visits if child is not None else 0

        def mean(action: Action) -> float:
            child = root.children.get(action)
            return child.reward / child.visits if child is not None and child.visits else -1.0

        best = max(candidates, key=lambda a: (visits(a), a is default))  # the most searched: the most trusted
        return best if mean(best) > mean(default) + self.margin else default

    @staticmethod
    def rollout(game: Game) -> list[float]:
        """Play the round out with the heuristic's policy and value it for every seat
        (the smallest hand wins a round cut short)."""
        steps = 0
        while game.awaiting not in _OVER and steps < ROLLOUT_LIMIT:
            game.apply(rollout_action(game, game.legal_actions()))
            steps += 1
        hands = game.hands
        if game.round_winner is not None:
            winner = game.round_winner
        else:
            winner = min(range(game.n), key=lambda s: len(hands[s]))
        # Winning is most of the value; points scored (or conceded) are the rest (R11.1).
        points = [sum(FACE_POINTS[f] for f in hand) for hand in hands]
        rewards = [LOSS_SHARE * max(0.0, 1.0 - p / POINT_SCALE) for p in points]
        rewards[winner] = WIN_SHARE + (1.0 - WIN_SHARE) * min(1.0, sum(points) / POINT_SCALE)
        return rewards
