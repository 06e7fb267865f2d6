"""The reference's inference (docs/information.md 5): the likelihood of a
world under a model of how the other seats play, and the two ways of drawing
worlds in proportion to it (exact rejection, and resampling among candidates).

Written from the specification alone, apart from the core's: it replays the
world forward, move by move, asking the reference's own legal moves. The
determinizer (determinize.py) takes its sampling from ``WeightedSampling``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

from ..common.checks import check_seed, shown
from ..common.errors import StateError
from ..common.inference import OpponentModel, WeightedOptions, check_candidates, check_model
from ..common.moves import PLACE, Move
from ..common.rules import Rules
from .learned import learned_log_probability, network_for
from .rng import SplitMix64

if TYPE_CHECKING:
    from .round import Round

#: Rejected draws in a row after which the exact method gives up.
MAX_REJECTIONS = 2**20


def move_log_probability(position: "Round", move: Move, model: OpponentModel) -> Tuple[float, int]:
    """``(log P, n)``: the log-probability that the seat to move in
    ``position`` makes ``move`` under ``model``, among its distinct legal
    moves, and ``n``, how many of those place ``move``'s tile (0 for a Draw
    or a Pass, and under the learned model, whose placements of one tile
    have different probabilities)."""
    options = position.legal_moves(distinct=True)
    same = sum(1 for m in options if m.kind == PLACE and move.kind == PLACE and m.tile == move.tile)
    if len(options) <= 1:
        return 0.0, same
    if model.policy == "random":
        return -math.log(len(options)), same
    if model.policy == "learned":  # placements of one tile differ here: the bound is P <= 1
        return learned_log_probability(position, move, model.temperature), 0
    rules = position.rules

    def score(m: Move) -> int:
        return rules.tile_score(m.tile) if m.kind == PLACE else 0

    top = max(score(m) for m in options)
    total = sum(math.exp((score(m) - top) / model.temperature) for m in options)
    return (score(move) - top) / model.temperature - math.log(total), same


def log_weight(world: "Round", seat: int, model: OpponentModel) -> Tuple[float, float]:
    """``(log L, log L - log B)`` of ``world`` for ``seat``: the sum over the
    other seats' moves, in history order, of each move's log-probability,
    and the same plus ``log n`` for each of their Places (the bound B of the
    exact method). ``world`` is not changed."""
    replay = world.clone()
    history = replay._history()
    while replay.move_stack:
        replay.pop()
    log_l = log_excess = 0.0
    for mover, move, _ in history:
        if mover != seat:
            log_p, same = move_log_probability(replay, move, model)
            log_l += log_p
            log_excess += log_p + (math.log(same) if same > 1 else 0.0)
        replay.push(move, player=mover)
    return log_l, log_excess


def unit(rng: SplitMix64) -> float:
    """A uniform float in [0, 1): the top 53 bits of the generator's next output."""
    return (rng.next() >> 11) * 2.0**-53


def draw_exact(
    draw: Callable[[], "Round"], weigh: Callable[["Round"], Tuple[float, float]], rng: SplitMix64
) -> Tuple["Round", int]:
    """Rejection: uniform worlds from ``draw``, each kept with probability
    ``L / B`` (``exp`` of ``weigh``'s second value); the kept world and the
    draws rejected before it. ``StateError`` after MAX_REJECTIONS in a row."""
    for rejected in range(MAX_REJECTIONS):
        world = draw()
        u = unit(rng)
        if u == 0.0 or math.log(u) < weigh(world)[1]:
            return world, rejected
    raise StateError(
        f"cannot sample this position exactly under the opponent model: {MAX_REJECTIONS} worlds in a row were "
        "rejected (the history is too unlikely under the model; use candidates: docs/information.md 5)"
    )


def draw_resampled(
    draw: Callable[[], "Round"], weigh: Callable[["Round"], Tuple[float, float]], rng: SplitMix64, candidates: int
) -> "Round":
    """Sampling-importance-resampling: ``candidates`` uniform worlds from
    ``draw``, one returned with probability proportional to its L."""
    worlds: List["Round"] = [draw() for _ in range(candidates)]
    logs = [weigh(w)[0] for w in worlds]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    u = unit(rng) * sum(weights)
    for world, weight in zip(worlds, weights):
        u -= weight
        if u < 0:
            return world
    return worlds[-1]


class WeightedSampling(WeightedOptions):
    """The determinizer's sampling with a model (its ``sample`` and
    ``log_likelihood``; ``model`` and ``candidates`` are WeightedOptions'): the determinizer
    supplies ``_sample_uniform(rng)`` and the round's rules, seat, history
    and class."""

    _seat: int
    _rules: Rules
    _history: List[Tuple[int, Move, Any]]
    _round_class: Any  # the reference Round class

    def _sample_uniform(self, rng: SplitMix64) -> "Round":
        raise NotImplementedError

    def _set_inference(self, model: Any, candidates: Optional[int], rules: Rules) -> None:
        self._model = check_model(model)
        self._candidates = check_candidates(candidates)
        if self._model is not None and self._model.policy == "learned":
            network_for(rules)  # RulesError now, not at the first sample, when the rules have none
        self._model_draws = self._model_rejected = 0

    def sample(self, seed: Any = 0) -> "Round":
        """A world consistent with what the seat knows: uniform over them
        without a model, else in proportion to its likelihood under the
        model (docs/information.md 5: exact by rejection, or resampled from
        ``candidates`` uniform worlds). ``seed`` is an int (a fresh
        ``SplitMix64``) or a ``SplitMix64``, which then advances."""
        rng = seed if isinstance(seed, SplitMix64) else SplitMix64(check_seed(seed))
        model = self._model
        if model is None:
            return self._sample_uniform(rng)

        def draw() -> "Round":
            self._model_draws += 1
            return self._sample_uniform(rng)

        def weigh(world: "Round") -> Tuple[float, float]:
            return log_weight(world, self._seat, model)

        if self._candidates is None:
            world, rejected = draw_exact(draw, weigh, rng)
            self._model_rejected += rejected
            return world
        return draw_resampled(draw, weigh, rng, self._candidates)

    def log_likelihood(self, world: "Round") -> float:
        """``log L(world)``: the sum over the other seats' moves of the
        log-probability of each under the model (docs/information.md 5), 0.0
        without a model. ``world``: a reference ``Round`` with this
        determinizer's rules and moves (``StateError`` otherwise); it is not
        changed."""
        if not isinstance(world, self._round_class):
            raise TypeError(f"expected a dominocore Round, got {shown(world)}")
        if world.rules != self._rules or world.move_stack != [move for _, move, _ in self._history]:
            raise StateError(
                "the world has other rules or another history than the determinizer's round: its likelihood "
                "is not defined"
            )
        if self._model is None:
            return 0.0
        return log_weight(world, self._seat, self._model)[0]
