"""``python -m dominocore``: see ``dominocore.cli``."""

import sys

from .cli import main

sys.exit(main())
