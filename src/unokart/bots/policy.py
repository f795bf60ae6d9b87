"""Trained policies at a real table: bots that encode their view exactly as the env does and play
the legal action index a policy scores highest (docs/DESIGN.md, "Bots and people share one interface").

    bot = policy_bot("baseline")                       # unokart/env/models/baseline.npz (shipped)
    bot = policy_bot("mine", models_dir="models/")     # models/mine.npz
    make_bot("policy:baseline")                        # the same, wherever bots are chosen by name
    PolicyBot("unokart_ppo.zip")                       # a MaskablePPO model (examples/train_maskable_ppo.py)

A bot reads only its view (the colour a Wild Draw Four covered comes from the
view's events), so it sits wherever a bot sits: simulator, server, terminal.

A policy file (``NumpyPolicy``) holds a multilayer perceptron: ``obs_scale``
(the observation is multiplied by it), then layers ``w0, b0, w1, b1, ...`` with
``tanh`` between them; the last layer gives one logit per action index
(docs/ENV.md). ``meta`` is a JSON string (how it was trained, and its measured
strength). ``np.load(..., allow_pickle=False)`` reads it: a file cannot run code.

``NAME`` is 1 to 40 letters, digits, ``-`` or ``_``: it names ``NAME.npz`` in
the models folder and nothing else (no path can be smuggled in).

This module needs numpy (``make_bot`` imports it only for a ``policy:`` level); the observation and
the action indices are the env's own (``unokart.env.observation``, ``unokart.env.actions``).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import numpy as np

from ..env.actions import DECLINE, N_ACTIONS, action_of_index, index_of_action
from ..env.observation import encode
from ..i18n import os_reason, t
from ..rules import Action, View
from ..rules.cards import WILD_DRAW_FOUR
from .knowledge import color_before_wild_draw_four

FORMAT = "unokart-policy/1"
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
PACKAGED_MODELS = Path(__file__).resolve().parent.parent / "env" / "models"


def observation_for(view: View, legal_actions: list[Action]) -> dict[str, np.ndarray]:
    """The env's observation of ``view.seat`` when asked to choose among ``legal_actions``."""
    reacting = view.seat != view.to_act
    covered = color_before_wild_draw_four(view) if view.discard and view.discard[-1] == WILD_DRAW_FOUR else -1
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[[index_of_action(a, view.n) for a in legal_actions]] = 1
    if reacting:
        mask[DECLINE] = 1
    return {"observation": encode(view, covered, reacting), "action_mask": mask}


class NumpyPolicy:
    """The weights of a policy file and its forward pass (batched)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], obs_scale: np.ndarray, meta: dict):
        self.layers = layers
        self.obs_scale = obs_scale
        self.meta = meta

    @classmethod
    def load(cls, path: "str | Path") -> "NumpyPolicy":
        """Read a policy file, with one clear sentence if it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
            meta = json.loads(str(arrays.pop("meta")))
            if meta.get("format") != FORMAT:
                raise ValueError(f"format {meta.get('format')!r} is not {FORMAT!r}")
            obs_scale = arrays.pop("obs_scale").astype(np.float32)
            layers = []
            for k in range(len(arrays) // 2):
                layers.append((arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32)))
            if not layers or len(arrays) != 2 * len(layers) or layers[0][0].shape[0] != obs_scale.shape[0]:
                raise ValueError("the layers do not fit together")
        except OSError as err:  # why the system refused the file, in the reader's language
            raise ValueError(t("env.bad_policy_file", path=path, reason=os_reason(err))) from None
        except (ValueError, KeyError, json.JSONDecodeError) as err:
            raise ValueError(t("env.bad_policy_file", path=path, reason=err)) from None
        return cls(layers, obs_scale, meta)

    def save(self, path: "str | Path") -> None:
        arrays: dict[str, Any] = {"obs_scale": self.obs_scale, "meta": np.array(json.dumps(self.meta))}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"], arrays[f"b{k}"] = w, b
        np.savez_compressed(path, **arrays)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        x = observations * self.obs_scale
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                np.tanh(x, out=x)
        return x

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal index of each row (batched: a BatchEnv's observations and masks)."""
        return np.where(masks, self.logits(observations), -np.inf).argmax(axis=-1)


class NumpyPolicyBot:
    """A bot (``choose(view, legal_actions, rng)``) playing a ``NumpyPolicy``: it encodes its view exactly
    as the env does (``observation_for``) and plays the best legal index."""

    def __init__(self, policy: NumpyPolicy, name: str = "policy"):
        self.policy = policy
        self.name = name

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        obs = observation_for(view, legal_actions)
        index = int(self.policy.act(obs["observation"][None, :], obs["action_mask"][None, :].astype(bool))[0])
        return None if index == DECLINE else action_of_index(index, view.own_seat, view.n)


class PolicyBot:
    """Plays by a saved sb3-contrib MaskablePPO policy (the optional ``train`` extra), or any model with
    ``predict(observation, action_masks=..., deterministic=...)`` returning an action index."""

    name = "policy"

    def __init__(self, model: "str | Path | Any", deterministic: bool = True):
        if isinstance(model, (str, Path)):
            model = load_policy(model)
        self.model = model
        self.deterministic = deterministic

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        obs = observation_for(view, legal_actions)
        index, _ = self.model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=self.deterministic)
        index = int(index)
        return None if index == DECLINE else action_of_index(index, view.own_seat, view.n)


def load_policy(path: "str | Path") -> Any:
    """Load a MaskablePPO model (CPU), with one clear sentence if it cannot be."""
    if not Path(path).is_file():  # said before the extra is asked for: a wrong path is the first thing to mend
        reason = t("cli.os.EISDIR") if Path(path).is_dir() else t("env.no_such_file")
        raise RuntimeError(t("env.policy_missing", path=path, reason=reason))
    try:
        from sb3_contrib import MaskablePPO  # the optional training extra, only when such a model is asked for
    except ImportError:
        raise RuntimeError(t("env.policy_missing", path=path, reason=t("env.extra_missing", missing="sb3-contrib"))) from None
    try:
        return MaskablePPO.load(str(path), device="cpu")
    except Exception as err:  # a broken or foreign file: say which and why
        raise RuntimeError(t("env.policy_missing", path=path, reason=f"{type(err).__name__}: {err}")) from None


def models_folders(models_dir: "str | Path | None" = None) -> list[Path]:
    """Where ``policy:NAME`` is looked for: ``models_dir`` (or $UNOKART_MODELS), then the shipped models."""
    chosen = models_dir if models_dir is not None else os.environ.get("UNOKART_MODELS")
    return ([Path(chosen)] if chosen else []) + [PACKAGED_MODELS]


def known_policies(models_dir: "str | Path | None" = None) -> list[str]:
    """The policy names available (for menus): every ``NAME.npz`` with a valid NAME in the models folders."""
    names: set[str] = set()
    for folder in models_folders(models_dir):
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.npz") if NAME_PATTERN.fullmatch(p.stem))
    return sorted(names)


def policy_path(name: str, models_dir: "str | Path | None" = None) -> Path:
    """The file of policy ``name``; ValueError (one sentence) for a bad name or a missing file."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(t("env.bad_policy_name", name=name))
    folders = models_folders(models_dir)
    for folder in folders:
        path = folder / f"{name}.npz"
        if path.is_file():
            return path
    raise ValueError(t("env.no_policy", name=name, path=folders[0] / f"{name}.npz",
                       known=", ".join(known_policies(models_dir)) or "-"))


def policy_bot(name: str, models_dir: "str | Path | None" = None) -> NumpyPolicyBot:
    """The bot for ``policy:NAME`` (what ``make_bot`` and the server call)."""
    return NumpyPolicyBot(NumpyPolicy.load(policy_path(name, models_dir)), f"policy:{name}")


def policy_level(written: str, models_dir: "str | None" = None) -> "NumpyPolicyBot | PolicyBot":
    """The bot for the level ``policy:<written>``: a NAME in the models folders; without a ``models_dir``
    also a ``.npz`` file by path, or a MaskablePPO ``.zip``."""
    if models_dir is not None or NAME_PATTERN.fullmatch(written):
        return policy_bot(written, models_dir)
    if written.endswith(".npz"):
        return NumpyPolicyBot(NumpyPolicy.load(written), f"policy:{written}")
    if not written.endswith(".zip"):
        raise ValueError(t("env.policy_missing", path=written, reason=t("env.not_a_policy_file")))
    return PolicyBot(written)
