"""A Gymnasium vector environment over ``dominocore.VectorEnv`` (docs/ecosystem.md 4).

``GymVectorEnv(rules, num_envs, ...)`` follows ``gymnasium.vector.VectorEnv``:
``reset(seed=)`` returns ``(observations, infos)``, ``step(actions)`` returns
``(observations, rewards, terminations, truncations, infos)``, with
same-step auto-reset (``metadata["autoreset_mode"]``). What a multi-player
game does not fit, and how it is mapped:

- the acting seat varies: ``infos["seat"]`` is each environment's seat to
  move, and the observation is that seat's;
- every seat has a reward: ``rewards[i]`` is the round margin of the seat
  that made environment ``i``'s move (zero until its round ends), and
  ``infos["margins"]`` every seat's, ``(num_envs, players)``;
- the legal actions: ``observations["action_mask"]`` (int8 0/1, as the
  PettingZoo bridge gives it), also ``action_masks()``.

>>> import dominocore as dc
>>> from dominocore.gymnasium_vector import GymVectorEnv
>>> env = GymVectorEnv(dc.ChickenFoot(players=4), num_envs=2, threads=1)
>>> observations, infos = env.reset(seed=7)
>>> observations["observation"].shape, observations["action_mask"].shape, infos["seat"].tolist()
((2, 219), (2, 112), [2, 1])
>>> env.action_space
MultiDiscrete([112 112])
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._implementations import implementation as implementation_named
from .common.checks import action_key
from .common.errors import IllegalMoveError
from .common.information import observation_high, observation_tensor_size
from .common.messages import illegal_action
from .common.rules import Rules

__all__ = ["GymVectorEnv"]


def observation_space(rules: Rules) -> "gymnasium.spaces.Dict":
    """One seat's observation as a Gymnasium space (the PettingZoo bridge's
    too): ``observation``, the information model's tensor (docs/information.md
    3), and ``action_mask``, the legal action ids as int8."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                low=0.0, high=observation_high(rules), shape=(observation_tensor_size(rules),), dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(rules.num_actions,), dtype=np.int8),
        }
    )


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` rounds of ``rules`` as one ``gymnasium.vector.VectorEnv``.

    ``threads`` and ``round_index`` go to ``VectorEnv``; ``implementation``
    is ``"default"`` (``import dominocore``), ``"cpp"`` or ``"python"``
    (``dominocore.reference``); ``copy`` (default True) returns copies of
    the environment's arrays, else read-only views that the next call
    rewrites. Rounds never truncate (every round ends: docs/ecosystem.md 1.4).
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        rules: Rules,
        num_envs: int,
        threads: Optional[int] = None,
        round_index: int = 0,
        implementation: str = "default",
        copy: bool = True,
    ) -> None:
        module = implementation_named(implementation)
        self.env: Any = module.VectorEnv(rules, num_envs, seed=0, threads=threads, round_index=round_index)
        self.rules = rules
        self.num_envs = self.env.num_envs
        self.copy = bool(copy)
        self.single_observation_space = observation_space(rules)
        self.single_action_space = gymnasium.spaces.Discrete(rules.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._arange = np.arange(self.num_envs)
        self._truncations = np.zeros(self.num_envs, np.bool_)

    def _out(self, arr: np.ndarray) -> np.ndarray:
        return arr.copy() if self.copy else arr

    def _observations(self, obs: np.ndarray, masks: np.ndarray) -> Dict[str, np.ndarray]:
        return {"observation": self._out(obs), "action_mask": self._out(masks.view(np.int8))}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Deals every environment's round 0 of ``seed`` (given), else its
        next round. ``options`` are accepted and not read."""
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        obs, masks, seats = self.env.reset(seed=seed)
        return self._observations(obs, masks), {"seat": seats.copy()}

    def step(self, actions: Any) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Plays one action id per environment (``IllegalMoveError`` naming
        the first illegal one; nothing moves then). Returns ``(observations,
        rewards, terminations, truncations, infos)``: ``rewards`` the mover's
        round margin where its round just ended, ``infos`` the seat to move
        (``"seat"``) and every seat's margins (``"margins"``, ``"_margins"``
        True where a round ended)."""
        self._refuse_non_integers(actions)
        movers = self.env.seats.copy()
        obs, margins, terms, masks, seats = self.env.step(actions)
        rewards = margins[self._arange, movers].astype(np.float64)
        infos = {"seat": seats.copy(), "margins": margins.copy(), "_margins": terms.copy()}
        return self._observations(obs, masks), rewards, terms.copy(), self._truncations.copy(), infos

    def _refuse_non_integers(self, actions: Any) -> None:
        # An action id is an integer (docs/validation.md, "Integers"): a
        # float, a bool or a string is refused as Round.apply_action refuses
        # it, IllegalMoveError("illegal_action") naming the first environment
        # whose action is refused (not an integer, or not legal), before
        # anything moves. (A list mixing bools and ints would otherwise become
        # an integer array, True playing 1, and a float array would be
        # VectorEnv's RulesError.) Integer arrays go straight to VectorEnv,
        # which checks them; a wrong shape is VectorEnv's RulesError.
        if isinstance(actions, np.ndarray) and actions.dtype.kind in "iu":
            return
        if isinstance(actions, np.ndarray):
            items = actions.tolist() if actions.shape == (self.num_envs,) else None
        else:
            try:
                array = np.asarray(actions, dtype=object)
            except (TypeError, ValueError):
                return
            items = list(array) if array.shape == (self.num_envs,) else None
        if items is None:
            return  # a wrong shape: VectorEnv's RulesError
        keys = [action_key(value) for value in items]
        if None not in keys:
            return  # integers: VectorEnv checks them
        masks, count = self.env.masks, self.rules.num_actions
        for i, (value, key) in enumerate(zip(items, keys)):  # name the first environment refused
            if key is None or not (0 <= key < count and masks[i, key]):
                text = illegal_action(value, count, False, np.flatnonzero(masks[i]).tolist())
                raise IllegalMoveError("illegal_action", f"environment {i}: {text}")

    def action_masks(self) -> np.ndarray:
        """The legal-action masks now, ``(num_envs, num_actions)`` bool (for
        action-masking learners)."""
        return self.env.masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the environment's threads end with it."""
