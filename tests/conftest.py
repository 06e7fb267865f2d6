"""Shared fixtures: every test that takes ``dc`` runs against both implementations.

``dc`` is a module exposing the public API (``Round``, ``Match``, ``ChickenFoot``,
``Doubles``, ``Tile``, ``Move``, ``simulate``, the errors ...): the pure-Python
reference, and the compiled core behind ``dominocore``. Set
``DOMINOCORE_TEST_IMPLEMENTATIONS=python`` (or ``cpp``) to run only one.

``--large`` (or ``DOMINOCORE_LARGE=1``) runs the large differential and fuzz
counts instead of the short default ones; see ``helpers.scaled``.
``--information-large`` (or ``DOMINOCORE_INFORMATION_LARGE=1``) runs the large
counts of tests/test_information.py; see ``information_helpers.information_scaled``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

import pytest

IMPLEMENTATIONS = {"python": "dominocore.reference", "cpp": "dominocore.native"}


def pytest_addoption(parser):
    parser.addoption(
        "--large",
        action="store_true",
        default=False,
        help="run the large differential and fuzz counts (slow: see the README's Development section)",
    )
    parser.addoption(
        "--information-large",
        action="store_true",
        default=False,
        help="run the large counts of tests/test_information.py (determinization statistics: slow)",
    )


def pytest_configure(config):
    # Read through helpers.scaled(); the environment reaches xdist workers too.
    if config.getoption("--large"):
        os.environ["DOMINOCORE_LARGE"] = "1"
    # Read through information_helpers.information_scaled().
    if config.getoption("--information-large"):
        os.environ["DOMINOCORE_INFORMATION_LARGE"] = "1"


def _selected():
    wanted = os.environ.get("DOMINOCORE_TEST_IMPLEMENTATIONS", "python,cpp")
    return [name for name in IMPLEMENTATIONS if name in wanted.split(",")]


@pytest.fixture(params=_selected())
def dc(request):
    """The public API of one implementation (the compiled one skips where a
    pure-Python install has no core)."""
    if request.param == "cpp" and importlib.util.find_spec("dominocore._core") is None:
        pytest.skip("the compiled core is not installed (a pure-Python install, DOMINOCORE_PURE_PYTHON=1)")
    return importlib.import_module(IMPLEMENTATIONS[request.param])


@pytest.fixture
def ref():
    """The pure-Python reference, the oracle."""
    return importlib.import_module("dominocore.reference")
