"""ISMCTS playouts a second: the search as it is against the way it dealt before, in one run.

Collects decisions from heads-up games of ``careful`` against itself (turns
with more than one move worth searching), then plays ``--deals`` deals of every
candidate move at each, alternately the way search does now (one compiled
shuffle and deal per deal, shared by the candidates: bots/playout.py) and the
way it did before (``random.shuffle`` and a new game dealt in Python for every
candidate). Prints CPU time per playout and playouts a second for each, the
medians over ``--repeats`` alternating passes, and their ratio. Then whole
decisions of ``ismcts:<N>`` for each of ``--budgets`` (the race included, which
stops a decision early when no move gets ahead of the prior's): the median and
mean CPU time of a decision, and how many differ from the prior's move.

    python bench/bots_search.py [--positions 60] [--deals 50] [--repeats 7] [--budgets 400,800,1600]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from unokart import Game
from unokart.bots import make_bot
from unokart.bots.determinize import Determinizer
from unokart.bots.ismcts import PLAYOUT_LIMIT, POINT_SCALE, IsmctsBot, search_actions
from unokart.bots.playout import play_candidates, playout, round_value
from unokart.rules.states import GAME_OVER, ROUND_OVER


def positions(count: int, seed: int) -> list:
    """``count`` decisions with a choice, from heuristic play of ``careful`` against itself."""
    driver, found, game_seed = make_bot("careful"), [], seed
    rng = random.Random(seed)
    while len(found) < count:
        game = Game.new(2, seed=game_seed)
        game_seed += 1
        while game.awaiting not in (ROUND_OVER, GAME_OVER):
            seat = game.to_act
            legal = list(game.legal_actions(seat))
            candidates = search_actions(legal)
            if len(candidates) > 1 and rng.random() < 0.25:
                found.append((game.view(seat), candidates))
            game.apply(driver.choose(game.view(seat), legal, rng))
    return found[:count]


def old_sample(deal: Determinizer, rng: random.Random) -> Game:
    """A deal as search made one before: ``random.shuffle``, the hands dealt in Python."""
    view = deal.view
    hidden = deal.unseen[:]
    rng.shuffle(hidden)
    hands = [hand[:] for hand in deal.known]
    for seat, count in enumerate(deal.counts):
        if count:
            allowed = [i for i, f in enumerate(hidden) if not (deal.lacks[seat] >> f) & 1][:count]
            if len(allowed) == count:
                hands[seat] += [hidden[i] for i in allowed]
                for i in reversed(allowed):
                    del hidden[i]
    for seat, size in enumerate(view.hand_sizes):
        free = size - len(hands[seat])
        if free:
            hands[seat] += hidden[-free:]
            del hidden[len(hidden) - free:]
    return Game.from_view(view, hands, hidden, rng)


def before(found: list, deals: int) -> int:
    playouts = 0
    for view, candidates in found:
        deal = Determinizer(view)
        for seed in range(deals):
            for action in candidates:
                game = old_sample(deal, random.Random(seed))
                game.apply(action)
                playout(game, PLAYOUT_LIMIT, view.seat)
                round_value(game, view.seat, POINT_SCALE)
                playouts += 1
    return playouts


def now(found: list, deals: int) -> int:
    playouts, rng = 0, random.Random(0)
    for view, candidates in found:
        deal = Determinizer(view)
        for _ in range(deals):
            hands, stock, guilty = deal.cards(rng)
            play_candidates(view, hands, stock, candidates, view.seat, rng, guilty, PLAYOUT_LIMIT, POINT_SCALE)
            playouts += len(candidates)
    return playouts


def decisions(found: list, budgets: list[int]) -> None:
    prior = IsmctsBot(0)
    print(f"{'budget':>7} {'median ms':>10} {'mean ms':>8} {'not the prior':>14}")
    for budget in budgets:
        bot, rng, times, changed = IsmctsBot(budget), random.Random(1), [], 0
        for view, candidates in found:
            start = time.process_time()
            chosen = bot.choose(view, candidates, rng)
            times.append(time.process_time() - start)
            changed += chosen != prior.choose(view, candidates, random.Random(0))
        print(f"{budget:>7} {1000 * statistics.median(times):>10.2f} {1000 * statistics.mean(times):>8.2f} "
              f"{changed:>6} of {len(found)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60, help="decisions searched")
    parser.add_argument("--deals", type=int, default=50, help="deals per decision, each played by every candidate")
    parser.add_argument("--repeats", type=int, default=7, help="alternating passes of each way")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", default="400,800,1600", help="ISMCTS budgets whose decisions are timed")
    args = parser.parse_args()
    found = positions(args.positions, args.seed)
    times: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(args.repeats):
        for name, way in (("before", before), ("now", now)):
            start = time.process_time()
            count = way(found, args.deals)
            times[name].append((time.process_time() - start) / count)
    print(f"{len(found)} decisions, {statistics.mean(len(c) for _, c in found):.2f} candidates on average, "
          f"{args.deals} deals each, {args.repeats} passes (CPU time, medians)")
    for name, per in times.items():
        median = statistics.median(per)
        print(f"{name:>7}: {1e6 * median:7.1f} us a playout, {1 / median:8.0f} playouts a second")
    ratio = statistics.median(times["before"]) / statistics.median(times["now"])
    print(f"  ratio: {ratio:.2f} times the playouts a second")
    decisions(found, [int(b) for b in args.budgets.split(",")])


if __name__ == "__main__":
    main()
