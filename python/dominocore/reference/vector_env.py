"""The vectorized environment of the pure-Python reference: the rounds of
``dominocore.reference`` stepped one by one (``dominocore.common.vector_env``).

Rewards arrive step by step: after each step, every seat's change in its
round margin (``rules.round_margins``) of the points so far, the points
scored during play (docs/games/all_fives.md F5) and, once the round is over,
its points at the end. Over a round they add up to the round's margin; in
the games that score only at the end everything arrives at the last step.

>>> from dominocore.reference import ChickenFoot, VectorEnv
>>> env = VectorEnv(ChickenFoot(players=4), num_envs=2, seed=7)
>>> observations, masks, seats = env.reset(seed=7)
>>> observations.shape, masks.shape, seats.tolist()
((2, 219), (2, 112), [2, 1])
"""

from __future__ import annotations

from typing import Any, List

from ..common.vector_env import PythonVectorEnv
from .learned import network_for
from .rng import SplitMix64
from .round import Round

__all__ = ["VectorEnv"]


class VectorEnv(PythonVectorEnv):
    """``num_envs`` reference rounds stepped at once (see docs/ecosystem.md 4)."""

    _round_class = Round
    _rng_class = SplitMix64
    _network_for = staticmethod(network_for)

    def _deal(self, i: int) -> None:
        super()._deal(i)
        margins: List[Any] = getattr(self, "_margins", None) or []
        if len(margins) != self._num_envs:
            margins = [None] * self._num_envs
            self._margins = margins
        margins[i] = [0.0] * self._rules.players  # nothing scored yet

    def _play(self, i: int, action: int) -> None:
        r, b = self._rounds[i], self._buf
        r.apply_action(action)
        b["actions"][i] = action
        over = r.is_over
        points = r.result.points if over else r.play_points
        margins = self._rules.round_margins(list(points))
        before = self._margins[i]
        b["rewards"][i] = [now - then for now, then in zip(margins, before)]
        self._margins[i] = margins
        b["terms"][i] = over
        if over:
            b["episodes"][i] += 1
            self._deal(i)
        else:
            self._observe(i)
