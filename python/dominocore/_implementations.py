"""The implementations by name, for the modules that serve either one (the
bridges, records, tournaments and their Ray tasks)."""

from __future__ import annotations

import importlib
from types import ModuleType

from .common.checks import shown
from .common.errors import RulesError

#: The package serving each implementation name: ``"default"`` is
#: ``import dominocore`` (the compiled core unless DOMINOCORE_IMPLEMENTATION
#: says otherwise).
IMPLEMENTATIONS = {"default": "dominocore", "cpp": "dominocore.native", "python": "dominocore.reference"}


def implementation(name: str) -> ModuleType:
    """The package serving implementation ``name`` (a key of
    ``IMPLEMENTATIONS``); ``RulesError`` for any other."""
    if not isinstance(name, str) or name not in IMPLEMENTATIONS:
        raise RulesError(f"implementation must be one of {sorted(IMPLEMENTATIONS)}, got {shown(name)}")
    return importlib.import_module(IMPLEMENTATIONS[name])
