"""The learned policy's neutral parts (docs/learning.md 3): the name a weights
file carries for its rules, where the shipped files live, the writer the
training script uses, and the fixed-point arithmetic in numpy (the reference
and the trainer evaluate with it), and the record of the files each engine
loaded (``LoadedFiles``, for Ray's workers). Each engine reads the files with its own
code; the core reads and evaluates in C++, apart from all of this, and both
give the same integers.
"""

from __future__ import annotations

import struct
import threading
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

__all__ = [
    "ACTIVATION_MAX",
    "LoadedFiles",
    "MAGIC",
    "WEIGHTS_DIR",
    "network_key",
    "shipped_keys",
    "shipped_weights",
    "fnv1a64",
    "fixed_point_outputs",
    "write_network",
]

#: "DCNET", then the format version 1 (docs/learning.md 3.1).
MAGIC = b"DCNET\x00\x00\x01"
#: Every hidden activation is clamped to [0, ACTIVATION_MAX].
ACTIVATION_MAX = 127
#: The networks shipped in the package, one file per key.
WEIGHTS_DIR = Path(__file__).resolve().parent.parent / "weights"


class LoadedFiles:
    """The weights files an engine's ``load_network`` made the networks of
    their keys in this process, the latest of each key: what a worker
    process loads to play ``"learned"`` as this one does
    (``dominocore.distributed``)."""

    def __init__(self) -> None:
        self._files: Dict[str, bytes] = {}
        self._lock = threading.Lock()

    def keep(self, key: str, data: bytes, install: Callable[[], None]) -> None:
        """``install()``, which makes a network of ``data`` the one of
        ``key``, and ``data`` kept as that key's file, in one step."""
        with self._lock:
            install()
            self._files[key] = bytes(data)

    def files(self) -> List[bytes]:
        """The files kept, one a key."""
        with self._lock:
            return list(self._files.values())


def network_key(rules: Any) -> str:
    """The name of the rules a network is for: ``<game>[-<rule set>]-d<set>-p<players>[-t<teams>]``,
    e.g. ``"chickenfoot-trains-d9-p4"`` (the rule set is Chicken Foot's only)."""
    key, variant = str(rules.game), rules.rule_set
    if variant:
        key += f"-{variant}"
    key += f"-d{rules.set}-p{rules.players}"
    if getattr(rules, "teams", 0):
        key += f"-t{rules.teams}"
    return key


def shipped_keys() -> List[str]:
    """The keys of the networks shipped in the package, sorted."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.dcnet"))


def shipped_weights(key: str) -> Path:
    """The shipped weights file of ``key`` (it may not exist)."""
    return WEIGHTS_DIR / f"{key}.dcnet"


def fnv1a64(data: bytes) -> int:
    """The 64-bit FNV-1a hash that closes a weights file."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_network(
    path: "str | Path",
    key: str,
    inputs: int,
    actions: int,
    layers: Sequence[Tuple[np.ndarray, np.ndarray, int]],
    logit_scale: float,
    value_scale: float,
) -> None:
    """Writes a weights file: ``layers`` is (int16 weights rows x cols, int32
    biases, shift) per layer, the last one with ``actions + 1`` rows (the
    policy's logits, then the value) and shift 0; a logit output divided by
    ``logit_scale`` is the policy's logit, the value output divided by
    ``value_scale`` the value."""
    out = bytearray(MAGIC)
    encoded = key.encode("ascii")
    out += struct.pack("<I", len(encoded)) + encoded
    out += struct.pack("<III", inputs, actions, len(layers))
    for weights, _, shift in layers:
        out += struct.pack("<III", weights.shape[0], weights.shape[1], shift)
    for weights, bias, _ in layers:
        out += np.ascontiguousarray(weights, dtype="<i2").tobytes()
        out += np.ascontiguousarray(bias, dtype="<i4").tobytes()
    out += struct.pack("<dd", logit_scale, value_scale)
    out += struct.pack("<Q", fnv1a64(bytes(out)))
    Path(path).write_bytes(bytes(out))


def fixed_point_outputs(layers: Sequence[Tuple[np.ndarray, np.ndarray, int]], obs: np.ndarray) -> np.ndarray:
    """The last layer's integers for the observation ``obs`` (docs/learning.md
    3.2): each hidden layer ``min(max(W h + b, 0) >> shift, ACTIVATION_MAX)``,
    then ``W h + b``, all in int64, so every sum is exact whatever its order.
    ``layers`` is (weights, biases, shift) per layer, as ``write_network`` takes."""
    h = np.asarray(obs).astype(np.int64)
    for weights, bias, shift in layers[:-1]:
        product = np.asarray(weights, dtype=np.int64) @ h + np.asarray(bias, dtype=np.int64)
        h = np.minimum(np.maximum(product, 0) >> shift, ACTIVATION_MAX)
    weights, bias, _ = layers[-1]
    return np.asarray(np.asarray(weights, dtype=np.int64) @ h + np.asarray(bias, dtype=np.int64))
