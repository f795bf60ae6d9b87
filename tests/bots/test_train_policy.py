"""examples/train_policy.py: its hand-written gradients are the loss's, and what it records is what the
policy sees and what the teacher chose."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from unokart.bots import make_bot
from unokart.bots.policy import observation_for
from unokart.env.actions import DECLINE, N_ACTIONS, index_of_action
from unokart.sim.match import play_game

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


def load_script():
    spec = importlib.util.spec_from_file_location("train_policy", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_hand_written_gradients_match_finite_differences():
    tp = load_script()
    rng = np.random.default_rng(3)
    p = {k: v.astype(np.float64) for k, v in tp.init_params(rng, [7, 5, 4, 6]).items()}
    x = rng.standard_normal((9, 7))
    mask = rng.random((9, 6)) < 0.6
    y = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
    mask[np.arange(9), y] = True  # the label is always legal

    def loss(q):
        return tp.grads_of(q, x, mask, y)[1]

    grads, _ = tp.grads_of(p, x, mask, y)
    for name in ("w0", "b1", "w2"):
        flat = p[name].reshape(-1)
        for i in rng.choice(flat.size, 4, replace=False):
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss(p)
            flat[i] = keep - 1e-6
            down = loss(p)
            flat[i] = keep
            assert abs((up - down) / 2e-6 - grads[name].reshape(-1)[i]) < 1e-6


class Spy:
    """The teacher, keeping what it was asked (as the policy would see it) and what it answered."""

    def __init__(self):
        self.careful, self.asked, self.name = make_bot("careful"), [], "careful"

    def choose(self, view, legal, rng):
        action = self.careful.choose(view, legal, rng)
        self.asked.append((observation_for(view, legal), action, view.n))
        return action


def test_the_recorder_plays_as_the_teacher_and_keeps_what_the_policy_sees_with_the_teacher_s_index():
    tp = load_script()
    sink: list = []
    spy = Spy()
    recorded = play_game([tp.Recorder(spy, sink), make_bot("heuristic")], seed=5, options={"target_score": 150})
    alone = play_game([make_bot("careful"), make_bot("heuristic")], seed=5, options={"target_score": 150})
    assert (recorded.scores, recorded.decisions) == (alone.scores, alone.decisions)  # it plays as careful does
    chosen = [(obs, action, n) for obs, action, n in spy.asked if obs["action_mask"].sum() > 1]
    assert len(sink) == len(chosen) > 20
    for (obs, packed, index), (seen, action, n) in zip(sink, chosen):
        assert np.array_equal(obs, seen["observation"].astype(np.float16))
        mask = np.unpackbits(packed, count=N_ACTIONS).astype(bool)
        assert np.array_equal(mask, seen["action_mask"].astype(bool)) and mask[index]
        assert index == (DECLINE if action is None else index_of_action(action, n))
