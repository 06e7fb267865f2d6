"""``python -m dominocore``: the ``dominocore`` command (see ``dominocore.cli``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
