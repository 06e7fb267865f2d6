"""The ``dominocore`` command's entry point.

It lives outside the ``dominocore`` package so that a package that cannot be
imported at all (``DOMINOCORE_IMPLEMENTATION=pyhton``, a broken install) is
still one line on stderr and exit status 2, as every other error of the
command is (docs/cli.md), rather than a traceback. ``DOMINOCORE_DEBUG=1``
shows the traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Import the command line (``dominocore.cli``) and run it."""
    try:
        from dominocore.cli import main as run
    except ImportError as exc:
        if os.environ.get("DOMINOCORE_DEBUG"):
            raise
        print("dominocore: error: " + " ".join(str(exc).split("\n")), file=sys.stderr)
        return 2
    return run(argv)
