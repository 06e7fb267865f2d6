"""dominocore: a rules engine for draw-domino games.

Chicken Foot (rule sets ``"trains"`` and ``"cross"``), Doubles, Block and
Mexican Train on double-6 to double-18 sets. ``import dominocore`` serves the compiled C++ core; with
the environment variable ``DOMINOCORE_IMPLEMENTATION=python`` it serves the
pure-Python reference (``dominocore.reference``) instead, which has the same API.

>>> import dominocore as dc
>>> r = dc.Round(dc.ChickenFoot(players=4), seed=7)
>>> r.current_player, str(r.centre), r.pending_ends
(2, '9-9', [0, 1, 2, 3])
"""

from __future__ import annotations

import functools as _functools
import os as _os
import sys as _sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # type checkers see the compiled core, the implementation a plain install serves
    from .native import *  # noqa: F401,F403
    from .native import __all__ as _names
else:
    _choice = _os.environ.get("DOMINOCORE_IMPLEMENTATION", "cpp").strip().lower()
    if _choice == "python":
        from .reference import *  # noqa: F401,F403
        from .reference import __all__ as _names
    elif _choice in ("cpp", "c++", ""):
        try:
            from .native import *  # noqa: F401,F403
            from .native import __all__ as _names
        except ImportError as _exc:  # pragma: no cover - only without a build
            import importlib.util as _util
            import warnings as _warnings

            # A pure-Python install (DOMINOCORE_PURE_PYTHON=1) has no module file at
            # all; a compiled module that fails to load says why.
            _why = (
                "this installation has no compiled core"
                if _util.find_spec(__name__ + "._core") is None
                else (f"its compiled core could not be loaded ({_exc})")
            )
            _warnings.warn(
                f"dominocore: {_why}; serving the pure-Python reference, about 200 times slower. "
                "Set DOMINOCORE_IMPLEMENTATION=python to say that is intended, or reinstall with a C++17 compiler.",
                RuntimeWarning,
                stacklevel=2,
            )
            from .reference import *  # noqa: F401,F403
            from .reference import __all__ as _names
    else:
        raise ImportError(f"DOMINOCORE_IMPLEMENTATION must be 'cpp' or 'python', got {_choice!r}")

# "as" re-exports them explicitly, for type checkers (mypy --strict: no implicit re-export)
# The layers above the engines that plug into them (common/extensions.py):
# the renderers a Round prints itself with, and Ray's chunk runner.
from . import distributed as _distributed  # noqa: E402,F401
from . import reference as reference  # noqa: E402
from . import svg as _svg  # noqa: E402,F401
from . import text as _text  # noqa: E402,F401
from ._build import get_include as get_include  # noqa: E402
from ._build import get_libraries as get_libraries  # noqa: E402
from ._build import get_library_dirs as get_library_dirs  # noqa: E402
from ._version import __version__ as __version__  # noqa: E402
from .tournaments import tournament as _tournament  # noqa: E402

#: ``dominocore.tournaments.tournament`` on the implementation served: bots on
#: duplicate deals, rotated seats, statistics.
if TYPE_CHECKING:  # a partial's parameters are lost on type checkers: the function's are these
    tournament = _tournament
else:

    def _tournament_on(name: str):
        return _functools.update_wrapper(_functools.partial(_tournament, _implementation=name), _tournament)

    tournament = _tournament_on(IMPLEMENTATION)  # noqa: F405  (from the star import above)
    # ... and as each engine's own (the engines sit below the services: this layer adds it).
    reference.tournament = _tournament_on("python")
    if "dominocore.native" in _sys.modules:
        _sys.modules["dominocore.native"].tournament = _tournament_on("cpp")

__all__: list = list(_names) + [
    "reference",
    "tournament",
    "__version__",
    "get_include",
    "get_library_dirs",
    "get_libraries",
]

try:  # the search bots run in the compiled core (docs/search.md); importing them registers their policies
    from .search import CheatingMCTSPlayer as CheatingMCTSPlayer  # noqa: E402
    from .search import ISMCTSPlayer as ISMCTSPlayer  # noqa: E402
    from .search import PIMCPlayer as PIMCPlayer  # noqa: E402

    __all__ += ["CheatingMCTSPlayer", "ISMCTSPlayer", "PIMCPlayer"]
except ImportError:  # pragma: no cover - only without a build
    pass


def __dir__() -> list:
    """The public names only (PEP 562): not the import machinery above."""
    return sorted(__all__)
