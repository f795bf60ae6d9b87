"""The referee (rules/referee.py): one answer to "who is asked next", in turn and out of turn, for every face."""

import random

import pytest

from helpers.rules import play, table
from unokart import Game, IllegalAction
from unokart.rules.referee import Referee
from unokart.rules.states import GAME_OVER, ROUND_OVER

FORGETFUL = [["R1", "G2"], ["R6", "R7"], ["B6", "B7"]]
JUMP_HANDS = [["G6", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y2", "Y3"], ["RS", "Y4", "Y5"]]


def forgotten_uno() -> Referee:
    """Seat 0 plays down to one card without saying UNO; seat 1 is to act."""
    referee = Referee(table(FORGETFUL, "R5", ["Y1", "Y2", "Y3"], dealer=2))
    assert referee.seat == 0 and not referee.reacting and referee.asking() == (0,)
    referee.apply("0: play R1")
    return referee


def test_out_of_turn_seats_are_asked_from_the_left_of_the_opener_the_opener_last_then_the_seat_to_act():
    referee = forgotten_uno()
    assert referee.game.to_act == 1
    assert referee.asking() == (2, 0, 1)
    assert referee.seat == 2 and referee.reacting and [str(a) for a in referee.legal] == ["2: catch 0"]


def test_a_decline_passes_the_question_on_and_is_not_asked_again_in_the_moment():
    referee = forgotten_uno()
    version = referee.game.version
    referee.decline()
    assert referee.game.version == version  # a decline is no action: the game does not change
    assert referee.seat == 0 and referee.reacting and [str(a) for a in referee.legal] == ["0: uno"]
    referee.decline()
    assert referee.seat == 1 and not referee.reacting and referee.asking() == (1,)


def test_uno_and_catch_do_not_end_the_moment():
    referee = forgotten_uno()
    referee.decline()
    referee.apply("0: uno")
    assert referee.seat == 1 and not referee.reacting  # the window closed: nobody is left to ask
    caught = forgotten_uno()
    caught.apply("2: catch 0")
    assert caught.seat == 1 and caught.game.hand_sizes()[0] == 3


def test_an_out_of_turn_seat_may_speak_before_it_is_asked():
    referee = forgotten_uno()
    referee.apply("0: uno")  # seat 2 was being asked; the first valid word wins (R8.3)
    assert referee.seat == 1 and referee.asking() == (1,)


def test_a_turn_action_opens_a_new_moment_where_every_seat_is_asked_again():
    referee = Referee(table(JUMP_HANDS, "R5", dealer=3, jump_in=True))
    assert referee.asking() == (1, 2, 3, 0)  # from the dealer's left; being asked says nothing of a hand
    assert referee.reacting and referee.legal == ()
    for _ in range(3):
        referee.decline()
    assert referee.seat == 0 and not referee.reacting
    referee.apply("0: draw")
    assert referee.asking()[:3] == (2, 3, 0) and referee.seat == 2 and referee.reacting


def test_decline_idle_passes_over_seats_with_nothing_to_do_but_not_the_one_kept():
    referee = Referee(table(JUMP_HANDS, "R5", dealer=3, jump_in=True))
    referee.decline_idle(keep=1)
    assert referee.seat == 1
    referee.decline_idle()
    assert referee.seat == 2 and [str(a) for a in referee.legal] == ["2: jump R5"]


def test_the_seat_to_act_cannot_decline_and_the_refusal_names_what_it_owes():
    referee = Referee(table(FORGETFUL, "R5", ["Y1", "Y2", "Y3"], dealer=2))
    version = referee.game.version
    with pytest.raises(IllegalAction) as refused:
        referee.decline()
    assert refused.value.key == "core.refusal.expect.play" and refused.value.rule == "R4.1"
    assert referee.game.version == version and referee.seat == 0


def test_an_illegal_action_through_the_referee_changes_nothing():
    referee = forgotten_uno()
    with pytest.raises(IllegalAction, match="R2.1"):
        referee.apply("2: play B6")
    assert referee.asking() == (2, 0, 1) and referee.seat == 2


def test_nobody_is_asked_once_the_round_is_over_and_a_deal_opens_a_moment():
    referee = Referee(table([["R1"], ["R6"]], "R5", dealer=1))
    referee.apply("0: play R1")
    assert referee.game.awaiting == ROUND_OVER and referee.seat == -1 and referee.asking() == ()
    with pytest.raises(IllegalAction, match="R9.1"):
        referee.decline()
    referee.next_round()
    assert referee.seat == referee.game.to_act and referee.game.round == 2


def test_hand_points_are_what_the_round_winner_scores():
    rng = random.Random(5)
    for seed in range(4):
        referee = Referee(Game.new(3, seed=seed, options={"target_score": 100}))
        game = referee.game
        while game.awaiting != GAME_OVER:
            if game.awaiting == ROUND_OVER:
                end = [e for _, e in game.events if e["type"] == "round_end"][0]
                assert list(game.hand_points()) == end["hand_points"] and sum(game.hand_points()) == end["points"]
                referee.next_round()
                continue
            referee.decline_idle()
            legal = referee.legal
            referee.answer(rng.choice(legal) if not referee.reacting or rng.random() < 0.5 else None)


def test_would_change_says_whether_an_action_has_an_effect_and_changes_nothing():
    referee = forgotten_uno()
    game = referee.game
    assert game.would_change("2: catch 0")
    referee.apply("0: uno")
    version = game.version
    assert not game.would_change("2: catch 0")  # R8.3: a catch of a seat that said UNO does nothing
    with pytest.raises(IllegalAction, match="R2.1"):
        game.would_change("2: play B6")
    assert game.version == version
    game.apply("2: catch 0")  # accepted and recorded, without effect
    assert game.hand_sizes()[0] == 1 and str(game.actions[-1]) == "2: catch 0"


def test_the_core_hands_out_no_list_of_its_own():
    game = forgotten_uno().game
    legal = game.legal_actions(2)
    assert isinstance(legal, tuple) and legal is game.legal_actions(2)
    events = game.events
    assert isinstance(events, tuple) and len(events) == game.event_count()
    assert isinstance(game.hand_points(), tuple)


def test_a_referee_of_a_game_rebuilt_from_its_record_asks_as_the_first_one_did():
    referee = forgotten_uno()
    again = Referee(Game.from_record(referee.game.record()))
    assert again.asking() == referee.asking() == (2, 0, 1)
