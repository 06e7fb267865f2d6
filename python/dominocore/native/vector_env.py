"""The compiled vectorized environment, ``dominocore.VectorEnv`` (docs/ecosystem.md 4).

Every call runs in C++ with the GIL released, on a pool of ``threads``
threads; the arrays it returns are read-only numpy views of the core's own
buffers, rewritten in place by the next call (copy what you keep).

>>> import dominocore as dc
>>> env = dc.VectorEnv(dc.ChickenFoot(players=4), num_envs=2, seed=7, threads=1)
>>> observations, masks, seats = env.reset(seed=7)
>>> observations.shape, masks.shape, seats.tolist()
((2, 219), (2, 112), [2, 1])
>>> observations, rewards, terminations, masks, seats = env.step_random()
>>> rewards.shape, terminations.tolist()
((2, 4), [False, False])
"""

from __future__ import annotations

from typing import Optional

from ..common.checks import as_int, check_seed
from ..common.rules import Rules
from ..common.vector_env import ActionsLike, ResetResult, StepResult, VectorEnvBase, as_actions, check_vector_env_args
from .codec import _core
from .learned import network_for
from .round import Round

__all__ = ["VectorEnv"]


class VectorEnv(VectorEnvBase):
    """``num_envs`` rounds of ``rules`` stepped at once in C++.

    Environment ``i``'s round ``k`` is ``Round(rules, seed=round_seed(seed,
    i, k), round_index=round_index)`` (``dominocore.common.vector_env``); a
    round that ends is replaced in the same step (its margins in the
    rewards, its termination flag set). ``threads``: 1..256, default every
    core; the results do not depend on it.
    """

    def __init__(
        self, rules: Rules, num_envs: int, seed: int = 0, threads: Optional[int] = None, round_index: int = 0
    ) -> None:
        n, s, t, ri = check_vector_env_args(rules, num_envs, seed, threads, round_index)
        t = _core.hardware_threads() if t is None else t
        self._core = _core.VectorEnvCore(_core.CoreRules(rules), n, s, t, ri)
        self._num_envs, self._round_index = n, ri
        (
            self._obs,
            self._masks,
            self._seats,
            self._rewards,
            self._terms,
            self._actions,
            self._episodes,
        ) = self._core._arrays()
        self._rules = rules

    @property
    def seed(self) -> int:
        """The seed of the rounds now being played (``reset(seed=)`` sets it)."""
        return int(self._core.seed)

    @property
    def threads(self) -> int:
        """Threads used: the ``threads`` asked for, at most ``num_envs``."""
        return int(self._core.threads)

    @property
    def bytes_per_env(self) -> int:
        """Bytes held per environment: its round state and undo history, its
        rows of the arrays and its generator."""
        return int(self._core.bytes_per_env)

    def reset(self, seed: Optional[int] = None) -> ResetResult:
        """Deals every environment's round 0 of ``seed`` (given), else its
        next round; returns ``(observations, masks, seats)``."""
        self._core._reset(None if seed is None else check_seed(seed))
        return self._reset_result()

    def step(self, actions: ActionsLike) -> StepResult:
        """Plays ``actions[i]`` in environment ``i``; returns
        ``(observations, rewards, terminations, masks, seats)``. An illegal
        action raises ``IllegalMoveError`` naming the first such environment,
        and no environment moves."""
        self._core._step(as_actions(actions, self._num_envs))
        return self._step_result()

    def step_random(self) -> StepResult:
        """Plays, in every environment, the legal action ``ids[below(len(ids))]``
        (ids ascending) drawn from its policy generator, in C++; returns as ``step``."""
        self._core._step_random()
        return self._step_result()

    def step_learned(self) -> StepResult:
        """Plays, in every environment, the learned policy's action for the
        seat to move (docs/learning.md 3), in C++; returns as ``step``.
        ``RulesError``, and nothing moves, when the rules have no network."""
        network_for(self._rules)
        self._core._step_learned()
        return self._step_result()

    def round(self, env: int) -> Round:
        """A copy of environment ``env``'s round (the full state: every hand)."""
        return Round._wrap(self._rules, self._core._state(as_int(env, "env", 0, self._num_envs - 1)))
