"""``dominocore serve`` as a child process, for the serve benchmarks
(``serve_load.py``, ``serve_screenshot.py``), and a table made through its API."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any, Dict, Iterator, Tuple


@contextlib.contextmanager
def running_server(db: str) -> Iterator[Tuple["subprocess.Popen[bytes]", str]]:
    """A server on a free loopback port with its tables in ``db``: yields
    ``(process, base URL)`` once it answers, and stops it (SIGTERM) at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([sys.executable, "-m", "dominocore", "serve", "--port", str(port), "--db", db])
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("dominocore serve did not start") from None
                time.sleep(0.1)
        yield process, base
    finally:
        process.terminate()
        process.wait(timeout=60)


def create_table(base: str, body: Dict[str, Any]) -> Dict[str, Any]:
    """``POST /api/tables`` with ``body`` (rules, seats, seed): the server's answer (docs/serve.md 2)."""
    headers = {"content-type": "application/json"}
    request = urllib.request.Request(f"{base}/api/tables", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())
