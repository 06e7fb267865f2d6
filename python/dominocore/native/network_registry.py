"""The core's registry of learned networks (docs/learning.md 1), filled from
the package's shipped weights the first time the rules need one. Apart from
``learned`` so that the round's determinizer (whose inference may use the
network) can fill it without importing the players."""

from __future__ import annotations

from typing import Any

from ..common.errors import RulesError
from ..common.learned import network_key, shipped_keys, shipped_weights
from .codec import _core

__all__ = ["register_shipped"]


def register_shipped(rules: Any) -> None:
    """Registers the shipped network of ``rules`` with the core unless one is
    registered for its key; ``RulesError`` when the package ships none."""
    key = network_key(rules)
    if _core._is_registered(key):
        return
    path = shipped_weights(key)
    if not path.exists():
        raise RulesError(
            f"no learned network is loaded for {key} "
            f"(shipped: {', '.join(shipped_keys()) or 'none'}; load_network() loads another)"
        )
    _core.register_network(_core.Network.parse(path.read_bytes()))
