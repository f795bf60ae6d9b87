"""Information-Set Monte Carlo search: the strongest bot.

Two parts. A prior: the heuristic's choices, made patient and sharpened by
what the view tells (its plays are ``careful``'s, bots/careful.py). It keeps
its wilds for its last card and its action cards and big cards until an
opponent is down to one card (the heuristic lets them go at two), and it
accepts a Wild Draw Four unless it was itself about to go out, since only then
has a careful player a reason to bluff (the heuristic reckons the odds as if
the culprit's hand were random). A player who drew rather than played lacks
the colour then asked for (knowledge.hand_voids), so colours it lacks are
worth leading and choosing, and points are shed when it is about to go out.

Then search: each iteration deals the cards this seat cannot see at random,
consistent with its view (hand sizes, the discard pile, the voids above, the
cards a challenged player showed it), and plays every candidate move on that
same deal, the round then played out with the heuristic's choices
(bots/playout.py), this seat's patient as it will play them. Sharing deals between moves (common random numbers) leaves the
differences to the moves, not the cards. The prior's move is kept unless a
searched one beats it by ``CONFIDENCE`` standard errors: round outcomes are
noisy, and a move chosen for a lucky estimate loses more than search wins.
The search is a race: a move not ahead of the prior's at a quarter of the
budget is dropped and its playouts go to the others; with none left the prior's
move stands, so most decisions cost a quarter of their budget
(docs/measurements/search.md).
"""

from __future__ import annotations

import math
import random
import time

from ..rules import Action, View
from ..rules import actions as A
from .careful import LEAD_LACKED, CarefulBot
from .determinize import Determinizer
from .heuristic import HeuristicBot
from .knowledge import next_seat_lacks
from .playout import THREAT, color_scores, play_candidates

DEFAULT_ITERATIONS = 400  # playouts per decision at most, shared between the candidate moves still racing
PLAYOUT_LIMIT = 400  # actions; a round still running then is scored by hand sizes
POINT_SCALE = 200.0  # round points worth as much as a whole game
CONFIDENCE = 3.0  # standard errors by which a searched move must beat the prior's (several moves are compared at once)
MIN_DEALS = 8  # deals before a candidate may be dropped from the race

_FREE_WORDS = (A.UNO, A.CATCH, A.JUMP)


def search_actions(legal: list[Action]) -> list[Action]:
    """The turn actions worth searching: no free words, and every play that can say UNO does."""
    turn = [a for a in legal if a.verb not in _FREE_WORDS]
    if any(a.uno for a in turn):
        turn = [a for a in turn if a.uno or a.verb != A.PLAY]
    return turn


class IsmctsBot(CarefulBot):
    """Searches its budget of playouts per decision on top of an informed prior. The free words
    (UNO, catches, jump-ins) and forced moves are the heuristic's, without search."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, milliseconds: int | None = None):
        """A budget of ``iterations`` playouts per decision (reproducible; 0: the prior alone, no search),
        or of ``milliseconds`` of wall time (as many playouts as fit: stronger on a faster machine, not
        reproducible)."""
        if iterations < 0 or (milliseconds is not None and milliseconds < 1):
            raise ValueError("the ISMCTS budget must be at least 0 iterations (the prior alone) or 1 millisecond")
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
        # The heuristic's decisions, taken with this bot's pick_play, pick_color and challenges: the prior.
        prior = HeuristicBot.choose(self, view, candidates, rng)
        if prior not in candidates:
            prior = candidates[0]
        if self.iterations == 0 and self.milliseconds is None:
            return prior
        return self.search(view, candidates, candidates.index(prior), rng)

    def search(self, view: View, candidates: list[Action], default: int, rng: random.Random) -> Action:
        """Every candidate is tried on the same deals (common random numbers): the differences
        between candidates then come from the moves, not from the luck of the deal (only a stock
        reshuffled within a playout, drawn from the one ``rng``, differs). The ``default``
        candidate (the prior's) stands unless another clearly beats it.

        A race: every quarter of the budget, a candidate not ahead of the default so far is
        dropped, and its playouts go to those still in the race; when none is left, the default
        stands at once. A candidate behind at a quarter seldom ends ``CONFIDENCE`` standard errors
        ahead, so little is lost, and most decisions (the prior is mostly right) cost a quarter."""
        deal = Determinizer(view)
        seat, k = view.seat, len(candidates)
        assert seat is not None
        gains = [0.0] * k  # summed over the deals a candidate played: its value less the default's
        squares = [0.0] * k
        alive = [i for i in range(k) if i != default]
        deadline = time.perf_counter() + self.milliseconds / 1000 if self.milliseconds else None
        every = max(MIN_DEALS, self.iterations // k // 4) if deadline is None else MIN_DEALS
        done = spent = 0  # deals, and playouts
        while alive and ((spent < self.iterations or done < 2) if deadline is None
                         else (done < 2 or time.perf_counter() < deadline)):
            hands, stock, guilty = deal.cards(rng)  # dealt once, played by every candidate still racing
            racing = [candidates[default]] + [candidates[i] for i in alive]
            values = play_candidates(view, hands, stock, racing, seat, rng, guilty, PLAYOUT_LIMIT, POINT_SCALE)
            for i, value in zip(alive, values[1:]):
                gains[i] += value - values[0]
                squares[i] += (value - values[0]) ** 2
            done += 1
            spent += len(racing)
            if done % every == 0:
                alive = [i for i in alive if _score(gains[i], squares[i], done) > 0.0]
        best, best_score = default, CONFIDENCE
        for i in alive:  # each has played every deal
            score = _score(gains[i], squares[i], done)
            if score > best_score:
                best, best_score = i, score
        return candidates[best]

    # ------------------------------------------------------------------ the prior
    def challenges(self, view: View) -> bool:
        """A careful player bluffs a Wild Draw Four only to stop a player about to go out."""
        return view.hand_sizes[view.own_seat] <= THREAT and HeuristicBot.challenges(self, view)

    def pick_play(self, view: View, plays: list[Action]) -> Action:
        return self.read_play(view, plays)  # its wild's colour as read_play chose it, no cards counted

    def pick_color(self, view: View) -> int:
        """The colour held most, counting a colour the next seat lacks as worth more."""
        lacks = next_seat_lacks(view)
        score = color_scores(view.hand)
        return max(range(4), key=lambda c: score[c] + (LEAD_LACKED * lacks[c] if score[c] else 0.0))


def _score(gain: float, square: float, deals: int) -> float:
    """How many standard errors a candidate's mean gain over the default is above zero."""
    mean = gain / deals
    spread = math.sqrt(max(square / deals - mean * mean, 1e-12) / max(1, deals - 1))
    return mean / spread
