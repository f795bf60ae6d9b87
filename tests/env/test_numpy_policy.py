"""Policies that play with numpy alone: a plain .npz (no pickle), seated by name in the simulator and at a server table."""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest

from unokart.bots import make_bot
from unokart.bots.policy import FORMAT, PACKAGED_MODELS, NumpyPolicy, known_policies, policy_bot
from unokart.env.observation import OBS_SIZE
from unokart.sim.match import play_game


def save_policy(folder, name="mine", seed=0, hidden=16):
    """A small random policy in the trained files' format (what examples/train_numpy_ppo.py writes)."""
    rng = np.random.default_rng(seed)
    sizes = [OBS_SIZE, hidden, 255]
    layers = [(rng.standard_normal((a, b)).astype(np.float32), rng.standard_normal(b).astype(np.float32))
              for a, b in zip(sizes[:-1], sizes[1:])]
    NumpyPolicy(layers, np.ones(OBS_SIZE, np.float32), {"format": FORMAT, "activation": "tanh"}).save(folder / f"{name}.npz")
    return folder / f"{name}.npz"


def test_a_saved_policy_is_plain_arrays_loaded_without_pickle(tmp_path):
    path = save_policy(tmp_path)
    with np.load(path, allow_pickle=False) as data:  # would raise on any object (pickled) array
        assert json.loads(str(data["meta"]))["format"] == FORMAT and data["w0"].dtype == np.float32
    bad = tmp_path / "evil.npz"
    np.savez(bad, meta=np.array([{"format": FORMAT}], dtype=object), obs_scale=np.ones(OBS_SIZE))
    with pytest.raises(ValueError, match="cannot load the policy"):
        policy_bot("evil", models_dir=tmp_path)


def test_policy_names_are_names_not_paths(tmp_path):
    save_policy(tmp_path)
    for bad in ("../mine", "mine.npz", "/etc/passwd", "a/b", "", "x" * 41, "mine "):
        with pytest.raises(ValueError, match="policy name"):
            policy_bot(bad, models_dir=tmp_path)
    with pytest.raises(ValueError, match="policy:x.zip|policy name"):
        make_bot("policy:x.zip", models_dir=str(tmp_path))  # with a models folder, names only
    with pytest.raises(ValueError, match=r"no policy 'other'.*known: .*mine"):
        policy_bot("other", models_dir=tmp_path)
    assert "mine" in known_policies(tmp_path)


@pytest.mark.parametrize("players,options", [(2, None), (3, {"jump_in": True, "stacking": True, "seven_zero": True})])
def test_an_exported_policy_plays_whole_legal_games_in_the_simulator(tmp_path, players, options):
    """The simulator applies every choice through the rules core, which refuses an illegal one."""
    save_policy(tmp_path)
    bots = [make_bot("policy:mine", models_dir=str(tmp_path))] + [make_bot("heuristic")] * (players - 1)
    result = play_game(bots, seed=players, options={**(options or {}), "target_score": 400})
    assert not result.abandoned and result.winner is not None and result.rounds > 1 and result.decisions[0] > 20


def test_the_shipped_baseline_is_small_loads_by_name_and_beats_random(monkeypatch):
    monkeypatch.delenv("UNOKART_MODELS", raising=False)
    path = PACKAGED_MODELS / "baseline.npz"
    assert path.stat().st_size < 1_000_000 and "baseline" in known_policies()
    policy = NumpyPolicy.load(path)
    assert policy.meta["measured"]["vs_heuristic"]["games"] == policy.meta["measured"]["vs_ismcts"]["games"] == 2000
    bot = make_bot("policy:baseline")
    wins = sum(play_game([bot, make_bot("random")] if seed % 2 else [make_bot("random"), bot], seed=seed,
                         options={"target_score": 100}).winner == (0 if seed % 2 else 1) for seed in range(6))
    assert wins >= 5


def test_an_exported_policy_plays_legally_at_a_server_table(tmp_path):
    """A real table service (SQLite file, bot scheduler): the policy's seat never needs the autopilot."""
    from unokart.server.bots import BotScheduler
    from unokart.server import protocol
    from unokart.server.store import SQLiteStore
    from unokart.server.tables import Settings, TableService

    save_policy(tmp_path)

    async def main():
        store = SQLiteStore(tmp_path / "tables.sqlite")
        factory = lambda level: make_bot(level, models_dir=str(tmp_path))  # noqa: E731 (what serve --models does)
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0, models=frozenset({"mine"})),
                               bots=lambda s: BotScheduler(s._bot_answer, 0.0, 1, factory=factory, cheap_timeout=5.0))
        table = service.create_table(protocol.CreateTable.model_validate(
            {"seats": 2, "bots": {"0": "policy:mine", "1": "heuristic"}, "start": True, "options": {"target_score": 60}}))
        deadline = asyncio.get_running_loop().time() + 60
        while table.status != "game_over":
            assert asyncio.get_running_loop().time() < deadline, "the table did not finish"
            await asyncio.sleep(0.01)
        assert table.game.game_winner in (0, 1) and service.bots.incidents == 0
        await service.close()

    asyncio.run(main())
