"""Where an extension built against dominocore finds the core (docs/cython.md).

The package ships the engine as a static library compiled with
position-independent code (``lib/``), its C++ headers and the Cython
declarations beside them (``include/dominocore/*.hpp``, ``__init__.pxd``). An
extension compiles only its own code and links the library: it gets its own
copy of the engine, fixed at its build.
"""

from __future__ import annotations

import importlib.util
import os
from typing import List


def _installed_dir() -> str:
    """The directory the build installed the compiled core into: the package's
    own in a regular install, site-packages' in an editable one (where the
    Python files stay in the source tree)."""
    spec = importlib.util.find_spec(__name__.rpartition(".")[0] + "._core")  # found, not loaded
    if spec is None or spec.origin is None:
        raise ImportError(
            "dominocore's compiled core is not installed, so neither are its headers nor its library: "
            "reinstall dominocore with a C++17 compiler (docs/cython.md)"
        )
    return os.path.dirname(os.path.realpath(spec.origin))


def _existing(path: str, what: str) -> str:
    if not os.path.isdir(path):
        raise FileNotFoundError(
            f"dominocore's {what} are not installed ({path} is missing): reinstall dominocore (docs/cython.md)"
        )
    return path


def get_include() -> str:
    """The directory to add to the C++ include path and to Cython's
    ``include_path``: it holds ``dominocore/*.hpp`` and ``dominocore/__init__.pxd``
    (``cimport dominocore``), like ``numpy.get_include()``.

    Raises ImportError when the compiled core is not installed (nor, then, its headers)."""
    return _existing(os.path.join(_installed_dir(), "include"), "headers")


def get_library_dirs() -> List[str]:
    """The directories to add to the linker's search path: the one holding the
    engine's static library (``libdominocore_engine.a``; ``dominocore_engine.lib``
    under MSVC).

    Raises ImportError when the compiled core is not installed."""
    return [_existing(os.path.join(_installed_dir(), "lib"), "library")]


def get_libraries() -> List[str]:
    """The libraries an extension links, in order: the engine's static library,
    then the threads library it needs (POSIX only)."""
    return ["dominocore_engine"] if os.name == "nt" else ["dominocore_engine", "pthread"]
