"""The vectorized environment's shared part (docs/ecosystem.md 4).

``VectorEnv(rules, num_envs, seed=0, threads=None, round_index=0)`` steps
``num_envs`` rounds at once. Environment ``i`` plays rounds one after the
other: its round ``k`` (``k = 0, 1, ...``, the environment's *episode*) is
``Round(rules, seed=round_seed(seed, i, k), round_index=round_index)``, and
its built-in random policy draws from ``SplitMix64(round_seed(seed, i, k) ^
0xD1B54A32D192ED03)``, reseeded with every round. Nothing depends on the
thread count.

This module holds the argument checks, the seed formula, the base class
with the common surface, and ``PythonVectorEnv``, the pure-Python
implementation over any ``Round`` class (``dominocore.reference.VectorEnv``
uses the reference's). The compiled one is ``dominocore.VectorEnv``.

>>> round_seed(7, 3, 0), round_seed(7, 3, 1) == 7 + 3 + 2**32
(10, True)
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from .checks import MAX_THREADS, PLAYER_SEED_XOR, Guarded, as_int, check_round_index, check_seed, shown
from .errors import IllegalMoveError, RulesError, StateError
from .information import observation_tensor_size
from .messages import illegal_action
from .rules import Rules, check_rules

__all__ = [
    "MAX_ENVS",
    "MAX_SKIPPED_DEALS",
    "PythonVectorEnv",
    "VectorEnvBase",
    "as_actions",
    "check_vector_env_args",
    "round_seed",
]

#: The most environments one VectorEnv holds.
MAX_ENVS = 1 << 24
#: Rounds that end at their set-up are skipped; more than this many in a row: ``StateError``.
MAX_SKIPPED_DEALS = 1 << 16
_MASK64 = (1 << 64) - 1

#: (observations, masks, seats): what ``reset`` returns.
ResetResult = Tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.int32]]
#: (observations, rewards, terminations, masks, seats): what ``step`` returns.
StepResult = Tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.int32]]
#: What ``step`` takes: one integer action id per environment (a sequence of
#: ints or an integer array).
ActionsLike = Union[Sequence[int], Sequence[np.integer[Any]], NDArray[np.integer[Any]]]


def round_seed(seed: int, env: int, episode: int) -> int:
    """The seed of environment ``env``'s round ``episode`` in a vector
    environment seeded ``seed``: ``(seed + env + episode * 2**32) mod 2**64``.
    Episode 0 of environment ``i`` is the round ``simulate(rules, rounds=...,
    seed=seed)`` plays as its round ``i``."""
    return (seed + env + (episode << 32)) & _MASK64


def check_vector_env_args(
    rules: Any, num_envs: Any, seed: Any, threads: Any, round_index: Any
) -> Tuple[int, int, Optional[int], int]:
    """``(num_envs, seed, threads, round_index)`` checked (``RulesError``;
    ``StateError`` for a round index the rules do not have)."""
    check_rules(rules)
    n = as_int(num_envs, "num_envs", 1, MAX_ENVS)
    s = check_seed(seed)
    t = None if threads is None else as_int(threads, "threads", 1, MAX_THREADS)
    return n, s, t, check_round_index(rules, round_index)


def as_actions(actions: Any, num_envs: int) -> np.ndarray:
    """A copy of ``actions`` as a C-contiguous int64 array of shape
    ``(num_envs,)``: any integer array (or sequence of ints) of that shape;
    ``RulesError`` for another shape, a non-integer dtype (bool included) or
    a value beyond int64. The caller's object is read once, into the copy
    that is checked and returned: another thread writing to it meanwhile
    cannot make a step play what it did not check (docs/validation.md,
    "Threads")."""
    arr = np.array(actions)  # always a new array
    if isinstance(actions, (list, tuple)) and any(isinstance(a, (bool, np.bool_)) for a in actions):
        raise RulesError(f"actions must be integers, not bools ({shown(actions)})")  # numpy made them ints
    if arr.dtype.kind not in "iu":
        raise RulesError(f"actions must be an integer array, got dtype {arr.dtype} ({shown(actions)})")
    if arr.shape != (num_envs,):
        raise RulesError(f"actions must have shape ({num_envs},), one action per environment, got {arr.shape}")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise RulesError(f"actions must fit in int64, got {int(arr.max())}")
    return np.ascontiguousarray(arr, dtype=np.int64)  # arr itself when it is already int64


def _read_only(arr: np.ndarray) -> np.ndarray:
    view = arr.view()
    view.flags.writeable = False
    return view


class VectorEnvBase(Guarded):
    """What both implementations share: the read-only properties over the
    arrays every call rewrites (see docs/ecosystem.md 4)."""

    _init_marker = "_rules"
    _rules: Rules
    _num_envs: int
    _round_index: int
    # Read-only views of the buffers: observations, masks, seats, rewards,
    # terminations, actions, episodes.
    _obs: NDArray[np.float32]
    _masks: NDArray[np.bool_]
    _seats: NDArray[np.int32]
    _rewards: NDArray[np.float32]
    _terms: NDArray[np.bool_]
    _actions: NDArray[np.int32]
    _episodes: NDArray[np.int64]

    @property
    def rules(self) -> Rules:
        """The rules every environment plays."""
        return self._rules

    @property
    def num_envs(self) -> int:
        """How many rounds are stepped at once."""
        return self._num_envs

    @property
    def players(self) -> int:
        """Seats per round (the rewards' second dimension)."""
        return self._rules.players

    @property
    def num_actions(self) -> int:
        """The game's action space size (the masks' second dimension)."""
        return self._rules.num_actions

    @property
    def observation_shape(self) -> Tuple[int]:
        """The shape of one environment's observation, ``Round.observation_tensor_shape``."""
        return (int(self._obs.shape[1]),)

    @property
    def round_index(self) -> int:
        """The round index every round is dealt with."""
        return self._round_index

    @property
    def masks(self) -> NDArray[np.bool_]:
        """The legal-action masks now, ``(num_envs, num_actions)`` bool."""
        return self._masks

    @property
    def seats(self) -> NDArray[np.int32]:
        """The seat to move in each environment now, ``(num_envs,)`` int32."""
        return self._seats

    @property
    def actions(self) -> NDArray[np.int32]:
        """The actions the last step played, ``(num_envs,)`` int32 (-1 after a reset)."""
        return self._actions

    @property
    def episodes(self) -> NDArray[np.int64]:
        """Each environment's round number ``k`` now, ``(num_envs,)`` int64 (its seed: ``round_seed``)."""
        return self._episodes

    def _step_result(self) -> StepResult:
        return self._obs, self._rewards, self._terms, self._masks, self._seats

    def _reset_result(self) -> ResetResult:
        return self._obs, self._masks, self._seats

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._num_envs} x {self._rules!r}>"


class PythonVectorEnv(VectorEnvBase):
    """The vectorized environment in pure Python over ``_round_class``
    rounds, one by one: the definition the compiled ``dominocore.VectorEnv``
    is tested against. ``threads`` is checked and not used."""

    _round_class: ClassVar[Any]
    _rng_class: ClassVar[Any]
    _network_for: ClassVar[Any]  # the engine's network_for(rules)

    def __init__(
        self, rules: Rules, num_envs: int, seed: int = 0, threads: Optional[int] = None, round_index: int = 0
    ) -> None:
        n, s, t, ri = check_vector_env_args(rules, num_envs, seed, threads, round_index)
        self._num_envs, self._seed, self._threads, self._round_index = n, s, 1, ri
        # Serialises the calls, as the compiled environment's lock does: two
        # threads stepping at once step one after the other.
        self._lock = threading.Lock()
        self._rounds: List[Any] = []
        self._policies: List[Any] = []
        p, a = rules.players, rules.num_actions
        size = observation_tensor_size(rules)
        self._buf: Dict[str, np.ndarray] = {
            "obs": np.zeros((n, size), np.float32),
            "masks": np.zeros((n, a), np.bool_),
            "seats": np.zeros(n, np.int32),
            "rewards": np.zeros((n, p), np.float32),
            "terms": np.zeros(n, np.bool_),
            "actions": np.full(n, -1, np.int32),
            "episodes": np.zeros(n, np.int64),
        }
        for name, arr in self._buf.items():
            setattr(self, "_" + name, _read_only(arr))
        self._rules = rules
        self.reset(s)

    @property
    def seed(self) -> int:
        """The seed of the rounds now being played (``reset(seed=)`` sets it)."""
        return self._seed

    @property
    def threads(self) -> int:
        """Threads used: 1 (pure Python)."""
        return self._threads

    def reset(self, seed: Optional[int] = None) -> ResetResult:
        """Deals every environment's round 0 of ``seed`` (given), else its
        next round; returns ``(observations, masks, seats)``."""
        seed = None if seed is None else check_seed(seed)
        with self._lock:
            b = self._buf
            if seed is not None:
                self._seed = seed
                b["episodes"][:] = 0
            else:
                b["episodes"] += 1
            self._rounds, self._policies = [], []
            for i in range(self._num_envs):
                self._rounds.append(None)
                self._policies.append(None)
                self._deal(i)
            b["rewards"][:] = 0
            b["terms"][:] = False
            b["actions"][:] = -1
        return self._reset_result()

    def step(self, actions: ActionsLike) -> StepResult:
        """Plays ``actions[i]`` in environment ``i``; returns
        ``(observations, rewards, terminations, masks, seats)``. An illegal
        action raises ``IllegalMoveError`` naming the first such environment,
        and no environment moves."""
        acts = as_actions(actions, self._num_envs).tolist()  # read once: checked and played
        with self._lock:
            masks, a_count = self._buf["masks"], self._rules.num_actions
            for i, a in enumerate(acts):
                if not (0 <= a < a_count and masks[i, a]):
                    r = self._rounds[i]
                    text = illegal_action(a, a_count, r.is_over, r.legal_actions())
                    raise IllegalMoveError("illegal_action", f"environment {i}: {text}")
            for i, a in enumerate(acts):
                self._play(i, a)
        return self._step_result()

    def step_random(self) -> StepResult:
        """Plays, in every environment, the legal action ``ids[below(len(ids))]``
        (ids ascending) drawn from its policy generator; returns as ``step``."""
        with self._lock:
            for i in range(self._num_envs):
                ids = self._rounds[i].legal_actions()
                self._play(i, ids[self._policies[i].below(len(ids))])
        return self._step_result()

    def step_learned(self) -> StepResult:
        """Plays, in every environment, the learned policy's action for the
        seat to move (docs/learning.md 3); returns as ``step``. ``RulesError``,
        and nothing moves, when the rules have no network."""
        net = self._network_for(self._rules)
        with self._lock:
            obs, masks = self._buf["obs"], self._buf["masks"]
            for i in range(self._num_envs):
                ids = np.flatnonzero(masks[i])
                logits = net.outputs_of(obs[i])
                self._play(i, int(ids[np.argmax(logits[ids])]))  # argmax: the lowest id on ties
        return self._step_result()

    def round(self, env: int) -> Any:
        """A copy of environment ``env``'s round (the full state: every hand)."""
        i = as_int(env, "env", 0, self._num_envs - 1)
        with self._lock:
            return self._rounds[i].clone()

    def _deal(self, i: int) -> None:
        episodes = self._buf["episodes"]
        for _ in range(MAX_SKIPPED_DEALS + 1):
            s = round_seed(self._seed, i, int(episodes[i]))
            self._rounds[i] = self._round_class(self._rules, seed=s, round_index=self._round_index)
            self._policies[i] = self._rng_class(s ^ PLAYER_SEED_XOR)  # as RandomPlayer's
            if not self._rounds[i].is_over:
                self._observe(i)
                return
            episodes[i] += 1  # a round over at its set-up (docs/rules.md 1.5): skipped
        raise StateError(f"environment {i}: {MAX_SKIPPED_DEALS + 1} rounds in a row ended at their set-up")

    def _observe(self, i: int) -> None:
        r, b = self._rounds[i], self._buf
        seat = r.current_player
        b["seats"][i] = seat
        r.observation_tensor(seat, out=b["obs"][i])
        r.legal_action_mask(out=b["masks"][i])

    def _play(self, i: int, action: int) -> None:
        r, b = self._rounds[i], self._buf
        r.apply_action(action)
        b["actions"][i] = action
        if r.is_over:
            b["rewards"][i] = self._rules.round_margins(list(r.result.points))
            b["terms"][i] = True
            b["episodes"][i] += 1
            self._deal(i)
        else:
            b["rewards"][i] = 0
            b["terms"][i] = False
            self._observe(i)
