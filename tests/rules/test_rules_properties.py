"""Properties over thousands of seeded random games: every player count 2 to 10, every R12 option.

Random play here is biased towards playing (and sometimes lets another seat act out of turn: UNO,
catch, jump-in) so rounds stay short; every game is reproducible from its seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokart import Action, Game, IllegalAction, NotationError
from unokart.rules.cards import FACE_CODE, FULL_DECK

PLAYERS = range(2, 11)
BOOLEAN_OPTIONS = ("stacking", "draw_until_playable", "force_play", "jump_in", "seven_zero")
OPTION_SETS = {
    "none": {},
    **{name: {name: True} for name in BOOLEAN_OPTIONS},
    "all": {name: True for name in BOOLEAN_OPTIONS},
    "small_hands_low_target": {"hand_size": 3, "target_score": 60},
}
FULL_SORTED = sorted(FULL_DECK)
MAX_STEPS_PER_ROUND = 20_000
CODES = set(FACE_CODE)


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action: usually the deciding seat's, preferring plays; sometimes an out-of-turn one."""
    if rng.random() < 0.15:
        others = [a for s in range(game.n) if s != game.to_act for a in game.legal_actions(s)]
        if others:
            return rng.choice(others)
    acts = game.legal_actions()
    plays = [a for a in acts if a.verb not in ("draw", "pass", "accept")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(acts)


def play_game(players: int, options: dict, seed: int, rounds: int = 2, on_step=None) -> Game:
    """Play up to ``rounds`` rounds at random; ``on_step(game)`` runs before every action."""
    game = Game.new(players, seed=seed, options=options)
    rng = random.Random(seed)
    while True:
        steps = 0
        while game.awaiting not in ("round_over", "game_over"):
            if on_step:
                on_step(game, rng)
            game.apply(choose(game, rng))
            steps += 1
            assert steps < MAX_STEPS_PER_ROUND, f"round {game.round} of seed {seed} does not end"
        if on_step:
            on_step(game, rng)
        if game.awaiting == "game_over" or game.round >= rounds:
            return game
        game.next_round()


def all_cards(game: Game) -> list[int]:
    return sorted([f for h in game._hands for f in h] + game._stock + game._discard)


# ---------------------------------------------------------------- conservation, liveness, termination
@pytest.mark.parametrize("option_name", list(OPTION_SETS))
def test_property_all_112_cards_are_somewhere_the_decider_can_act_and_every_round_ends(option_name):
    def check(game, rng):
        assert all_cards(game) == FULL_SORTED
        if game.awaiting in ("round_over", "game_over"):
            assert game.to_act is None and game.legal_actions() == ()
            return
        assert game.legal_actions(), f"seat {game.to_act} has no legal action ({game.awaiting})"
        for seat in range(game.n):  # others may only speak out of turn
            if seat != game.to_act:
                assert {a.verb for a in game.legal_actions(seat)} <= {"uno", "catch", "jump"}

    rounds = 0
    for players in PLAYERS:
        for seed in range(12):
            game = play_game(players, OPTION_SETS[option_name], 100 * players + seed, on_step=check)
            rounds += game.round
    assert rounds >= 9 * 12


# ---------------------------------------------------------------- illegal actions change nothing
def random_candidate(game: Game, rng: random.Random) -> "Action | str":
    """Any action at all, mostly well-formed, sometimes text that is not notation."""
    if rng.random() < 0.1:
        return rng.choice(["", "x", "1 play R5", "1: fly", "1: play", "1: play Q9", "-1: draw", "1: play W+4",
                           "1: color P", "1: target me", "1: draw now", "1: play R5 G", "²: draw", "1: play WIB R"])
    seat = rng.randrange(-1, game.n + 1)
    verb = rng.choice(("play", "jump", "draw", "pass", "challenge", "accept", "color", "target", "uno", "catch", "swap"))
    card = rng.randrange(54) if verb in ("play", "jump") else -1
    color = rng.randrange(4) if verb == "color" or card == 52 else -1
    target = rng.randrange(-1, game.n + 1) if verb in ("target", "catch", "swap") else -1
    return Action(seat, verb, card, color, target, rng.random() < 0.2 and verb in ("play", "jump"))


def snapshot(game: Game):
    return game.state(), list(game.actions), game.version, len(game.events), [h[:] for h in game._hands], game._stock[:]


def test_property_an_illegal_action_changes_nothing_and_names_the_rule():
    tried = refused = 0

    def check(game, rng):
        nonlocal tried, refused
        for _ in range(3):
            candidate = random_candidate(game, rng)
            if isinstance(candidate, Action) and 0 <= candidate.seat < game.n and candidate in game.legal_actions(candidate.seat):
                continue
            before = snapshot(game)
            tried += 1
            try:
                game.apply(candidate)
            except IllegalAction as err:
                refused += 1
                assert err.rule.startswith("R"), err
                assert str(err).startswith(err.rule + " ")
                assert snapshot(game) == before
                continue
            except NotationError as err:
                refused += 1
                assert str(err)
                assert snapshot(game) == before
                continue
            # Accepted although not listed: only a catch that has no effect (R8.3), which is recorded.
            assert candidate.verb == "catch", candidate
            after = snapshot(game)
            assert after[0] == before[0] and after[4] == before[4] and after[5] == before[5]
            assert after[1] == before[1] + [candidate] and after[2] == before[2] + 1

    for option_name in ("none", "all", "seven_zero", "jump_in"):
        for players in PLAYERS:
            play_game(players, OPTION_SETS[option_name], 7 * players, rounds=1, on_step=check)
    assert refused > 0.8 * tried and tried > 1000


def test_property_every_legal_action_is_accepted():
    def check(game, rng):
        if rng.random() < 0.3 and game.to_act is not None:
            for seat in {game.to_act, rng.randrange(game.n)}:
                for action in game.legal_actions(seat):
                    trial = game.copy()
                    trial.apply(action)
                    assert trial.version == game.version + 1
                    if action.verb == "catch":  # R8.3: only catches that count are listed: the target draws
                        penalty = trial.state()["hands"][action.target][1:]
                        assert trial.events[-1][1] == {"type": "drew", "seat": action.target, "cards": penalty}

    for option_name in OPTION_SETS:
        for players in (2, 3, 5, 10):
            play_game(players, OPTION_SETS[option_name], 31 * players, rounds=1, on_step=check)


# ---------------------------------------------------------------- replay
@pytest.mark.parametrize("option_name", list(OPTION_SETS))
def test_property_a_game_replayed_from_its_record_reaches_the_identical_state(option_name):
    for players in PLAYERS:
        for seed in range(5):
            game = play_game(players, OPTION_SETS[option_name], 17 * players + seed, rounds=3)
            record = game.record()
            replayed = Game.from_record(record)
            assert replayed.state() == game.state()
            assert replayed.events == game.events and replayed.version == game.version
            assert replayed.record() == record


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 10),
       options=st.fixed_dictionaries({name: st.booleans() for name in BOOLEAN_OPTIONS}),
       cut=st.integers(0, 400))
def test_property_a_copy_mid_game_plays_on_exactly_like_the_original(seed, players, options, cut):
    game = Game.new(players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(cut):
        if game.awaiting in ("round_over", "game_over"):
            break
        game.apply(choose(game, rng))
    twin = game.copy()
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(200):
        if game.awaiting in ("round_over", "game_over"):
            break
        game.apply(choose(game, rng_a))
        twin.apply(choose(twin, rng_b))
    assert twin.state() == game.state() and twin.record() == game.record()


# ---------------------------------------------------------------- hidden information
# Events that carry cards anyone may see (played, turned), and those only their addressees may see.
PUBLIC_CARD_FIELDS = {"play": "card", "jump_in": "card", "item": "card", "first_card": "card", "first_card_returned": "card"}
PRIVATE_CARD_EVENTS = {"deal", "drew", "hand", "reveal"}


def cards_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value in CODES else []
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in cards_in(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    return []


def check_event_addressing(to, event):
    """Every event carrying a hidden card goes to exactly the seats that may see it."""
    kind = event["type"]
    if kind in PRIVATE_CARD_EVENTS:
        expected = (event["to"], event["seat"]) if kind == "reveal" else (event["seat"],)
        assert to is not None and set(to) == set(expected), event
        return
    public_field = PUBLIC_CARD_FIELDS.get(kind)
    hidden = cards_in({k: v for k, v in event.items() if k != public_field})
    assert not hidden, f"{kind} event shows cards {hidden}: {event}"


def check_views(game: Game) -> None:
    for seat in range(game.n):
        data = game.view(seat).to_json()
        for other, shown in enumerate(data["hands"]):
            if other == seat:
                assert shown == [FACE_CODE[f] for f in game.hand(seat)]
            else:
                assert shown == len(game.hand(other))
        if data["drawn"] is not None:
            assert game.awaiting == "drawn" and seat == game.to_act and FACE_CODE.index(data["drawn"]) in game.hand(seat)
        for event in game.view(seat).events:
            if event["type"] in PRIVATE_CARD_EVENTS:
                assert seat in ((event["to"], event["seat"]) if event["type"] == "reveal" else (event["seat"],))
    spectator = game.view(None).to_json()
    assert all(isinstance(h, int) for h in spectator["hands"]) and spectator["drawn"] is None
    assert all(e["type"] not in PRIVATE_CARD_EVENTS for e in game.view(None).events)


@pytest.mark.parametrize("option_name", ["none", "all", "seven_zero", "stacking", "small_hands_low_target"])
def test_property_no_view_ever_shows_another_seats_hidden_card(option_name):
    checked = {"events": None, "count": 0}

    def check(game, rng):
        check_views(game)
        if checked["events"] is not game.events:  # a new round: a new event list
            checked["events"], checked["count"] = game.events, 0
        for to, event in game.events[checked["count"]:]:
            check_event_addressing(to, event)
        checked["count"] = len(game.events)

    for players in PLAYERS:
        for seed in range(3):
            play_game(players, OPTION_SETS[option_name], 53 * players + seed, rounds=1, on_step=check)


def test_property_challenge_reveals_happen_and_reach_only_challenger_and_culprit():
    reveals = 0
    for players in PLAYERS:
        for seed in range(15):
            game = play_game(players, {}, 71 * players + seed, rounds=1)
            for to, event in game.events:
                if event["type"] == "reveal":
                    reveals += 1
                    assert set(to) == {event["to"], event["seat"]}
                    for seat in range(players):
                        visible = event in game.events_for(seat)
                        assert visible == (seat in (event["to"], event["seat"]))
                    assert event not in game.events_for(None)
    assert reveals > 0


def test_property_a_view_holds_nothing_its_seat_may_not_see():
    """Not only what a view shows: nothing reachable from its attributes is another seat's private event."""
    def check(game, rng):
        for seat in (None, *range(game.n)):
            view = game.view(seat)
            for name in type(view).__slots__:
                value = getattr(view, name)
                if isinstance(value, list):
                    for item in value:
                        assert not isinstance(item, tuple), f"view.{name} holds addressed events"
                        if isinstance(item, dict) and item.get("type") in PRIVATE_CARD_EVENTS:
                            assert seat in ((item["to"], item["seat"]) if item["type"] == "reveal" else (item["seat"],))

    for option_name in ("none", "seven_zero"):
        for players in (2, 4, 7):
            play_game(players, OPTION_SETS[option_name], 97 * players, rounds=1, on_step=check)
