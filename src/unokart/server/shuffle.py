"""Verifiable shuffle: each round's secret seed, its public commitment, and the check of a finished game."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass

from ..rules import Game, RecordError, records
from ..rules.states import GAME_OVER


def new_seed() -> int:
    """A round's secret seed, 0 <= seed < 2**63."""
    return secrets.randbits(63)


def commitment(seed: int) -> str:
    """The SHA-256 of the seed's decimal digits (docs/PROTOCOL.md section 7)."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


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
    """What a verified game proves: each round's seed and commitment, and the result the replay gives."""

    rounds: list[tuple[int, int, str]]  # (round, seed, sha256)
    players: list[str]
    scores: list[int]
    winner: int


# The result a /api/games/<id> object states beside its record, each compared with the replay's.
CLAIMS = ("players", "scores", "winner", "rounds")


def verify(record: object, commitments: object, claimed: dict | None = None) -> Verified:
    """Check every round's seed against its commitment, replay the record to the end and check the result.

    ``claimed`` is the object the record came in (GET /api/games/<id>): its ``players``, ``scores``,
    ``winner`` and ``rounds``, where present, must be what the replay gives. The commitments bind
    the seeds, not the result, so a game is verified only when it replays to its end (game over) and
    every result it states is the replay's. Raises VerifyError naming the first problem.
    """
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        raise VerifyError("server.verify.error.not_record")
    rounds = record["rounds"]
    if not isinstance(commitments, list) or not all(isinstance(c, str) for c in commitments):
        raise VerifyError("server.verify.error.no_commitments")
    if len(commitments) != len(rounds):
        raise VerifyError("server.verify.error.count", rounds=len(rounds), commitments=len(commitments))
    checked = []
    for number, (rnd, committed) in enumerate(zip(rounds, commitments), 1):
        if not isinstance(rnd, dict):
            raise VerifyError("server.verify.error.not_record")
        if "deck" in rnd:
            raise VerifyError("server.verify.error.deck", round=number)
        seed = rnd.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise VerifyError("server.verify.error.seed", round=number)
        digest = commitment(seed)
        if digest != committed.strip().lower():
            raise VerifyError("server.verify.error.mismatch", round=number, seed=seed, sha256=digest, committed=committed)
        checked.append((number, seed, digest))
    try:
        game = Game.from_record(record)
    except RecordError as err:
        raise VerifyError("server.verify.error.replay", reason=str(err)) from None
    if game.awaiting != GAME_OVER or game.game_winner is None:
        # Cut actions or a removed last round still replay legally; they just never reach the end.
        raise VerifyError("server.verify.error.unfinished", round=game.round, awaiting=game.awaiting,
                          scores=_shown(game.scores), target=game.options.target_score)
    replayed = {"players": list(game.names), "scores": list(game.scores), "winner": game.game_winner,
                "rounds": len(rounds)}
    for name in CLAIMS:
        if claimed is not None and name in claimed and not _same(claimed[name], replayed[name]):
            raise VerifyError("server.verify.error.result", field=name, claimed=_shown(claimed[name]),
                              replayed=_shown(replayed[name]))
    return Verified(checked, replayed["players"], replayed["scores"], game.game_winner)


def _same(claimed: object, replayed: object) -> bool:
    """Equal as JSON values of the same kind: ``true`` is not the winner 1, nor ``2.0`` the winner 2."""
    if isinstance(replayed, list):
        return isinstance(claimed, list) and len(claimed) == len(replayed) and all(map(_same, claimed, replayed))
    return type(claimed) is type(replayed) and claimed == replayed


def _shown(value: object) -> str:
    """A value as its JSON text, cut short so that a hostile file cannot flood the terminal."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:199] + "…"
