"""pytest-benchmark suites: run with ``python -m pytest bench --benchmark-enable``."""

from __future__ import annotations

import importlib

import pytest

IMPLEMENTATIONS = {"cpp": "dominocore._native", "python": "dominocore.reference"}


@pytest.fixture(params=list(IMPLEMENTATIONS))
def dc(request):
    """The public API of one implementation."""
    return importlib.import_module(IMPLEMENTATIONS[request.param])
