"""``dominocore serve``: a table server where people play in the browser,
against each other and the library's bots, each seat seeing only its own
view (docs/serve.md). Needs the ``[web]`` extra: ``pip install
"dominocore[web]"``.

- :mod:`dominocore.serve.protocol`: the websocket protocol's messages;
- :mod:`dominocore.serve.store`: the SQLite database;
- :mod:`dominocore.serve.tables`: tables, their clients and bots;
- :mod:`dominocore.serve.app`: the Starlette application.

>>> from dominocore.serve import create_app
>>> app = create_app("tables.sqlite3")  # an ASGI app: uvicorn, hypercorn...
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Union

from .app import create_app
from .store import default_db_path

__all__ = ["create_app", "default_db_path", "run"]


def run(host: str = "127.0.0.1", port: int = 8000, db: Optional[Union[str, "os.PathLike[str]"]] = None) -> None:
    """Serve until interrupted, with the tables in ``db`` (default:
    :func:`default_db_path`). Prints the address to open."""
    import uvicorn

    path = Path(db) if db is not None else default_db_path()
    app = create_app(path)
    shown = f"[{host}]" if ":" in host else host
    print(f"dominocore serve: open http://{shown}:{port}/ (tables in {path}; Ctrl-C stops)", flush=True)
    # Frames up to 1 MB are read, so that anything over the protocol's limit is
    # answered with too_large rather than a closed connection.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20, ws="auto")
