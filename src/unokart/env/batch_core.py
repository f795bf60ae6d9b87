"""The batched environment's inner loop: many games stepped in one call, compiled with mypyc (setup.py).

Each ``Slot`` is one game of a ``BatchEnv`` with the AEC env's turn order
(docs/ENV.md, "Out of turn"): the same deciding seat, mask, observation and
rewards, decision by decision. Each seat has its own ``SeatRows``: its
observation row and mask row as byte buffers (``librt.vecs`` ``vec[u8]``,
which mypyc reads and stores natively; a ``bytearray`` store is a CPython
call), updated only where they changed since that seat last decided (between
two of its decisions a seat's hand changes by a card or two, and only that
part of it is counted again; one row shared by all seats would be rewritten
whole at every change of seat). Every entry of the observation is a small
whole number but the scores and the stock's fraction: the row holds the
stock's size, and each raw score in two extra bytes after the 297.
``BatchEnv`` widens the deciding seats' rows into its float32 and bool arrays
in one numpy pass per step (the buffers are read through the buffer protocol).
No numpy here: mypyc compiles lists, vecs and ints natively, numpy only as
generic Python calls.
"""

from __future__ import annotations

import random
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import u8

from ..i18n import t
from ..rules import actions as A
from ..rules.actions import Action, make
from ..rules.cards import N_FACES as FACES, WILD_DRAW_FOUR, WILD_ITEM_BOX
from ..rules.engine import Game
from ..rules.referee import Referee
from ..rules.states import AWAIT_PLAY, AWAITING, GAME_OVER, ROUND_OVER
from ..rules.options import Options
from ..rules.view import View
from . import actions as IX
from .layout import LAYOUT, OBS_SIZE as _OBS_SIZE

N_FACES: Final = FACES
MAX_PLAYERS: Final = IX.MAX_PLAYERS
N_ACTIONS: Final = IX.N_ACTIONS
DECLINE: Final = IX.DECLINE
OBS_SIZE: Final = _OBS_SIZE
SCORES_AT: Final = OBS_SIZE + 1  # after a pad byte: BatchEnv reads the raw scores as aligned uint16
ROW_SIZE: Final = SCORES_AT + 2 * MAX_PLAYERS  # the observation, a pad byte, the raw scores


def _at(part: str) -> int:
    """Where a part of the observation starts (typed: the compiled writer adds offsets as native ints)."""
    start: int = LAYOUT[part].start
    return start


# Offsets of the observation's parts (env/layout.py), held in compiled statics.
HAND: Final = _at("hand")
TOP: Final = _at("top")
COLOR: Final = _at("color")
DISCARD: Final = _at("discard")
SIZES: Final = _at("hand_sizes")
SEATED: Final = _at("seated")
SCORES: Final = _at("scores")
UNO_SAID: Final = _at("uno_said")
WINDOW: Final = _at("uno_window")
TO_ACT: Final = _at("to_act")
AWAITING_AT: Final = _at("awaiting")
DIRECTION: Final = _at("direction")
PENDING: Final = _at("pending")
STOCK: Final = _at("stock")
DRAWN_AT: Final = _at("drawn")
COVERED: Final = _at("covered_color")
REACTING: Final = _at("reacting")


def _index(action: Action) -> int:
    return IX.index_of_action(action, 2)


# The action indices (env/actions.py), read off its own table once: a play's index by face (a Wild Draw
# Four's for red, the colour added), with and without UNO; a jump's; each verb's; an offset verb's for offset 0.
_PLAY_AT: Final = [_index(make(0, A.PLAY, f, 0 if f == WILD_DRAW_FOUR else -1)) for f in range(FACES)]
_PLAY_UNO_AT: Final = [_index(make(0, A.PLAY, f, 0 if f == WILD_DRAW_FOUR else -1, uno=True)) for f in range(FACES)]
_JUMP_AT: Final = IX.JUMP
_JUMP_UNO_AT: Final = IX.JUMP_UNO
_DRAW_AT: Final = _index(make(0, A.DRAW))
_PASS_AT: Final = _index(make(0, A.PASS))
_CHALLENGE_AT: Final = _index(make(0, A.CHALLENGE))
_ACCEPT_AT: Final = _index(make(0, A.ACCEPT))
_COLOR_AT: Final = _index(make(0, A.COLOR, color=0))
_UNO_AT: Final = _index(make(0, A.UNO))
_TARGET_AT: Final = _index(make(0, A.TARGET, target=1)) - 1
_SWAP_AT: Final = _index(make(0, A.SWAP, target=1)) - 1
_CATCH_AT: Final = _index(make(0, A.CATCH, target=1)) - 1


def action_index(a: Action, players: int) -> int:
    """The env's index of a core action (docs/ENV.md), from the tables above: no hashing of the action."""
    verb = a.verb
    if verb == A.PLAY:
        card = a.card
        at = _PLAY_UNO_AT[card] if a.uno else _PLAY_AT[card]
        return at + a.color if card == WILD_DRAW_FOUR else at
    if verb == A.DRAW:
        return _DRAW_AT
    if verb == A.ACCEPT:
        return _ACCEPT_AT
    if verb == A.PASS:
        return _PASS_AT
    if verb == A.CHALLENGE:
        return _CHALLENGE_AT
    if verb == A.COLOR:
        return _COLOR_AT + a.color
    if verb == A.UNO:
        return _UNO_AT
    if verb == A.JUMP:
        return (_JUMP_UNO_AT if a.uno else _JUMP_AT) + a.card
    offset = (a.target - a.seat) % players
    if verb == A.CATCH:
        return _CATCH_AT + offset
    if verb == A.TARGET:
        return _TARGET_AT + offset
    return _SWAP_AT + offset  # swap


class Slot:
    """One game of the batch, its deciding seat, and its rows of the batch's arrays."""

    players: int
    options: Options
    round_reward: bool
    reward_scale: float
    max_steps: int
    keep_events: bool
    learner: int
    bots: list[Any]
    actions: tuple[tuple[Action | None, ...], ...]
    game: Game
    referee: Referee
    seed_source: random.Random
    bot_rng: random.Random
    steps: int
    seat: int
    shown_seat: int     # what the batch's seat array holds for this game
    reacting: bool
    legal: tuple[Action, ...]
    covered: int
    truncated: bool
    final_rewards: list[float]
    views: list[SeatRows]   # each seat's rows
    glance: View | None     # the last written seat's view, refreshed in place

    def __init__(self, players: int, options: Options, round_reward: bool, reward_scale: float, max_steps: int,
                 keep_events: bool, learner: int, bots: list[Any], actions: tuple[tuple[Action | None, ...], ...]) -> None:
        self.players = players
        self.options = options
        self.round_reward = round_reward
        self.reward_scale = reward_scale
        self.max_steps = max_steps
        self.keep_events = keep_events
        self.learner = learner  # -1: every seat is played by the caller (self-play)
        self.bots = bots        # bots[seat] for the other seats when a learner is set
        self.actions = actions
        self.views = [SeatRows(players) for _ in range(players)]
        self.glance = None
        self.seed_source = random.Random()
        self.bot_rng = random.Random()
        self.final_rewards = [0.0] * players
        self.truncated = False
        self.legal = ()
        self.reacting = False
        self.seat = 0
        self.shown_seat = -1

    # ------------------------------------------------------------------ episodes
    def start(self, seed: int, reseed: bool = True) -> None:
        """A new episode from ``seed`` (as ``raw_env.reset(seed)``; with a learner, as ``SingleAgentEnv.reset``)."""
        self.bot_rng.seed(seed)
        while True:
            if reseed:
                self.seed_source.seed(seed)
            reseed = True
            self._deal(seed)
            if self.learner < 0 or self._play_bots():
                break
            seed += 1  # the round ended before the learner's first decision: deal again (SingleAgentEnv)
        self._write()

    def restart(self) -> None:
        """The next episode, its seed drawn from this slot's seed source (as ``raw_env.reset()``)."""
        self.start(self.seed_source.getrandbits(63), False)

    def _deal(self, seed: int) -> None:
        game = Game.new(self.players, seed=seed, options=self.options, log_events=self.keep_events)
        self.game = game
        self.referee = Referee(game)
        self.steps = 0
        self.covered = -1
        self.truncated = False
        self._select()

    def replace_game(self, game: Game) -> None:
        """Go on with ``game`` under the same moment (tests swap in a copy with the hidden cards re-dealt)."""
        self.game = self.referee.game = game
        self.referee.refresh()
        self._select()

    # ------------------------------------------------------------------ turn order: the referee's
    def _select(self) -> None:
        referee = self.referee
        self.seat = referee.seat
        self.reacting = referee.reacting
        self.legal = referee.legal

    # ------------------------------------------------------------------ a decision
    def act(self, index: int) -> bool:
        """Apply the deciding seat's action index; True when the episode ended (``final_rewards`` set)."""
        seat = self.seat
        if index == DECLINE and self.reacting:
            self.referee.decline()
            self._select()
            return False
        chosen = self.actions[seat][index] if 0 <= index < DECLINE else None
        if chosen is None:  # BatchEnv checked the index against the mask; the core's apply checks the action
            raise ValueError(f"action {index} is not legal for seat {seat} now")
        game = self.game
        color_before = game.color
        self.referee.apply(chosen)
        self.steps += 1
        if chosen.card == WILD_DRAW_FOUR:
            self.covered = color_before
        awaiting = game.awaiting
        if awaiting == ROUND_OVER or awaiting == GAME_OVER:
            return self._round_over()
        if self.steps >= self.max_steps:
            return self._truncate()
        self._select()
        return False

    def refused(self) -> bool:
        """An index the mask forbids, under ``SingleAgentEnv``'s ``illegal_action="penalize"``: nothing
        changes, but it counts as a decision; True when that truncates the episode."""
        self.steps += 1
        return self.steps >= self.max_steps and self._truncate()

    def _truncate(self) -> bool:
        self.truncated = True
        for s in range(self.players):
            self.final_rewards[s] = 0.0
        return self._end()

    def _end(self) -> bool:
        """The episode is over: nobody is asked any more (the AEC env observes empty masks)."""
        self.legal = ()
        self.reacting = False
        return True

    def _round_over(self) -> bool:
        game = self.game
        rewards = self.final_rewards
        if self.round_reward:
            points = game.hand_points()  # R11.1
            total = sum(points)
            winner = game.round_winner
            for s in range(self.players):
                rewards[s] = (total if s == winner else -points[s]) * self.reward_scale
            return self._end()
        if game.awaiting == GAME_OVER:
            for s in range(self.players):
                rewards[s] = self.reward_scale * (1.0 if s == game.game_winner else -1.0)
            return self._end()
        self.referee.next_round()
        self.covered = -1
        self._select()
        return False

    def _play_bots(self) -> bool:
        """Let the bots decide until the learner must; False when the episode ended first."""
        learner = self.learner
        bots = self.bots
        while self.seat != learner:
            seat = self.seat
            legal = self.legal
            if not legal:  # asked out of turn with nothing to do: decline for the bot
                index = DECLINE
            else:
                choice = bots[seat].choose(self.game.view(seat), legal, self.bot_rng)
                if choice is None and self.reacting:
                    index = DECLINE
                elif choice is not None and choice in legal:
                    index = action_index(choice, self.players)
                else:
                    raise RuntimeError(t("env.bot_returned_illegal", bot=bots[seat].name, seat=seat, choice=str(choice)))
            if self.act(index):
                return False
        return True

    def step(self, index: int) -> bool:
        """The caller's decision, then the bots' (with a learner); True when the episode ended."""
        if self.act(index) or (self.learner >= 0 and not self._play_bots()):
            return True
        self._write()
        return False

    # ------------------------------------------------------------------ writing the rows
    def view(self) -> SeatRows:
        """The deciding seat's rows."""
        return self.views[self.seat]

    def _write(self) -> None:
        self.write(self.seat)

    def write(self, seat: int) -> SeatRows:
        """``seat``'s rows as ``raw_env.observe`` reads them, only what changed since they were last written.
        Any seat may be written (the AEC env observes every agent); only the deciding seat is reacting and
        has its mask written."""
        g = self.glance = self.game.glance(seat, self.glance)  # the seat's view, nothing copied: read at once
        v = self.views[seat]
        selected = seat == self.seat
        write_row(v, g, seat, self.players, self.covered, selected and self.reacting)
        if selected:
            write_mask(v, self.legal, self.players, self.reacting)
        return v


def write_row(v: SeatRows, g: View, seat: int, n: int, covered: int, reacting: bool) -> None:
    """The observation of ``seat`` (its view ``g``) into its rows ``v`` (env/layout.py), only what changed:
    the one encoding of a view, for the envs (a glance) and for bots (``observation.encode``, a view)."""
    _write_hand(v, g.hand)
    top = _write_pile(v, g.discard)
    row = v.row
    pos = TOP + top
    if v.h_top != pos:  # most parts stay put: no call
        v.h_top = _move(row, v.h_top, pos)
    color = g.color
    pos = COLOR + color if color >= 0 else -1
    if v.h_color != pos:
        v.h_color = _move(row, v.h_color, pos)
    awaiting = g.awaiting
    pos = AWAITING_AT + (0 if awaiting == AWAIT_PLAY else awaiting_index(awaiting))
    if v.h_awaiting != pos:
        v.h_awaiting = _move(row, v.h_awaiting, pos)
    _write_seats(row, g, seat, n)
    window = g.uno_window
    pos = WINDOW + (window - seat) % n if window >= 0 else -1
    if v.h_window != pos:
        v.h_window = _move(row, v.h_window, pos)
    to_act = g.to_act
    pos = TO_ACT + (to_act - seat) % n if to_act is not None else -1
    if v.h_to_act != pos:
        v.h_to_act = _move(row, v.h_to_act, pos)
    pos = DIRECTION if g.direction > 0 else -1
    if v.h_direction != pos:
        v.h_direction = _move(row, v.h_direction, pos)
    row[PENDING] = g.pending
    row[STOCK] = g.stock  # widened: divided by 112
    drawn = g.drawn
    pos = DRAWN_AT + drawn if drawn >= 0 else -1
    if v.h_drawn != pos:
        v.h_drawn = _move(row, v.h_drawn, pos)
    pos = COVERED + covered if covered >= 0 and top == WILD_DRAW_FOUR else -1
    if v.h_covered != pos:
        v.h_covered = _move(row, v.h_covered, pos)
    pos = REACTING if reacting else -1
    if v.h_reacting != pos:
        v.h_reacting = _move(row, v.h_reacting, pos)


def _write_hand(v: SeatRows, hand: list[int]) -> None:
    """How many of each face the seat holds. Between two decisions of a seat its hand gains or loses a
    card or two (the core appends drawn cards and removes played ones), so only the part between the
    common beginning and the common end of the old and new hand is counted again."""
    row = v.row
    old = v.hand
    lo = len(old)
    ln = len(hand)
    i = 0
    m = lo if lo < ln else ln
    while i < m and hand[i] == old[i]:
        i += 1
    if i < lo or i < ln:
        end_old = lo
        end_new = ln
        while end_old > i and end_new > i and hand[end_new - 1] == old[end_old - 1]:
            end_old -= 1
            end_new -= 1
        for j in range(i, end_old):  # a count never goes below 0 between the two loops: old held these
            pos = HAND + old[j]
            row[pos] = row[pos] - 1
        for j in range(i, end_new):
            pos = HAND + hand[j]
            row[pos] = row[pos] + 1
        v.hand = hand[:]


def _write_pile(v: SeatRows, pile: list[int]) -> int:
    """The discard pile's counts (the core appends to its pile, and replaces it on a reshuffle or a new
    round); returns the top card."""
    row = v.row
    known = v.pile_seen
    if pile is not v.pile or len(pile) < known:
        for pos in range(DISCARD, DISCARD + N_FACES):
            row[pos] = 0
        v.pile = pile
        known = 0
    size = len(pile)
    for i in range(known, size):
        pos = DISCARD + pile[i]
        row[pos] = row[pos] + 1
    v.pile_seen = size
    return pile[size - 1]


def _write_seats(row: vec[u8], g: View, seat: int, n: int) -> None:
    """Hand sizes, UNO said and raw scores, by relative seat."""
    sizes = g.hand_sizes
    scores = g.scores
    uno_said = g.uno_said
    for k in range(n):
        other = seat + k - n if seat + k >= n else seat + k
        size = sizes[other]
        row[SIZES + k] = size
        row[UNO_SAID + k] = 1 if size == 1 and uno_said[other] else 0
        score = scores[other]
        pos = SCORES_AT + 2 * k  # the raw score, little-endian
        row[pos] = score & 255
        row[pos + 1] = score >> 8


def write_mask(v: SeatRows, legal: tuple[Action, ...], n: int, reacting: bool) -> None:
    """The mask: the last write's 1s cleared, this one's set (stores into the buffer cost no call)."""
    mask = v.mask
    on = v.on
    for k in range(v.on_count):
        index: int = on[k]
        mask[index] = 0
    count = 0
    for a in legal:
        i = action_index(a, n)
        mask[i] = 1
        on[count] = i
        count += 1
    if reacting:
        mask[DECLINE] = 1
        on[count] = DECLINE
        count += 1
    v.on_count = count


def _move(row: vec[u8], old: int, pos: int) -> int:
    """A one-hot part's 1 moved from ``old`` to ``pos`` (-1: none); returns ``pos``, the part's new place."""
    if old != pos:
        if old >= 0:
            row[old] = 0
        if pos >= 0:
            row[pos] = 1
    return pos


_AWAITING_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(AWAITING)}


def awaiting_index(awaiting: str) -> int:
    return _AWAITING_INDEX.get(awaiting, 0)


class SeatRows:
    """One seat's rows: what its observation and mask hold since it last decided."""

    row: vec[u8]        # the observation, a pad byte, then each raw score in two bytes (low, high) by relative seat
    mask: vec[u8]       # the mask, 0 or 1
    on: vec[u8]         # the mask's 1s: the first ``on_count`` entries
    on_count: int
    hand: list[int]     # the hand the row shows
    pile: list[int]     # the discard pile the row counts, and how much of it
    pile_seen: int
    # where each one-hot part has its 1 (-1: none)
    h_top: int
    h_color: int
    h_window: int
    h_to_act: int
    h_awaiting: int
    h_direction: int
    h_drawn: int
    h_covered: int
    h_reacting: int

    def __init__(self, players: int) -> None:
        self.row = vec[u8]([0] * ROW_SIZE)
        self.mask = vec[u8]([0] * N_ACTIONS)
        self.on = vec[u8]([0] * N_ACTIONS)
        self.on_count = 0
        self.hand = []
        self.pile = []
        self.pile_seen = 0
        self.h_top = self.h_color = self.h_window = self.h_to_act = self.h_awaiting = -1
        self.h_direction = self.h_drawn = self.h_covered = self.h_reacting = -1
        for k in range(players):
            self.row[SEATED + k] = 1


def step_batch(slots: list[Slot], actions: list[int], seats: Any, rewards: Any, done: Any, truncated: Any,
               obs_rows: list[Any], mask_rows: list[Any]) -> int:
    """Step every slot with its action; an ended episode's rewards go into ``rewards`` (flat, slot-major),
    ``done``/``truncated`` are set, and the slot restarts. ``obs_rows``/``mask_rows`` get each game's
    deciding seat's rows. Returns how many episodes ended."""
    ended = 0
    k = 0
    for slot in slots:
        if slot.step(actions[k]):
            n = slot.players
            base = k * n
            final = slot.final_rewards
            for s in range(n):
                rewards[base + s] = final[s]
            done[k] = 1
            if slot.truncated:
                truncated[k] = 1
            slot.restart()
            ended += 1
        seat = slot.seat
        if slot.shown_seat != seat:  # the numpy seat array is written only when it changes
            slot.shown_seat = seat
            seats[k] = seat
        v = slot.views[seat]
        obs_rows[k] = v.row
        mask_rows[k] = v.mask
        k += 1
    return ended


def start_batch(slots: list[Slot], seeds: list[int], seats: Any, obs_rows: list[Any],
                mask_rows: list[Any]) -> None:
    """Every slot's first episode, from its seed."""
    k = 0
    for slot in slots:
        slot.start(seeds[k])
        seats[k] = slot.shown_seat = slot.seat
        v = slot.views[slot.seat]
        obs_rows[k] = v.row
        mask_rows[k] = v.mask
        k += 1


assert WILD_ITEM_BOX == 53 and N_FACES == 54
