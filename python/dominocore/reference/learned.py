"""The reference's learned network (docs/learning.md 3): its own reader of a
weights file, evaluated with the neutral layer's numpy integers
(``common.learned.fixed_point_outputs``, which the core does not use: it has
its own C++). Every sum is exact, so it gives the core's numbers to the last
bit, whatever the order of the additions. The policy's action and
log-probability are here; its player is in ``players.py``.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple, Union

import numpy as np

from ..common.checks import shown
from ..common.errors import RulesError
from ..common.information import observation_tensor_size
from ..common.learned import (
    MAGIC,
    LoadedFiles,
    fixed_point_outputs,
    fnv1a64,
    network_key,
    shipped_keys,
    shipped_weights,
)
from ..common.moves import Move

__all__ = ["Network", "learned_action", "learned_log_probability", "load_network", "loaded_networks", "network_for"]

_MAX_LAYERS = 8
_MAX_HIDDEN = 256


class Network:
    """A network read from a weights file's bytes (``RulesError`` names what is wrong)."""

    def __init__(self, data: bytes) -> None:
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"a network is read from bytes, got {shown(data)}")
        data = bytes(data)
        if len(data) < 16 or data[:5] != MAGIC[:5]:
            raise RulesError("weights file: not a dominocore network (no DCNET header)")
        if data[:8] != MAGIC:
            raise RulesError(f"weights file: format version {data[7]} is not the supported version {MAGIC[7]}")
        if struct.unpack("<Q", data[-8:])[0] != fnv1a64(data[:-8]):
            raise RulesError("weights file: checksum mismatch (the file is damaged)")
        body, at = data[:-8], 8

        def take(fmt: str, what: str) -> Tuple[Any, ...]:
            nonlocal at
            size = struct.calcsize(fmt)
            if at + size > len(body):
                raise RulesError(f"weights file: truncated in {what}")
            values = struct.unpack_from(fmt, body, at)
            at += size
            return values

        def count(what: str, low: int, high: int) -> int:
            (value,) = take("<I", what)
            if not low <= value <= high:
                raise RulesError(f"weights file: {what} is {value}, expected {low}..{high}")
            return int(value)

        length = count("key length", 1, 64)
        (raw,) = take(f"<{length}s", "key")
        self.key: str = raw.decode("ascii", "replace")
        self.inputs = count("inputs", 1, 1 << 16)
        self.actions = count("actions", 1, 1 << 16)
        n = count("layers", 2, _MAX_LAYERS)  # one hidden layer at least
        shapes: List[Tuple[int, int, int]] = []
        cols = self.inputs
        for layer in range(n):
            last = layer == n - 1
            rows = (
                count("output rows", self.actions + 1, self.actions + 1)
                if last
                else count("hidden rows", 1, _MAX_HIDDEN)
            )
            count("columns", cols, cols)
            shift = count("shift", 0, 0 if last else 30)
            shapes.append((rows, cols, shift))
            cols = rows
        self.layers: List[Tuple[np.ndarray, np.ndarray, int]] = []
        for layer, (rows, cols, shift) in enumerate(shapes):
            if at + 2 * rows * cols > len(body):
                raise RulesError("weights file: truncated in weights")
            weights = np.frombuffer(body, "<i2", rows * cols, at).reshape(rows, cols).astype(np.int64)
            at += 2 * rows * cols
            if (weights == -32768).any():
                raise RulesError("weights file: a weight is -32768 (the limit is +-32767)")
            if at + 4 * rows > len(body):
                raise RulesError("weights file: truncated in biases")
            bias = np.frombuffer(body, "<i4", rows, at).astype(np.int64)
            at += 4 * rows
            if layer > 0 and (np.abs(bias) > 1 << 30).any():
                raise RulesError("weights file: a bias past layer 0 is outside +-2^30")
            self.layers.append((weights, bias, shift))
        self.logit_scale, self.value_scale = take("<dd", "scales")
        for scale in (self.logit_scale, self.value_scale):
            if not (scale > 0 and np.isfinite(scale)):
                raise RulesError("weights file: the logit and value scales must be positive finite numbers")
        if at != len(body):
            raise RulesError(f"weights file: {len(body) - at} bytes after the scales")

    @property
    def hidden(self) -> List[int]:
        """The hidden layers' sizes."""
        return [w.shape[0] for w, _, _ in self.layers[:-1]]

    def check_rules(self, rules: Any) -> None:
        """``RulesError`` unless these weights are for ``rules``."""
        want = network_key(rules)
        if self.key != want:
            raise RulesError(f"these weights are for {self.key}, not for {want}")
        size, actions = observation_tensor_size(rules), rules.num_actions
        if (self.inputs, self.actions) != (size, actions):
            raise RulesError(
                f"the weights for {self.key} have {self.inputs} inputs and {self.actions} actions; "
                f"these rules have {size} and {actions}"
            )

    def outputs_of(self, obs: np.ndarray) -> np.ndarray:
        """The last layer's integers for an observation: the policy's logits, then the value."""
        return fixed_point_outputs(self.layers, obs)

    def outputs(self, round: Any, seat: int) -> List[int]:
        """The last layer's integers for ``seat``'s observation in ``round``:
        the policy's logits by action id, then the value."""
        self.check_rules(round.rules)
        return [int(v) for v in self.outputs_of(round.observation_tensor(seat))]

    def value(self, round: Any, seat: int) -> float:
        """The value head: ``seat``'s expected round margin, as the network sees it."""
        return self.outputs(round, seat)[-1] / self.value_scale

    def __repr__(self) -> str:
        return f"<Network {self.key} {self.inputs}-{'-'.join(map(str, self.hidden))}-{self.actions + 1}>"


_registry: Dict[str, Network] = {}
_loaded = LoadedFiles()


def load_network(source: Union[str, Path, bytes]) -> Network:
    """Reads a weights file (a path or its bytes) and makes it the network of
    the rules its key names, for every later ``"learned"`` seat."""
    data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    net = Network(data)
    _loaded.keep(net.key, data, lambda: _registry.__setitem__(net.key, net))
    return net


def loaded_networks() -> List[bytes]:
    """The weights files ``load_network`` loaded here (``common.learned.LoadedFiles``)."""
    return _loaded.files()


def network_for(rules: Any) -> Network:
    """The network of ``rules``: one loaded before, else the shipped one;
    ``RulesError`` when there is none or it does not fit."""
    key = network_key(rules)
    net = _registry.get(key)  # one dict read: atomic, as load_network's one write is
    if net is None:
        path = shipped_weights(key)
        if not path.exists():
            raise RulesError(
                f"no learned network is loaded for {key} (shipped: {', '.join(shipped_keys()) or 'none'}; "
                "load_network() loads another)"
            )
        net = load_network(path)
    net.check_rules(rules)
    return net


def learned_action(position: Any, legal: Sequence[int]) -> int:
    """The learned policy's action (docs/learning.md 3.3) for the seat to
    move in ``position`` (a reference ``Round``, or one of a view), among
    ``legal``: the largest logit of the rules' network, the lowest id on ties."""
    logits = network_for(position.rules).outputs_of(position.observation_tensor(position.current_player))
    return max(legal, key=lambda a: (int(logits[a]), -a))


def learned_log_probability(position: Any, move: Move, temperature: float) -> float:
    """log P of ``move``, made by the seat to move in ``position``, under
    the learned model of docs/information.md 5: the softmax of the
    network's logits (outputs / logit scale) / ``temperature`` over the
    legal action ids."""
    net = network_for(position.rules)
    outputs = net.outputs_of(position.observation_tensor(position.current_player))
    logits = [int(outputs[a]) / (net.logit_scale * temperature) for a in position.legal_actions()]
    top = max(logits)
    made = int(outputs[position.move_to_action(move)]) / (net.logit_scale * temperature)
    return made - top - math.log(sum(math.exp(x - top) for x in logits))
