"""Verifiable shuffle: each round's secret seed, its public commitment, and the check of a finished game."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import asdict, dataclass

from ..i18n import t
from ..rules import Game, Options, RecordError, SetupError, records
from ..rules.states import GAME_OVER


def new_seed() -> int:
    """A round's secret seed, 0 <= seed < 2**63."""
    return secrets.randbits(63)


def commitment(seed: int) -> str:
    """The SHA-256 of the seed's decimal digits (docs/PROTOCOL.md section 7)."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def bound_text(seed: int, players: list[str], options: "dict | Options") -> bytes:
    """What the first round's commitment hashes: the seed's digits, a newline, then the players and every
    house rule (defaults written out) as JSON with sorted keys and no spaces, in UTF-8 (PROTOCOL.md section 7)."""
    rules = asdict(Options.from_dict(options))
    bound = json.dumps({"options": rules, "players": list(players)}, sort_keys=True, separators=(",", ":"),
                       ensure_ascii=False)
    return (str(seed) + "\n" + bound).encode("utf-8")


def first_commitment(seed: int, players: list[str], options: "dict | Options") -> str:
    """The first round's commitment: it binds the game's players and house rules as well as its seed."""
    return hashlib.sha256(bound_text(seed, players, options)).hexdigest()


def commitments_of(seeds: list[int], players: list[str], options: "dict | Options", bound: bool = True) -> list[str]:
    """A game's commitments, one per round; ``bound`` False for a game stored before the first bound its rules."""
    return [first_commitment(seed, players, options) if number == 0 and bound else commitment(seed)
            for number, seed in enumerate(seeds)]


def record_of(players: list[str], options: dict, seeds: list[int], actions: list[list[str]]) -> dict:
    """The NOTATION.md record of a stored game (each round dealt from its seed)."""
    return records.record_of(players, options, [{"seed": seed, "actions": acts} for seed, acts in zip(seeds, actions)])


class VerifyError(Exception):
    """A record that does not prove its deals, with the message key and fields explaining why."""

    def __init__(self, key: str, **fields: object):
        super().__init__(key)
        self.key = key
        self.fields = fields


@dataclass
class Verified:
    """What a verified game proves: each round's seed and commitment, the players and house rules the first
    commitment binds, and the result the replay gives."""

    rounds: list[tuple[int, int, str]]  # (round, seed, sha256)
    players: list[str]
    scores: list[int]
    winner: int
    options: dict  # every house rule, as the first commitment binds it


# The result a /api/games/<id> object states beside its record, each compared with the replay's.
CLAIMS = ("players", "scores", "winner", "rounds")


def verify(record: object, commitments: object, claimed: dict | None = None) -> Verified:
    """Check every round's seed against its commitment, replay the record to the end and check the result.

    The first round's commitment binds the players and every house rule with its seed, so an edited target
    score, house rule or player is refused. A first commitment of the seed alone (a game stored before the
    binding) proves the deals but not the rules: such a record is refused too, saying so, never "Verified".
    ``claimed`` is the object the record came in (GET /api/games/<id>): its ``players``, ``scores``,
    ``winner`` and ``rounds``, where present, must be what the replay gives. A game is verified only when
    it replays to its end (game over). Raises VerifyError naming the first problem.
    """
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        raise VerifyError("server.verify.error.not_record")
    rounds = record["rounds"]
    if not isinstance(commitments, list) or not all(isinstance(c, str) for c in commitments):
        raise VerifyError("server.verify.error.no_commitments")
    if len(commitments) != len(rounds):
        raise VerifyError("server.verify.error.count", rounds=len(rounds), commitments=len(commitments))
    players, rules = _bound_parts(record)
    checked, unbound = [], False
    for number, (rnd, committed) in enumerate(zip(rounds, commitments), 1):
        seed = _seed(rnd, number)
        given, digest = committed.strip().lower(), commitment(seed)
        if number == 1 and given != digest:
            digest = first_commitment(seed, players, rules)
            if digest != given:
                raise VerifyError("server.verify.error.bound_mismatch", seed=seed, sha256=digest, committed=committed,
                                  players=_shown(players), options=_shown(Options(**rules).to_dict()))
        elif number == 1:
            unbound = True  # the seed alone: checked to the end, then refused for what it cannot prove
        elif digest != given:
            raise VerifyError("server.verify.error.mismatch", round=number, seed=seed, sha256=digest, committed=committed)
        checked.append((number, seed, digest))
    game = _replayed(record)
    replayed = {"players": list(game.names), "scores": list(game.scores), "winner": game.game_winner,
                "rounds": len(rounds)}
    for name in CLAIMS:
        if claimed is not None and name in claimed and not _same(claimed[name], replayed[name]):
            raise VerifyError("server.verify.error.result", field=name, claimed=_shown(claimed[name]),
                              replayed=_shown(replayed[name]))
    if unbound:
        raise VerifyError("server.verify.error.unbound", count=len(rounds), players=_shown(players),
                          options=_shown(Options(**rules).to_dict()))
    assert game.game_winner is not None
    return Verified(checked, replayed["players"], replayed["scores"], game.game_winner, rules)


def _bound_parts(record: dict) -> tuple[list[str], dict]:
    """The players and every house rule (defaults written out) the record states: what the first commitment binds."""
    try:
        players, options, _rounds = records.record_parts(record)
        return players, asdict(Options.from_dict(options))
    except (RecordError, SetupError, TypeError) as err:
        raise VerifyError("server.verify.error.replay", reason=str(err)) from None


def _seed(rnd: object, number: int) -> int:
    """A round's seed, refused when the round deals from a deck instead or has none."""
    if not isinstance(rnd, dict):
        raise VerifyError("server.verify.error.not_record")
    if "deck" in rnd:
        raise VerifyError("server.verify.error.deck", round=number)
    seed = rnd.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise VerifyError("server.verify.error.seed", round=number)
    return seed


def _replayed(record: dict) -> Game:
    """The record replayed to its end: refused when it does not replay or never reaches game over."""
    try:
        game = Game.from_record(record)
    except RecordError as err:
        raise VerifyError("server.verify.error.replay", reason=str(err)) from None
    if game.awaiting != GAME_OVER or game.game_winner is None:
        # Cut actions or a removed last round still replay legally; they just never reach the end.
        who = game.names[game.to_act] if game.to_act is not None else ""
        raise VerifyError("server.verify.error.unfinished", round=game.round, state=t(f"core.awaiting.{game.awaiting}", name=who),
                          scores=_shown(game.scores), target=game.options.target_score)
    return game


def _same(claimed: object, replayed: object) -> bool:
    """Equal as JSON values of the same kind: ``true`` is not the winner 1, nor ``2.0`` the winner 2."""
    if isinstance(replayed, list):
        return isinstance(claimed, list) and len(claimed) == len(replayed) and all(map(_same, claimed, replayed))
    return type(claimed) is type(replayed) and claimed == replayed


def _shown(value: object) -> str:
    """A value as its JSON text, cut short so that a hostile file cannot flood the terminal."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:199] + "…"
