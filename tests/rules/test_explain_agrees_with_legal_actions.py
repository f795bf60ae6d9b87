"""refusals.explain says why legal_actions refused an action; it never decides legality itself (issue 23). Over
seeded games under every house rule, each refused action's explanation is one that legal_actions bears out."""

from __future__ import annotations

import random

from test_refusals_carry_keys import OPTION_SETS, _candidates

from unokart import Game
from unokart.rules.refusals import explain
from unokart.rules.states import GAME_OVER, ROUND_OVER

TURN_KEYS = ("no_match", "only_drawn", "must_play_drawn", "stack_only_w4", "stack_only_d2", "challenge_first",
             "not_yourself")


def _borne_out(game: Game, action, key: str) -> bool:
    """Whether what ``key`` says of ``action`` is what legal_actions and the engine's gates show."""
    seat, legal = action.seat, game.legal_actions(action.seat)
    same_verb = [a for a in legal if a.verb == action.verb]
    if key == "not_your_turn":
        return seat != game.to_act and not same_verb
    if key.startswith("expect.") or key in TURN_KEYS:
        return seat == game.to_act and action not in legal
    if key == "uno_not_last":
        return action.uno and not game.uno_with_play(seat)
    if key in ("uno_not_one_card", "uno_already", "uno_window_closed"):
        return game.uno_open() != seat and not same_verb
    if key == "catch_self":
        return action.target == seat
    if key == "not_in_hand":
        return action.card not in game.hand(seat) and action not in legal
    if key.startswith("jump_"):
        return action not in legal and (key in ("jump_not_identical", "jump_wild") or not game.may_jump(seat))
    return key == "no_such_seat"


def test_every_refusal_explain_gives_is_borne_out_by_legal_actions():
    checked = set()
    for index, options in enumerate(OPTION_SETS):
        for players in (2, 4):
            rng = random.Random(index * 10 + players)
            game = Game.new(players, seed=index * 10 + players, options={**options, "target_score": 150})
            for step in range(250):
                if game.awaiting == GAME_OVER:
                    break
                if game.awaiting == ROUND_OVER:
                    game.next_round()
                    continue
                if step % 3 == 0:
                    legal = {a for s in range(game.n) for a in game.legal_actions(s)}
                    for action in _candidates(game):
                        if action in legal or action.verb == "catch" and action.target != action.seat:
                            continue  # legal, or a catch of another seat: accepted with no effect (R8.3)
                        key = getattr(explain(game, action), "key", "").removeprefix("core.refusal.")
                        if key:
                            assert _borne_out(game, action, key), (str(action), key, game)
                            checked.add(key)
                acts = [a for s in range(game.n) for a in game.legal_actions(s)]
                game.apply(rng.choice(acts if rng.random() < 0.2 else list(game.legal_actions()) or acts))
    assert len(checked) >= 20, sorted(checked)  # most kinds of refusal were met
