"""The compiled engine's learned policy (docs/learning.md 3): the core reads
the weights and evaluates the network; this module finds the shipped weights
and registers them with the core before a ``"learned"`` seat plays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Sequence, Union

from ..common.checks import as_int, shown
from ..common.errors import StateError
from ..common.learned import LoadedFiles
from ..common.moves import Move
from ..common.policies import ROUND_OVER_MESSAGE, view_moves
from ..common.view import PlayerView
from .codec import _core, core_rules, decode
from .network_registry import register_shipped
from .round import Round, checked_round, state_of_view

__all__ = ["LearnedPlayer", "Network", "load_network", "loaded_networks", "network_for", "uses_learned"]


class Network:
    """A learned policy's network as the core holds it (docs/learning.md 3):
    ``key`` (the rules it is for), ``inputs``, ``actions``, ``hidden``."""

    def __init__(self, core: Any) -> None:
        self._n = core
        self.key: str = core.key
        self.inputs: int = core.inputs
        self.actions: int = core.actions
        self.hidden: List[int] = list(core.hidden)
        self.value_scale: float = core.value_scale

    def check_rules(self, rules: Any) -> None:
        """``RulesError`` unless these weights are for ``rules``."""
        self._n.check_rules(core_rules(rules))

    def outputs(self, round: Round, seat: int) -> List[int]:
        """The last layer's integers for ``seat``'s observation in ``round``:
        the policy's logits by action id, then the value."""
        return [int(v) for v in self._n.outputs(checked_round(round), as_int(seat, "seat", 0, round.rules.players - 1))]

    def value(self, round: Round, seat: int) -> float:
        """The value head: ``seat``'s expected round margin, as the network sees it."""
        return self.outputs(round, seat)[-1] / self.value_scale

    def __repr__(self) -> str:
        return f"<Network {self.key} {self.inputs}-{'-'.join(map(str, self.hidden))}-{self.actions + 1}>"


_loaded = LoadedFiles()


def load_network(source: Union[str, Path, bytes]) -> Network:
    """Reads a weights file (a path or its bytes; ``RulesError`` names what is
    wrong) and makes it the network of the rules its key names, for every
    later ``"learned"`` seat."""
    data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    net = _core.Network.parse(bytes(data))
    _loaded.keep(net.key, data, lambda: _core.register_network(net))
    return Network(net)


def loaded_networks() -> List[bytes]:
    """The weights files ``load_network`` loaded here (``common.learned.LoadedFiles``)."""
    return _loaded.files()


def network_for(rules: Any) -> Network:
    """The network of ``rules``: one loaded before, else the shipped one;
    ``RulesError`` when there is none or it does not fit."""
    register_shipped(rules)
    return Network(_core.network_for(core_rules(rules)))  # checks that it fits the rules


def uses_learned(policy: Any) -> bool:
    """Whether a plain policy (a name or a list of names) has a learned seat."""
    names: Sequence[Any] = policy if isinstance(policy, (list, tuple)) else [policy]
    return "learned" in names


class LearnedPlayer:
    """The learned policy (docs/learning.md 3): the legal action with the
    largest logit of the rules' network, the lowest id on ties. It reads the
    seat to move's observation only, so a round and that seat's view give
    the same move."""

    def choose(self, round: Union[Round, PlayerView]) -> Move:
        """The move to play in ``round``, or from the view of the seat to move
        (the same move); ``StateError`` once the round is over."""
        if isinstance(round, PlayerView):
            view_moves(round)  # StateError: over, or not the viewer's turn
            network_for(round.rules)
            return decode(_core._learned_move(state_of_view(round)))
        if not isinstance(round, Round):
            raise TypeError(f"the learned player plays a dominocore Round or PlayerView, got {shown(round)}")
        if round.is_over:
            raise StateError(ROUND_OVER_MESSAGE)
        network_for(round.rules)
        return decode(_core._learned_move(checked_round(round)))

    def __repr__(self) -> str:
        return "<LearnedPlayer>"
