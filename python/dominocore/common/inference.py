"""Inference from the other seats' moves (docs/information.md 5): the model
of how they play, and the checks of the determinizer's inference options.

A value type shared by both engines: each engine computes the model's
probabilities itself, from its own legal moves, and the two are compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

from .checks import as_int, shown
from .errors import RulesError

#: The models: every other seat picks uniformly among its distinct legal
#: moves ("random"), by a softmax over the placed tile's hand score
#: ("softmax"), or by a softmax over the learned network's logits ("learned").
MODEL_POLICIES = ("random", "softmax", "learned")
#: The most candidate worlds one resampled world may be drawn from.
MAX_CANDIDATES = 4096
#: The temperatures a softmax model may have: positive and at most this.
MAX_TEMPERATURE = 1e6


@dataclass(frozen=True)
class OpponentModel:
    """How the other seats are assumed to choose their moves, given their
    hand and the public position (docs/information.md 5).

    - ``OpponentModel("random")``: uniformly among the distinct legal moves
      (``round.legal_moves()``), as the built-in random player does;
    - ``OpponentModel("softmax", temperature=t)``: move m with probability
      ``exp(score(m) / t)`` over the sum of the same for every distinct legal
      move, where ``score`` is the placed tile's hand score (its pips; 0-0
      scores 50 under ``double_blank_50``) and 0 for a Draw or a Pass. A small
      ``t`` plays almost like the greedy player, a large one almost at random;
    - ``OpponentModel("learned", temperature=t)``: the same softmax over the
      learned network's logits for the moves' action ids, in the mover's
      observation (docs/learning.md 3); the rules need a network.

    ``RulesError`` for another policy or a temperature that is not a finite
    number in (0, 1e6]."""

    policy: str = "softmax"
    temperature: float = 3.0

    def __post_init__(self) -> None:
        if self.policy not in MODEL_POLICIES:
            raise RulesError(f"policy must be one of {', '.join(map(repr, MODEL_POLICIES))}, got {shown(self.policy)}")
        t = self.temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= MAX_TEMPERATURE:
            raise RulesError(f"temperature must be a number in (0, {MAX_TEMPERATURE:g}], got {shown(t)}")
        object.__setattr__(self, "temperature", float(t))

    def __repr__(self) -> str:
        if self.policy == "random":
            return "OpponentModel('random')"
        return f"OpponentModel({self.policy!r}, temperature={self.temperature!r})"


def check_model(model: Any) -> Optional[OpponentModel]:
    """``model`` as an ``OpponentModel`` or ``None``: a policy name stands for
    that policy's model with its default temperature; ``RulesError`` for
    anything else."""
    if model is None or isinstance(model, OpponentModel):
        return model
    if isinstance(model, str):
        return OpponentModel(model)
    raise RulesError(f"model must be None, an OpponentModel or one of {MODEL_POLICIES}, got {shown(model)}")


def check_candidates(candidates: Any) -> Optional[int]:
    """``None`` (exact sampling by rejection) or a count of candidate worlds
    in 1..MAX_CANDIDATES; ``RulesError`` otherwise."""
    if candidates is None:
        return None
    return as_int(candidates, "candidates", 1, MAX_CANDIDATES)


def core_arguments(model: Optional[OpponentModel], candidates: Optional[int]) -> Tuple[int, float, int]:
    """The compiled core's form of checked options: the model's number (0
    none, 1 random, 2 softmax, 3 learned), its temperature (the default without one)
    and the candidates (0: exact)."""
    code = 0 if model is None else 1 + MODEL_POLICIES.index(model.policy)
    return code, OpponentModel.temperature if model is None else model.temperature, candidates or 0


class WeightedOptions:
    """What both engines' determinizers say of their inference: ``model``,
    ``candidates`` and the words their ``repr`` adds (set ``_model`` and
    ``_candidates``, checked)."""

    __slots__ = ()
    _model: Optional[OpponentModel]
    _candidates: Optional[int]

    @property
    def model(self) -> Optional[OpponentModel]:
        """The model of the other seats' play, or ``None`` (uniform worlds)."""
        return self._model

    @property
    def candidates(self) -> Optional[int]:
        """``None`` (exact sampling by rejection) or the candidate worlds one world is resampled from."""
        return self._candidates

    def _weighting_repr(self) -> str:
        return "" if self._model is None else f" model={self._model!r} candidates={self._candidates!r}"
