"""``careful``: the heuristic as a careful human plays it, from its view alone.

- It holds its wilds for its last card and its action cards until an opponent
  is down to one card (the patient values of bots/playout.py).
- It reads the table: a player who drew rather than played lacks the colour then
  asked for (knowledge.hand_voids), so a colour the next player lacks is worth
  leading and choosing, and points are shed while the next player is about to go out.
- It counts the cards: of the colours it may choose, one with few cards left
  unseen (not in its hand, not on the discard pile) is less likely to be followed.
- It challenges a Wild Draw Four only when the evidence says the culprit held the
  colour it covered (R7.2): a card of that colour it showed this seat in an earlier
  challenge and still holds; otherwise the chance that the culprit plays Wild Draw
  Fours regardless of its hand (a player about to go out gives every reason to, and
  this round's challenges of the culprit tell) times the chance that its hand holds
  the colour (its cards not read as lacking it, drawn from the unseen cards, of which
  so many are of that colour). Careful players seldom bluff, so a challenge is rare.
"""

from __future__ import annotations

from ..rules import Action, View
from ..rules.cards import FACE_COLOR, FACE_POINTS
from .heuristic import HeuristicBot
from .knowledge import challenge_record, color_before_wild_draw_four, hand_voids, known_cards, next_seat_lacks, unseen_counts
from .playout import THREAT, color_scores, patient_play

LEAD_LACKED = 2.0  # the bonus for a colour the next seat lacks (times the share of its hand read as lacking it)
SHED_POINTS = 4.0 / 20  # the bonus per point of a card, while the next seat is about to go out
COUNTED = 1.0  # the bonus for choosing a colour none of whose cards are unseen; 0 at a quarter of the unseen cards
# R7.2/R7.3: a won challenge is four cards to the culprit, none to this seat and its turn kept;
# a lost one, two cards more than accepting. Worth it above one chance in five.
BREAK_EVEN = 0.2
BLUFFS = 0.1  # the chance a player plays a Wild Draw Four whatever its hand, when nothing says more
BLUFFS_AT_THREAT = 0.7  # ... when this seat was about to go out: the one reason a careful player bluffs
RECORD_WEIGHT = 2.0  # this round's challenges of the culprit count against that guess as if it were two of them


def guilt(view: View) -> float:
    """The chance that the Wild Draw Four this seat must answer would lose a challenge (R7.2), from its view."""
    culprit = (view.own_seat - view.direction) % view.n
    color = color_before_wild_draw_four(view)
    if color < 0:
        return 0.0
    own = range(color * 13, color * 13 + 13)
    known = known_cards(view, culprit)
    if known is not None and any(face in own for face in known):
        return 1.0  # it showed this seat a card of the colour and has not played it since
    counts = unseen_counts(view)
    free = view.hand_sizes[culprit]  # its cards that may be of the colour
    if known is not None:
        for face in known:
            counts[face] -= 1
        free -= len(known)
    else:
        lacks, count = hand_voids(view, trust_wild_draw_four=False)[culprit]
        if count and all(face in lacks for face in own):
            free -= count
    unseen = sum(counts)
    others = unseen - sum(counts[face] for face in own)
    none = 1.0
    for i in range(max(0, free)):
        if unseen - i <= 0:
            break
        none *= max(0, others - i) / (unseen - i)
    guilty, innocent = challenge_record(view, culprit)
    guess = BLUFFS_AT_THREAT if view.hand_sizes[view.own_seat] <= THREAT else BLUFFS
    careless = (RECORD_WEIGHT * guess + guilty) / (RECORD_WEIGHT + guilty + innocent)
    return careless * (1.0 - none)


class CarefulBot(HeuristicBot):
    """Patient with its wilds and action cards, reads what draws say, counts the cards,
    and challenges a Wild Draw Four only on evidence."""

    name = "careful"

    def challenges(self, view: View) -> bool:
        return guilt(view) > BREAK_EVEN

    def pick_play(self, view: View, plays: list[Action]) -> Action:
        """``read_play``, a Wild Draw Four naming the colour ``pick_color`` chooses (the cards counted)."""
        play = self.read_play(view, plays)
        if play.card >= 52 and play.color >= 0:
            color = self.pick_color(view)
            return next((a for a in plays if a.card == play.card and a.color == color and a.uno == play.uno), play)
        return play

    def read_play(self, view: View, plays: list[Action]) -> Action:
        """The heuristic's play, made patient, unless leading a colour the next seat lacks,
        or shedding points while it is about to go out, is worth more."""
        favourite = patient_play(plays, view.hand, view.own_seat, view.direction, view.hand_sizes, view.color)
        lacks = next_seat_lacks(view)
        shedding = view.hand_sizes[(view.own_seat + view.direction) % view.n] <= THREAT
        if not any(lacks) and not shedding:
            return favourite
        held = {FACE_COLOR[f] for f in view.hand if f < 52}
        best, best_value = favourite, -1e9
        for action in plays:
            color = action.color if action.card >= 52 else FACE_COLOR[action.card]  # -1: colour chosen later
            if action.card >= 52 and (action.card != favourite.card or (color >= 0 and color not in held)):
                continue  # the heuristic's choice of wild stands; only its colour may change, to one held
            value = (LEAD_LACKED * lacks[color] if color >= 0 else 0.0) + (SHED_POINTS * FACE_POINTS[action.card] if shedding else 0.0)
            value += 0.5 if action is favourite else 0.0
            if value > best_value:
                best, best_value = action, value
        return best

    def pick_color(self, view: View) -> int:
        """The colour held most, a colour the next seat lacks counting as more, and one with
        few cards left unseen (so that others are less likely to hold it) as a little more."""
        lacks = next_seat_lacks(view)
        score = color_scores(view.hand)
        counts = unseen_counts(view)
        unseen = max(1, sum(counts))
        held = [c for c in range(4) if score[c]] or [0, 1, 2, 3]  # with no colour held, the count alone decides

        def value(c: int) -> float:
            share = sum(counts[c * 13:c * 13 + 13]) / unseen
            return score[c] + LEAD_LACKED * lacks[c] + COUNTED * (1.0 - 4.0 * share)

        return max(held, key=value)
