"""The compiled engine under its former module name: ``dominocore.native``
serves it (pickles of version 0.x name ``dominocore._native.Round``).
"""

from .native import *  # noqa: F401,F403
from .native import __all__ as __all__  # noqa: F401
from .native.codec import STATE_BYTES as STATE_BYTES  # noqa: F401
from .native.codec import core_rules as _core_rules  # noqa: F401
from .native.round import Determinizer as Determinizer  # noqa: F401
