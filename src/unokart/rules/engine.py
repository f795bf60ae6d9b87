"""The rules engine: one game of UNO Mario Kart, pure (no I/O, no clock, no global random).

State changes only through ``apply``. Every legal action of a seat comes from
``legal_actions``; ``apply`` accepts exactly those (plus a catch that has no
effect, R8.3) and explains any other with the rule it breaks.
"""

from __future__ import annotations

import random
from typing import Any, Final

from . import actions as A
from .actions import Action, as_action, make
from .cards import (
    BLUE, COLORS, DEALER_DRAW_VALUE, DRAW_TWO, FACE_CODE, FACE_COLOR,
    FACE_POINTS, FACE_RANK, FULL_DECK, GREEN, RED, REVERSE, SKIP, WILD,
    ITEMS, WILD_DRAW_FOUR, WILD_ITEM_BOX, YELLOW, card_codes,
)
from .errors import IllegalAction, RecordError, SetupError, UnoKartError, printable, shown
from .records import check_name, deck_faces, record_of, record_parts, round_fields
from .options import Options
from .refusals import explain
from .states import (
    AWAIT_CHALLENGE, AWAIT_COLOR, AWAIT_DRAWN, AWAIT_PLAY, AWAIT_STACK, AWAIT_SWAP, AWAIT_TARGET, GAME_OVER, ROUND_OVER,
)
from .view import View, challenged_seat, expand_event, visible_events

# Classes held in compiled statics: a look-up of the module's globals (or of __class__) costs more than the check.
_ACTION: Final = Action
_RANDOM: Final = random.Random

# What follows a colour choice or a Green Shell target.
_AFTER_START: Final = 0
_AFTER_ITEM: Final = 1
_AFTER_LAST: Final = 2

RACERS: Final = ("Mario", "Luigi", "Peach", "Toad", "Yoshi", "Bowser", "Daisy", "Wario", "Koopa", "Rosalina")

_PLAY_CACHE: dict[tuple[int, int, bool], tuple[Action, ...]] = {}

# A hand is also kept as a bit mask of the faces it holds: the playable faces are
# then one AND with a precomputed mask (R4.1/R4.2), and the plays of each face
# come from per-seat tables, so the hot path builds no action and tests no card twice.
BIT: Final = tuple(1 << f for f in range(54))
# PLAYABLE[color * 16 + rank of the top card]: the faces that may be played on it.
PLAYABLE: Final = [0] * 64
for _color in range(4):
    for _rank in range(15):
        PLAYABLE[_color * 16 + _rank] = sum(
            BIT[f] for f in range(54) if f >= 52 or FACE_COLOR[f] == _color or FACE_RANK[f] == _rank)


def _mask_of(hand: list[int]) -> int:
    mask = 0
    for face in hand:
        mask |= BIT[face]
    return mask


def _plays(seat: int, face: int, uno: bool, verb: str = A.PLAY) -> tuple[Action, ...]:
    """Every way to play one face (a Wild Draw Four once per colour), shared instances."""
    key = (seat, face * 2 + uno, verb == A.JUMP)
    got = _PLAY_CACHE.get(key)
    if got is None:
        colors = range(4) if face == WILD_DRAW_FOUR else (-1,)
        got = _PLAY_CACHE[key] = tuple(make(seat, verb, face, c, -1, uno) for c in colors)
    return got


# SEAT_PLAYS[seat][face]: the plays of a face; SEAT_PLAYS_UNO: the same with and without UNO (a hand of two).
SEAT_PLAYS: Final = [[_plays(s, f, False) for f in range(54)] for s in range(10)]
SEAT_PLAYS_UNO: Final = [[_plays(s, f, False) + _plays(s, f, True) for f in range(54)] for s in range(10)]
SEAT_DRAW: Final = [make(s, A.DRAW) for s in range(10)]
SEAT_PASS: Final = [make(s, A.PASS) for s in range(10)]
SEAT_CHALLENGE: Final = [make(s, A.CHALLENGE) for s in range(10)]
SEAT_ACCEPT: Final = [make(s, A.ACCEPT) for s in range(10)]
SEAT_COLORS: Final = [tuple(make(s, A.COLOR, color=c) for c in range(4)) for s in range(10)]
UNO_HAND: Final = 2  # R8.3: a play from a hand of two may say UNO with it (it leaves one card)
DRAW_TWO_BITS: Final = sum(BIT[c * 13 + DRAW_TWO] for c in range(4))


class Game:
    """A whole game: rounds until someone reaches the target score (R11)."""

    n: int
    names: list[str]
    options: Options
    scores: list[int]
    round: int
    dealer: int
    _direction: int
    to_act: int | None
    awaiting: str
    _hands: list[list[int]]
    _masks: list[int]
    _stock: list[int]
    _discard: list[int]
    _color: int
    _uno_said: list[bool]
    _uno_window: int
    _pending: int
    _drawn: int
    _w4_seat: int
    _w4_guilty: bool
    _after: int
    round_winner: int | None
    game_winner: int | None
    _rng: random.Random
    _round_seed: int
    _round_deck: list[int] | None
    _rounds: list[tuple[int | None, int, list[int] | None, list[Action]]]
    actions: list[Action]
    _log: list[Any]
    _materialized: int
    _visible: dict[int | None, list[Any]]
    version: int
    log_events: bool
    _seed_source: random.Random
    _legal: tuple[Action, ...] | None
    _legal_seat: int
    # The house rules the hot path asks about, read once from the (frozen) options.
    _stacking: bool
    _jump_in: bool
    _seven_zero: bool
    _force_play: bool
    _draw_until_playable: bool

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, players: "int | list[str]" = 4, seed: int = 1, options: "dict | Options | None" = None,
            dealer: int | None = None, deck: "list[str] | None" = None, log_events: bool = True) -> "Game":
        """A game with its first round dealt. ``log_events=False`` keeps no event log (views then carry none):
        for simulators and environments whose players never read events."""
        if isinstance(players, int):  # before RACERS[:players] could cut the table short
            cls.check_table(players, Options())
        names = list(RACERS[:players]) if isinstance(players, int) else [str(p) for p in players]
        game = cls._blank(names, Options.from_dict(options))
        if dealer is not None and not 0 <= dealer < game.n:
            raise SetupError(f"the dealer must be a seat from 0 to {game.n - 1}, not {dealer}",
                             "core.setup.dealer", {"number": dealer, "last": game.n - 1})
        game._seed_source = random.Random(seed)
        game.log_events = log_events
        game._start_round(seed, dealer, deck_faces(deck) if deck is not None else None)
        return game

    @staticmethod
    def check_table(players: int, options: Options) -> None:
        """Raise SetupError, naming the rule, unless a game of ``players`` seats can be dealt under ``options``."""
        if not 2 <= players <= 10:
            raise SetupError(f"R2.1 a game has 2 to 10 players, not {players}", "core.setup.players", {"count": players}, rule="R2.1")
        if options.hand_size * players > 100:
            raise SetupError(f"R3.2 {players} hands of {options.hand_size} do not fit in the deck",
                             "core.setup.hands_do_not_fit", {"count": players, "hand_size": options.hand_size}, rule="R3.2")

    @classmethod
    def _blank(cls, names: list[str], options: Options) -> "Game":
        cls.check_table(len(names), options)
        return cls(names, options)

    def __init__(self, names: list[str], options: Options) -> None:
        """An empty table with no round dealt: use ``Game.new`` or ``Game.from_record``."""
        g = self
        g.n = len(names)
        g.names = names
        g.options = options
        g._stacking, g._jump_in, g._seven_zero = options.stacking, options.jump_in, options.seven_zero
        g._force_play, g._draw_until_playable = options.force_play, options.draw_until_playable
        g.scores = [0] * g.n
        g.round = 0
        g.dealer = 0
        g._rounds = []
        g.version = 0
        g.log_events = True
        g.round_winner = None
        g.game_winner = None

    @classmethod
    def from_record(cls, record: object) -> "Game":
        """Replay a game record (NOTATION.md). Raises RecordError naming what is wrong."""
        players, options, rounds = record_parts(record)
        try:
            game = cls._blank(players, Options.from_dict(options))
        except SetupError as err:  # the record is what is broken: its table, in the same words
            raise RecordError(str(err), key=err.key, params=err.params, rule=err.rule) from None
        for seat, name in enumerate(players):
            check_name(name, seat)
        for number, rnd in enumerate(rounds, 1):
            where = f"round {number}: " if len(rounds) > 1 else ""
            shown_round = number if len(rounds) > 1 else 0
            seed, dealer, deck, acts = round_fields(rnd, where, game.n, shown_round)
            if number == 1:
                game._seed_source = random.Random(seed)
                game._start_round(seed, dealer, deck)
            else:
                if game.awaiting != ROUND_OVER:
                    raise RecordError(f"{where}the previous round did not end (awaiting {game.awaiting})",
                                      key="core.record.round_not_ended", params={"round": shown_round, "awaiting": game.awaiting})
                expected = (game.dealer + 1) % game.n
                if dealer is not None and dealer != expected:
                    raise RecordError(f"{where}R3.4 the deal passes left: dealer must be {expected}, not {dealer}",
                                      key="core.record.dealer_order", params={"round": shown_round, "expected": expected, "dealer": dealer})
                game.next_round(seed, rnd.get("deck"))
            for index, text in enumerate(acts):
                if not isinstance(text, str):
                    raise RecordError(f"{where}action {index} is not text: {shown(text)}", index,
                                      key="core.record.action_not_text", params={"round": shown_round, "index": index})
                try:
                    game.apply(text)
                except UnoKartError as err:
                    quoted = printable(text)
                    raise RecordError(f'{where}action {index} "{quoted}": {err}', index, text, key="core.record.action",
                                      params={"round": shown_round, "index": index, "action": quoted}, cause=err) from None
        return game

    @classmethod
    def from_view(cls, view: Any, hands: list[list[int]], stock: list[int], rng: random.Random,
                  w4_guilty: bool = False) -> "Game":
        """The position a seat's ``view`` (a View, or anything with its fields) shows, with the hidden hands
        and stock filled in.

        For search (a determinization): it logs no events and remembers no earlier actions.
        ``w4_guilty`` is the guess for a pending challenge (R7.2). What follows a colour or target
        choice is read from public facts: the dealer's choice for a first Wild Item Box (R3.3) is
        the only one made on a pile of that one card; a Green Shell fired by a last card (R9.3)
        leaves its player with none.
        """
        g = cls._blank(list(view.names), view.options)
        g.scores = view.scores[:]
        g.round, g.dealer, g._direction = view.round, view.dealer, view.direction
        g.to_act, g.awaiting = view.to_act, view.awaiting
        g._hands, g._stock, g._discard = hands, stock, view.discard[:]
        g._masks = [_mask_of(h) for h in hands]
        g._color = view.color
        g._uno_said, g._uno_window = view.uno_said[:], view.uno_window
        g._pending, g._drawn = view.pending, view.drawn
        g._w4_seat = challenged_seat(view)
        g._w4_guilty = w4_guilty
        if view.awaiting == AWAIT_COLOR and len(view.discard) == 1 and view.discard[0] == WILD_ITEM_BOX:
            g._after = _AFTER_START
        elif view.awaiting == AWAIT_TARGET and view.to_act is not None and view.hand_sizes[view.to_act] == 0:
            g._after = _AFTER_LAST
        else:
            g._after = _AFTER_ITEM
        g.round_winner, g.game_winner = view.round_winner, view.game_winner
        g._rng = g._seed_source = rng  # reshuffles inside a search need no separate source
        g._round_seed, g._round_deck = 0, None
        g.actions = []
        g._log, g._materialized, g._visible = [], 0, {}
        g._rounds = [(view.dealer, 0, None, g.actions)]
        g.log_events = False
        g._legal, g._legal_seat = None, -1
        return g

    def next_round(self, seed: int | None = None, deck: "list[str] | None" = None) -> None:
        """Deal the next round (R3.4: the deal passes left). A server passes its own secret seed."""
        if self.awaiting != ROUND_OVER:
            raise IllegalAction("R9.1", f"the round is not over (awaiting {self.awaiting})",
                                "core.refusal.round_not_over", {"awaiting": self.awaiting})
        faces = deck_faces(deck) if deck is not None else None
        drawn_seed = self._seed_source.getrandbits(63)  # drawn even when a seed is given: one sequence
        self._start_round(drawn_seed if seed is None else seed, (self.dealer + 1) % self.n, faces)

    # ------------------------------------------------------------------ setup (R3)
    def _start_round(self, seed: int, dealer: int | None, deck: list[int] | None) -> None:
        n = self.n
        self._rng = rng = random.Random(seed)
        self.round += 1
        self._round_seed = seed
        self._round_deck = deck
        self.actions = []
        self._log = []
        self._materialized = 0
        self._visible = {}
        # R3.1's draw uses the seed, so a record names the dealer only where it was not drawn.
        self._rounds.append((dealer, seed, deck, self.actions))
        if dealer is None:
            dealer = _choose_dealer(rng, n)
        self.dealer = dealer
        if deck is None:
            deck = list(FULL_DECK)
            shuffle(rng, deck)
        self._stock = deck[::-1]  # the top of the stock is the end of the list
        self._discard = []
        self._hands = [[] for _ in range(n)]
        self._direction = 1
        self._uno_said = [False] * n
        self._uno_window = -1
        self._pending = 0
        self._drawn = -1
        self._w4_seat = -1
        self._w4_guilty = False
        self._after = _AFTER_START
        self.round_winner = None
        self._legal = None
        self._legal_seat = -1
        self._emit({"type": "round_start", "round": self.round, "dealer": dealer})
        stock = self._stock
        for _ in range(self.options.hand_size):
            for i in range(1, n + 1):
                self._hands[(dealer + i) % n].append(stock.pop())
        self._masks = [_mask_of(h) for h in self._hands]
        for seat in range(n):
            self._emit({"type": "deal", "seat": seat, "cards": card_codes(self._hands[seat])}, (seat,))
        while True:  # R3.3: a round never starts on a Wild Draw Four
            first = stock.pop()
            if first != WILD_DRAW_FOUR:
                break
            stock.append(first)
            shuffle(rng, stock)
            self._emit({"type": "first_card_returned", "card": "W+4"})
        self._discard.append(first)
        self._color = FACE_COLOR[first] if first != WILD_ITEM_BOX else -1
        self._emit({"type": "first_card", "card": FACE_CODE[first]})
        left = (dealer + 1) % n
        self.awaiting = AWAIT_PLAY
        if first == WILD_ITEM_BOX:
            self.to_act, self.awaiting = dealer, AWAIT_COLOR
        elif FACE_RANK[first] == REVERSE:
            self._direction = -1
            self.to_act = dealer
        elif FACE_RANK[first] == DRAW_TWO:
            self._draw(left, 2, "draw_two")
            self._emit_lazy(("skipped", left))
            self.to_act = (left + 1) % n
        elif FACE_RANK[first] == SKIP:
            self._emit_lazy(("skipped", left))
            self.to_act = (left + 1) % n
        else:
            self.to_act = left

    # ------------------------------------------------------------------ queries
    @property
    def top(self) -> int:
        return self._discard[-1]

    def playable(self, face: int) -> bool:
        """R4.1/R4.2: a wild, or the active colour, or the same number or symbol."""
        return face >= 52 or FACE_COLOR[face] == self._color or FACE_RANK[face] == FACE_RANK[self._discard[-1]]

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The deciding seat's legal actions, or those of any seat (out of turn: UNO, catch, jump-in).

        A tuple: it is cached until the next action, so nobody may change it."""
        to_act = self.to_act
        if seat is None:
            seat = to_act
            if seat is None:
                return ()
        elif not 0 <= seat < self.n:
            return ()
        got = self._legal
        if self._legal_seat == seat and got is not None:
            return got
        acts = self._turn_actions(seat) if to_act is not None and seat == to_act else []  # narrowed: compared natively
        w = self.uno_open() if self._uno_window >= 0 else -1  # the test inline first: mostly no window
        if w >= 0:
            acts.append(make(seat, A.UNO) if w == seat else make(seat, A.CATCH, target=w))
        if self.may_jump(seat):
            top = self._discard[-1]
            if top in self._hands[seat]:
                acts.extend(_plays(seat, top, False, A.JUMP))
                if self.uno_with_play(seat):
                    acts.extend(_plays(seat, top, True, A.JUMP))
        got = tuple(acts)
        self._legal, self._legal_seat = got, seat
        return got

    def out_of_turn_seats(self, first: int = -1) -> tuple[int, ...]:
        """The seats besides the one to act that may speak now: say UNO or catch (R8), jump in (R12.4).

        Public facts only, so that asking them tells nobody anything: while a jump-in is possible every
        other seat is listed, whether or not it holds the card; ``legal_actions`` says what each may do.
        In seat order from ``first``, by default from the seat whose UNO window is open (R8.3: the
        first valid word wins), else from the seat to act.
        """
        if self.uno_open() < 0 and not self.jump_open():
            return ()
        w = self._uno_window
        n = self.n
        to_act = self.to_act if self.to_act is not None else -1
        if first < 0:
            first = w if w >= 0 else max(to_act, 0)
        return tuple([s for s in [(first + k) % n for k in range(n)] if s != to_act])

    # The gates of legality beyond the awaited decision. legal_actions, out_of_turn_seats and
    # refusals.explain all ask these, so what is legal and why an action is not come from one place.
    def uno_open(self) -> int:
        """R8.3: the seat whose UNO window is open (it played down to one card and has not said UNO):
        it may say UNO, and every other seat may catch it. -1: none."""
        w = self._uno_window
        return w if w >= 0 and self.uno_due(w) else -1

    def uno_due(self, seat: int) -> bool:
        """R8.3: ``seat`` holds one card and has not said UNO: it may say it while its window is open."""
        return len(self._hands[seat]) == 1 and not self._uno_said[seat]

    def uno_with_play(self, seat: int) -> bool:
        """R8.3: a play or a jump-in may say UNO only when it leaves one card: when ``seat`` holds two."""
        return len(self._hands[seat]) == UNO_HAND

    def may_jump(self, seat: int) -> bool:
        """R12.4: jump-in is open to ``seat`` (not the seat to act): with a card identical to the top."""
        return self.jump_open() and seat != self.to_act

    def jump_open(self) -> bool:
        """R12.4: the rule is on, no decision is pending and a coloured card is on top: any seat but the
        one to act holding an identical card may jump in."""
        return self._jump_in and self.awaiting == AWAIT_PLAY and self._discard[-1] < WILD_DRAW_FOUR

    def may_act(self) -> list[int]:
        """Every seat with a legal action now: the seat to act, then ``out_of_turn_seats`` that have one."""
        seats = [self.to_act] if self.to_act is not None else []
        return seats + [s for s in self.out_of_turn_seats() if self.legal_actions(s)]

    def _turn_actions(self, seat: int) -> list[Action]:
        aw = self.awaiting
        # The plays of each face: with and without UNO from a hand of UNO_HAND (R8.3, uno_with_play's rule)
        plays = SEAT_PLAYS_UNO[seat] if len(self._hands[seat]) == UNO_HAND else SEAT_PLAYS[seat]
        if aw == AWAIT_PLAY:
            mask = self._masks[seat] & PLAYABLE[self._color * 16 + FACE_RANK[self._discard[-1]]]
            acts: list[Action] = []
            while mask:
                low = mask & -mask
                acts += plays[low.bit_length() - 1]
                mask ^= low
            acts.append(SEAT_DRAW[seat])
            return acts
        if aw == AWAIT_DRAWN:
            acts = list(plays[self._drawn])
            if not self._force_play:
                acts.append(SEAT_PASS[seat])
            return acts
        if aw == AWAIT_CHALLENGE or aw == AWAIT_STACK:
            acts = [SEAT_CHALLENGE[seat], SEAT_ACCEPT[seat]] if aw == AWAIT_CHALLENGE else [SEAT_ACCEPT[seat]]
            if self._stacking:  # R12.1: the same kind only, no mixing
                mask = self._masks[seat] & (BIT[WILD_DRAW_FOUR] if self._discard[-1] == WILD_DRAW_FOUR else DRAW_TWO_BITS)
                while mask:
                    low = mask & -mask
                    acts += plays[low.bit_length() - 1]
                    mask ^= low
            return acts
        if aw == AWAIT_COLOR:
            return list(SEAT_COLORS[seat])
        if aw == AWAIT_TARGET:
            return [make(seat, A.TARGET, target=t) for t in range(self.n) if t != seat]
        if aw == AWAIT_SWAP:
            return [make(seat, A.SWAP, target=t) for t in range(self.n) if t != seat]
        return []

    # ------------------------------------------------------------------ apply
    def would_change(self, action: object) -> bool:
        """Whether ``apply(action)`` would change the game: True for a legal action, False for one that
        ``apply`` accepts with no effect (a catch outside the window, or of a seat that said UNO: R8.3).
        Anything else raises the IllegalAction ``apply`` would raise, naming the rule; nothing changes."""
        a = action if type(action) is _ACTION else as_action(action)
        if _among(a, self.legal_actions(a.seat)):
            return True
        if a.verb == A.CATCH and self._is_void_catch(a):
            return False
        raise explain(self, a)

    def apply(self, action: object) -> None:
        """Apply one action (object or text). An illegal one raises IllegalAction and changes nothing."""
        a = action if type(action) is _ACTION else as_action(action)
        seat, verb, card, color, target, uno = a
        if not _among(a, self.legal_actions(seat)):
            if not self.would_change(a):  # a void catch (R8.3): recorded, and nothing else
                self._emit({"type": "catch_missed", "seat": seat, "target": target})
                self._accept(a)
            return
        if self._uno_window >= 0 and seat != self._uno_window and verb in A.TURN_VERBS:
            self._uno_window = -1  # R8.3: another seat's turn action closes the window
        if verb == A.PLAY:
            self._play(seat, card, color, uno)
        elif verb == A.DRAW:
            self._turn_draw(seat)
        elif verb == A.PASS:
            self._drawn = -1
            self._emit({"type": "pass", "seat": seat})
            self._next_from(seat, 1)
        elif verb == A.UNO:
            self._uno_said[seat] = True
            self._uno_window = -1
            self._emit({"type": "uno", "seat": seat})
        elif verb == A.CATCH:
            self._uno_window = -1
            self._emit({"type": "caught", "seat": seat, "target": target})
            self._draw(target, 2, "uno_penalty")
        elif verb == A.CHALLENGE:
            self._challenge(seat)
        elif verb == A.ACCEPT:
            count, self._pending = self._pending, 0
            self._draw(seat, count, "wild_draw_four" if self._discard[-1] == WILD_DRAW_FOUR else "draw_two")
            self._emit_lazy(("skipped", seat))
            self._next_from(seat, 1)
        elif verb == A.COLOR:
            self._choose_color(seat, color)
        elif verb == A.TARGET:
            self._emit({"type": "green_shell_target", "seat": seat, "target": target})
            self._draw(target, 1, "green_shell")
            self._after_item(seat)
        elif verb == A.SWAP:
            self._swap(seat, target)
        elif verb == A.JUMP:
            self._emit({"type": "jump_in", "seat": seat, "card": FACE_CODE[card]})
            self.to_act = seat
            self._play(seat, card, -1, uno)
        self._accept(a)

    def _accept(self, a: Action) -> None:
        self.actions.append(a)
        self.version += 1
        self._legal = None
        self._legal_seat = -1

    # ------------------------------------------------------------------ turn pieces
    def _next_from(self, seat: int, steps: int) -> None:
        self.to_act = (seat + steps * self._direction) % self.n
        self.awaiting = AWAIT_PLAY

    def _play(self, seat: int, face: int, color: int, uno: bool) -> None:
        hand = self._hands[seat]
        if not _take_one(hand, face):
            self._masks[seat] ^= BIT[face]
        prev_color = self._color
        self._discard.append(face)
        self._drawn = -1
        if self.log_events:
            self._log.append(("play", seat, face, color, uno))
        if uno:
            self._uno_said[seat] = True
            self._emit({"type": "uno", "seat": seat})
        elif len(hand) == 1:
            self._uno_said[seat] = False
            self._uno_window = seat
        rank = FACE_RANK[face]
        last = not hand
        n = self.n
        if face == WILD_ITEM_BOX:
            self._color = -1
            self._item_box(seat, last)
            return
        self._color = color if face == WILD_DRAW_FOUR else FACE_COLOR[face]
        if last:
            if rank == DRAW_TWO or face == WILD_DRAW_FOUR:  # R9.2
                self._draw((seat + self._direction) % n, self._pending + (2 if rank == DRAW_TWO else 4), "draw_two" if rank == DRAW_TWO else "wild_draw_four")
                self._pending = 0
            self._end_round(seat)
            return
        if rank < 10:
            if self._seven_zero:
                if rank == 7:
                    self.awaiting = AWAIT_SWAP
                    return
                if rank == 0:
                    self._rotate_hands()
            self._next_from(seat, 1)
        elif rank == SKIP:
            self._emit_lazy(("skipped", (seat + self._direction) % n))
            self._next_from(seat, 2)
        elif rank == REVERSE:
            if n == 2:  # R5.2: acts as a Skip
                self._emit_lazy(("skipped", (seat + 1) % n))
                self._next_from(seat, 2)
            else:
                self._direction = -self._direction
                self._emit({"type": "reverse", "direction": self._direction})
                self._next_from(seat, 1)
        elif rank == DRAW_TWO:
            victim = (seat + self._direction) % n
            if self._stacking:
                self._pending += 2
                self.to_act, self.awaiting = victim, AWAIT_STACK
            else:
                self._draw(victim, 2, "draw_two")
                self._emit_lazy(("skipped", victim))
                self._next_from(seat, 2)
        else:  # Wild Draw Four
            stacked = self._pending > 0
            self._pending += 4
            self._w4_seat = seat
            self._w4_guilty = any(FACE_COLOR[f] == prev_color for f in hand)
            self.to_act = (seat + self._direction) % n
            self.awaiting = AWAIT_STACK if stacked else AWAIT_CHALLENGE

    def _turn_draw(self, seat: int) -> None:
        """R4.3 (and R12.2): draw, then maybe play the drawn card."""
        got = self._draw(seat, 1, "turn")
        if self._draw_until_playable:
            while got and not self.playable(got[-1]):
                got = self._draw(seat, 1, "turn")
        if got and self.playable(got[-1]):
            self._drawn = got[-1]
            self.awaiting = AWAIT_DRAWN
        else:
            self._next_from(seat, 1)

    def _challenge(self, seat: int) -> None:
        """R7.2/R7.3: the Wild Draw Four player shows their hand to the challenger only."""
        culprit = self._w4_seat
        self._emit({"type": "reveal", "seat": culprit, "to": seat, "cards": card_codes(self._hands[culprit])}, (seat, culprit))
        self._emit({"type": "challenge", "seat": seat, "target": culprit, "guilty": self._w4_guilty})
        count, self._pending = self._pending, 0
        if self._w4_guilty:
            self._draw(culprit, count, "challenge_lost")
            self.awaiting = AWAIT_PLAY  # the challenger takes their turn as usual
        else:
            self._draw(seat, count + 2, "challenge_lost")
            self._next_from(seat, 1)

    def _item_box(self, seat: int, last: bool) -> None:
        """R5.5/R6: turn the top of the stock and fire its item."""
        # The Item Box is in play, not yet part of the pile: R10.1 keeps it and the pile's top card (the one
        # it was played on), so R6.7 can happen and a Mushroom cannot turn the same card back forever.
        turned = self._take_from_stock(2)
        if turned < 0:  # R6.7
            self._emit({"type": "item", "seat": seat, "item": None, "card": None})
            if last:
                self._end_round(seat)
            else:
                self._after, self.to_act, self.awaiting = _AFTER_ITEM, seat, AWAIT_COLOR
            return
        self._discard.append(turned)
        kind = FACE_COLOR[turned]
        if kind != WILD:
            self._color = kind
        n = self.n
        event = {"type": "item", "seat": seat, "item": ITEMS[kind], "card": FACE_CODE[turned]}
        if kind == YELLOW:
            event["victim"] = (seat - self._direction) % n
        self._emit(event)
        if kind == RED:  # Mushroom: another turn
            if last:
                self._end_round(seat)
            else:
                self.to_act, self.awaiting = seat, AWAIT_PLAY
        elif kind == YELLOW:  # Banana Peel: the racer behind draws 2
            self._draw((seat - self._direction) % n, 2, "banana")
            if last:
                self._end_round(seat)
            else:
                self._next_from(seat, 1)
        elif kind == GREEN:  # Green Shell: choose who draws 1
            self._after = _AFTER_LAST if last else _AFTER_ITEM
            self.to_act, self.awaiting = seat, AWAIT_TARGET
        elif kind == BLUE:  # Lightning Bolt: all others draw 1, another turn
            for i in range(1, n):
                self._draw((seat + i * self._direction) % n, 1, "lightning")
            if last:
                self._end_round(seat)
            else:
                self.to_act, self.awaiting = seat, AWAIT_PLAY
        else:  # Bob-omb: draw 2 and choose the colour
            if last:
                self._end_round(seat)
            else:
                self._draw(seat, 2, "bobomb")
                self._after, self.to_act, self.awaiting = _AFTER_ITEM, seat, AWAIT_COLOR

    def _after_item(self, seat: int) -> None:
        if self._after == _AFTER_LAST:
            self._end_round(seat)
        else:
            self._next_from(seat, 1)

    def _choose_color(self, seat: int, color: int) -> None:
        self._color = color
        self._emit({"type": "color", "seat": seat, "color": COLORS[color]})
        if self._after == _AFTER_START:  # R3.3: the dealer chose; dealer's left starts
            self._next_from(self.dealer, 1)
            self._after = _AFTER_ITEM
        else:
            self._next_from(seat, 1)

    def _swap(self, seat: int, other: int) -> None:
        hands = self._hands
        hands[seat], hands[other] = hands[other], hands[seat]
        self._masks[seat], self._masks[other] = self._masks[other], self._masks[seat]
        self._uno_window = -1  # R12.5: a swap closes any UNO window; the others keep their word
        self._uno_said[seat] = self._uno_said[other] = False
        self._emit({"type": "swap", "seat": seat, "target": other})
        for s in (seat, other):
            self._emit({"type": "hand", "seat": s, "cards": card_codes(hands[s])}, (s,))
        self._next_from(seat, 1)

    def _rotate_hands(self) -> None:
        n, d = self.n, self._direction
        old = self._hands
        self._hands = [old[(s - d) % n] for s in range(n)]
        self._masks = [_mask_of(h) for h in self._hands]
        self._uno_window = -1  # R12.5: every hand moved, so every UNO said is void
        self._uno_said = [False] * n
        self._emit({"type": "rotate", "direction": d})
        for s in range(n):
            self._emit({"type": "hand", "seat": s, "cards": card_codes(self._hands[s])}, (s,))

    # ------------------------------------------------------------------ stock (R10)
    def _take_from_stock(self, keep: int = 1) -> int:
        """The top of the stock; an empty stock is first rebuilt from the pile but its ``keep`` top cards (R10.1)."""
        stock = self._stock
        if not stock:
            discard = self._discard
            if len(discard) <= keep:
                return -1
            stock.extend(discard[:-keep])
            shuffle(self._rng, stock)
            self._discard = discard[-keep:]
            self._emit({"type": "reshuffle", "cards": len(stock)})
        return stock.pop()

    def _draw(self, seat: int, count: int, cause: str) -> list[int]:
        stock = self._stock  # a reshuffle refills this same list
        got = []
        for _ in range(count):
            face = stock.pop() if stock else self._take_from_stock()
            if face < 0:
                break
            got.append(face)
        if got:
            self._hands[seat] += got
            mask = self._masks[seat]
            for face in got:
                mask |= BIT[face]
            self._masks[seat] = mask
            self._uno_said[seat] = False
        if self.log_events:
            self._log.append(("draw", seat, got, cause))
        return got

    # ------------------------------------------------------------------ scoring (R11)
    def hand_points(self) -> tuple[int, ...]:
        """R11.1: the points of the cards each seat holds, by seat (at a round's end, what its winner scores)."""
        return tuple([sum([FACE_POINTS[f] for f in hand]) for hand in self._hands])

    def _end_round(self, winner: int) -> None:
        points = self.hand_points()
        total = sum(points)
        self.scores[winner] += total
        self.round_winner = winner
        self.to_act = None
        self._uno_window = -1
        self._pending = 0
        self._emit({"type": "round_end", "winner": winner, "points": total, "hand_points": list(points), "scores": list(self.scores)})
        if self.scores[winner] >= self.options.target_score:
            self.game_winner = winner
            self.awaiting = GAME_OVER
            self._emit({"type": "game_end", "winner": winner, "scores": list(self.scores)})
        else:
            self.awaiting = ROUND_OVER

    # ------------------------------------------------------------------ errors
    def _is_void_catch(self, a: Action) -> bool:
        """R8.3: a catch outside the window, or of a seat that said UNO, has no effect."""
        return (0 <= a.seat < self.n and 0 <= a.target < self.n and a.seat != a.target
                and self.awaiting not in (ROUND_OVER, GAME_OVER))

    # ------------------------------------------------------------------ events, views, records
    def _emit(self, event: dict, to: tuple[int, ...] | None = None) -> None:
        if self.log_events:
            self._log.append((to, event))

    @property
    def events(self) -> tuple:
        """This round's events as ``(seats that may see it or None, event dict)``, oldest first: a copy, for
        the referee's eye (a record's replay, tests). A seat's face reads ``events_for`` instead."""
        return tuple(self._events())

    def event_count(self) -> int:
        """How many events this round has logged: the ``since`` of a later ``events_for``."""
        return len(self._events())

    def _events(self) -> list:
        """The log itself, every entry expanded. The hot path logs some events as tuples; they become
        dicts here, once, when first read."""
        log = self._log
        done = self._materialized
        if done < len(log):
            # Only the tail no one has read yet is rewritten, so every index handed out stays valid.
            tail = log[done:]
            del log[done:]
            for entry in tail:
                if entry[0].__class__ is str:
                    log += expand_event(entry)
                else:
                    log.append(entry)
        self._materialized = len(log)
        return log

    def _emit_lazy(self, event: tuple) -> None:
        """A public event kept as a flat tuple until someone reads it (see expand_event)."""
        if self.log_events:
            self._log.append(event)

    def events_for(self, seat: int | None, since: int = 0) -> list[dict]:
        """This round's events that ``seat`` may see (None: the public ones only)."""
        return visible_events(self._events()[since:], seat)

    def _visible_events(self, seat: int | None) -> list[dict]:
        """This round's events ``seat`` may see, kept up to date as views ask (a view holds nothing else)."""
        entry = self._visible.get(seat)
        if entry is None:
            entry = self._visible[seat] = [0, []]
        scanned, visible = entry
        events = self._events()
        if scanned < len(events):
            visible += visible_events(events[scanned:], seat)
            entry[0] = len(events)
        return visible

    def view(self, seat: int | None) -> View:
        """What one seat may see (None: a spectator's public view)."""
        return View(self, seat)

    def glance(self, seat: int | None, into: View | None = None) -> View:
        """The same view, cheaply: no events, and its lists are the game's own, so it holds only until the
        next action and must never be changed. For environments that encode an observation at once;
        ``into``, an earlier glance at this game, is refreshed in place instead of making a new one."""
        if into is None or into.n != self.n or not (seat is None or 0 <= seat < self.n):
            return View(self, seat, glance=True)
        sizes = into.hand_sizes
        for s in range(self.n):
            sizes[s] = len(self._hands[s])
        into._fill(self, seat, True)
        return into

    # ------------------------------------------------------------------ public facts, read-only
    @property
    def color(self) -> int:
        """The active colour (0-3), or -1 before the dealer's choice on a first Wild Item Box (R3.3)."""
        return self._color

    @property
    def direction(self) -> int:
        """1: play goes left; -1: right (R5.2)."""
        return self._direction

    @property
    def pending(self) -> int:
        """Cards the seat to act must draw unless it stacks or challenges (R5.1, R5.4, R12.1)."""
        return self._pending

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._hands]

    def hand(self, seat: int) -> list[int]:
        """A copy of one seat's hand: the referee's look, for search over a determinization and for
        scoring (a seat's view shows it only its own)."""
        return self._hands[seat][:]

    def state(self) -> dict[str, Any]:
        """The full state, every hand open (NOTATION.md)."""
        return {
            "round": self.round, "dealer": self.dealer, "direction": self._direction,
            "to_act": self.to_act, "awaiting": self.awaiting,
            "top": FACE_CODE[self._discard[-1]] if self._discard else None,
            "color": COLORS[self._color] if self._color >= 0 else None,
            "hands": [card_codes(h) for h in self._hands],
            "stock": len(self._stock), "discard": len(self._discard),
            "uno_said": list(self._uno_said), "scores": list(self.scores),
            "round_winner": self.round_winner, "game_winner": self.game_winner,
        }

    def record(self) -> dict[str, Any]:
        """The game record (NOTATION.md): replays this game exactly."""
        rounds = []
        for dealer, seed, deck, acts in self._rounds:
            rnd: dict[str, Any] = {} if dealer is None else {"dealer": dealer}
            rnd["seed"] = seed
            if deck is not None:
                rnd["deck"] = card_codes(deck)
            rnd["actions"] = [str(a) for a in acts]
            rounds.append(rnd)
        return record_of(list(self.names), self.options.to_dict(), rounds)

    def copy(self) -> "Game":
        """A cheap independent copy (for search): hands, piles and the random sources are copied."""
        g = Game(self.names, self.options)
        g.scores = self.scores[:]
        g.round, g.dealer, g._direction = self.round, self.dealer, self._direction
        g.to_act, g.awaiting, g._color = self.to_act, self.awaiting, self._color
        g._hands = [h[:] for h in self._hands]
        g._masks = self._masks[:]
        g._stock = self._stock[:]
        g._discard = self._discard[:]
        g._uno_said, g._uno_window = self._uno_said[:], self._uno_window
        g._pending, g._drawn, g._after = self._pending, self._drawn, self._after
        g._w4_seat, g._w4_guilty = self._w4_seat, self._w4_guilty
        g.round_winner, g.game_winner = self.round_winner, self.game_winner
        g._round_seed, g._round_deck, g.version = self._round_seed, self._round_deck, self.version
        g.actions = self.actions[:]
        dealer, seed, deck, _ = self._rounds[-1]
        g._rounds = self._rounds[:-1] + [(dealer, seed, deck, g.actions)]
        g.log_events = self.log_events
        g._log, g._materialized, g._visible = self._log[:], self._materialized, {}
        g._legal, g._legal_seat = None, -1
        g._rng = random.Random()
        g._rng.setstate(self._rng.getstate())
        g._seed_source = random.Random()
        g._seed_source.setstate(self._seed_source.getstate())
        return g

    def __repr__(self) -> str:
        return f"<Game {self.n} players, round {self.round}, seat {self.to_act} {self.awaiting}, top {FACE_CODE[self._discard[-1]]}>"


def _among(a: Action, acts: tuple[Action, ...]) -> bool:
    """``a in acts``, trying identity first: the actions asked for are mostly the very objects that
    ``legal_actions`` listed (the env's tables, a bot's choice), so no tuple is compared."""
    for x in acts:
        if x is a:
            return True
    return a in acts


def _take_one(hand: list[int], face: int) -> bool:
    """``hand.remove(face)``; True when the hand still holds another ``face`` (native loops: no
    comparison goes through Python's protocol)."""
    i = 0
    size = len(hand)
    while i < size and hand[i] != face:
        i += 1
    if i == size:
        raise ValueError(f"face {face} is not in the hand")
    hand.pop(i)
    for other in hand:
        if other == face:
            return True
    return False


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, compiled: the same order from the same generator state (CPython's
    Fisher-Yates over ``getrandbits``; tests/rules compares them), without a Python frame per card.
    A subclass of ``random.Random`` shuffles its own way."""
    if type(rng) is not _RANDOM:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    i = len(cards) - 1
    while i > 0:
        below = i + 1
        bits = below.bit_length()
        j: int = getrandbits(bits)
        while j >= below:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1


def _choose_dealer(rng: random.Random, n: int) -> int:
    """R3.1: each draws a card, highest number deals; ties draw again."""
    deck: list[int] = []
    contenders = list(range(n))
    while len(contenders) > 1:
        if len(deck) < len(contenders):
            deck = list(FULL_DECK)
            shuffle(rng, deck)
        values = [DEALER_DRAW_VALUE[deck.pop()] for _ in contenders]
        best = max(values)
        contenders = [s for s, v in zip(contenders, values) if v == best]
    return contenders[0]
