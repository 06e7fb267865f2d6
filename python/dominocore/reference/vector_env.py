"""The vectorized environment of the pure-Python reference: the rounds of
``dominocore.reference`` stepped one by one (``dominocore.common.vector_env``).

>>> from dominocore.reference import ChickenFoot, VectorEnv
>>> env = VectorEnv(ChickenFoot(players=4), num_envs=2, seed=7)
>>> observations, masks, seats = env.reset(seed=7)
>>> observations.shape, masks.shape, seats.tolist()
((2, 219), (2, 112), [2, 1])
"""

from __future__ import annotations

from ..common.vector_env import PythonVectorEnv
from .rng import SplitMix64
from .round import Round

__all__ = ["VectorEnv"]


class VectorEnv(PythonVectorEnv):
    """``num_envs`` reference rounds stepped at once (see docs/ecosystem.md 4)."""

    _round_class = Round
    _rng_class = SplitMix64
