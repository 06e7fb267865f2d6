"""Helpers shared by the property and differential tests."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import pkgutil
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Tuple

import dominocore as dc
import numpy as np
import pytest
from dominocore.common.learned import network_key, write_network

#: Whether the compiled core is installed: a pure-Python install
#: (``DOMINOCORE_PURE_PYTHON=1 pip install .``) has none.
CORE_INSTALLED = importlib.util.find_spec("dominocore._core") is not None
#: Whether ``import dominocore`` serves the compiled core: not under
#: ``DOMINOCORE_IMPLEMENTATION=python``, nor without a core.
SERVES_CORE = dc.Round.__module__.startswith("dominocore.native")
NO_CORE = "the compiled core is not installed (a pure-Python install, DOMINOCORE_PURE_PYTHON=1)"
#: For tests that need the compiled core beside the reference.
needs_core = pytest.mark.skipif(not CORE_INSTALLED, reason=NO_CORE)
#: For tests of what ``import dominocore`` serves when that is the compiled core.
needs_served_core = pytest.mark.skipif(
    not SERVES_CORE,
    reason="import dominocore serves the pure-Python reference here (DOMINOCORE_IMPLEMENTATION=python, "
    "or no compiled core): this test is about the compiled core",
)


def import_core(name: str = "dominocore.native"):
    """The compiled core's module ``name``; where the core is not installed, a
    skip (of the whole module when called at its top)."""
    if not CORE_INSTALLED:
        pytest.skip(NO_CORE, allow_module_level=True)
    return importlib.import_module(name)


def scaled(default: int, large: int, env: str = "") -> int:
    """A test count: ``default`` in the default run, ``large`` under ``--large``
    (or ``DOMINOCORE_LARGE=1``); the environment variable ``env``, when named
    and set, overrides both."""
    if env and os.environ.get(env):
        return int(os.environ[env])
    return large if os.environ.get("DOMINOCORE_LARGE") == "1" else default


def observe(round_, history: bool = True) -> dict:
    """Everything observable about a round through the public API, as plain data.

    Both implementations share the value types (Tile, Move, End, ...), so
    these compare directly. ``history=False`` keeps only the last layout
    entry and the last move (the differential test compares the whole
    history at the end of each round, and only the newest entry per move).
    """
    layout = round_.layout
    moves = round_.move_stack
    return {
        "current_player": round_.current_player,
        "starter": round_.starter,
        "centre": round_.centre,
        "hands": round_.hands,
        "yard": round_.yard,
        "yard_size": round_.yard_size,
        "open_ends": round_.open_ends,
        "pending_ends": list(round_.pending_ends),
        "obligation": round_.obligation,
        "unlocked": list(round_.unlocked),
        "markers": tuple(round_.markers),
        "trains": [round_.train_of(e.id) for e in round_.open_ends],
        "drawn_tile": round_.drawn_tile,
        "layout": layout if history else (len(layout), layout[-1]),
        "moves": moves if history else (len(moves), moves[-1:]),
        "legal": round_.legal_moves(),
        "distinct": round_.legal_moves(distinct=True),
        "actions": list(round_.legal_actions()),
        "is_over": round_.is_over,
        "result": None if round_.result is None else tuple(round_.result),
        "play_points": round_.play_points,
        "points_stack": round_.points_stack if history else round_.points_stack[-1:],
        "carried": round_.carried,
    }


def observe_step(round_, seat: int) -> dict:
    """The per-move part of ``observe``: what a move can change that is cheap to
    read in both implementations. The scalars of the state, the open ends,
    ``seat``'s hand (the mover's), the full legal listing and the legal action
    ids (the distinct listing's image). Left to ``observe`` (the differential
    test calls it at intervals, before every undo and at the end of each round):
    the other hands, the yard's order, the unlocked numbers, the layout and the
    move stack (the core rebuilds the last two whole on every read) and the
    distinct listing itself."""
    return {
        "current_player": round_.current_player,
        "yard_size": round_.yard_size,
        "open_ends": round_.open_ends,
        "pending_ends": list(round_.pending_ends),
        "obligation": round_.obligation,
        "markers": tuple(round_.markers),
        "drawn_tile": round_.drawn_tile,
        "hand": round_.hand(seat),
        "legal": round_.legal_moves(),
        "actions": list(round_.legal_actions()),
        "is_over": round_.is_over,
        "result": None if round_.result is None else tuple(round_.result),
        "play_points": round_.play_points,
        "last_points": round_.points_stack[-1:],
    }


def set_tiles(dc, rules) -> list:
    """Every tile of the rules' set, as strings, in index order."""
    return [str(dc.Tile.from_index(i)) for i in range(rules.tile_count)]


def all_tiles_in_play(round_) -> list:
    """Every tile of the round: hands, yard and layout (each should appear once)."""
    tiles = [str(t) for h in round_.hands for t in h]
    tiles += [str(t) for t in round_.yard]
    tiles += [str(p.tile) for p in round_.layout]
    return tiles


def observe_information(round_) -> list:
    """What each seat may know (docs/information.md), for every seat: its view
    as JSON without the round object's token, its information state and its
    observation tensor (as bytes, so that equality is bit for bit)."""
    seen = []
    for seat in range(round_.rules.players):
        view = round_.view(seat).to_dict()
        del view["round_id"]
        seen.append((view, round_.information_state(seat), round_.observation_tensor(seat).tobytes()))
    return seen


#: The modules that are the compiled core's (absent from a pure-Python install).
# Modules that need the compiled core (self-play runs the native search; the
# trainer imports its configurations).
CORE_MODULES = (
    "dominocore.native",
    "dominocore.search",
    "dominocore.learning.selfplay",
    "dominocore.learning.train",
)


def public_modules():
    """Every module of the package that imports here (the bridges to optional
    packages are skipped where those are not installed)."""
    yield dc
    for info in pkgutil.walk_packages(dc.__path__, "dominocore."):
        if info.name.rsplit(".", 1)[-1].startswith("_"):
            continue
        if not CORE_INSTALLED and (info.name in CORE_MODULES or info.name.startswith("dominocore.native.")):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError as exc:
            if (exc.name or "").startswith("dominocore"):
                raise  # a broken import of our own is a failure, not a skip
            continue


def refusals(round_) -> list:
    """What a fixed set of submissions gets at this position, for each seat
    named as the player and for none: ``(player, submitted, reason, message)``
    for each refused one, ``(player, submitted, None, None)`` for a legal one
    (not played). The submissions: draw, pass, the first three tiles of the
    player's hand on every open end and on an end that does not exist, two
    tiles of the set on the first open end, and four action ids (the first,
    a middle one, the last and one past the last)."""
    rules = round_.rules
    ends = [e.id for e in round_.open_ends] + [rules.tile_count + 8]
    seen = []
    for player in [None, *range(rules.players)]:
        holder = player if player is not None else max(round_.current_player, 0)
        tiles = [str(t) for t in round_.hand(holder)[:3]]
        submissions = ["draw", "pass"] + [f"{t}@{e}" for t in tiles for e in ends]
        submissions += [f"{dc.Tile.from_index(i)}@{ends[0]}" for i in (0, rules.tile_count - 1)]
        for text in submissions:
            if round_.is_legal(text, player=player):
                seen.append((player, text, None, None))
                continue
            with pytest.raises(dc.IllegalMoveError) as refused:
                round_.push(text, player=player)
            seen.append((player, text, refused.value.reason, str(refused.value)))
        for action in (0, rules.num_actions // 2, rules.num_actions - 1, rules.num_actions):
            try:
                round_.clone().apply_action(action, player=player)
                seen.append((player, action, None, None))
            except dc.IllegalMoveError as exc:
                seen.append((player, action, exc.reason, str(exc)))
    return seen


#: A tile as text (``low-high``, either order), not inside a longer number.
TILE = re.compile(r"(?<![0-9])([0-9]{1,2})-([0-9]{1,2})(?![0-9])")


def tiles_in(text: str) -> set:
    """Every tile written in ``text`` (``low-high``, in either order)."""
    return {tuple(sorted((int(a), int(b)))) for a, b in TILE.findall(text)}


def seen_by(r, seat) -> set:
    """The tiles ``seat`` may know of: its own (dealt, searched, drawn), the
    centre and every placed tile."""
    deal = r._deal_dict()
    known = {str(t) for t in r.hand(seat)} | set(deal["hands"][seat])
    k, p = r.round_index, r.rules.players
    known |= {t for i, t in enumerate(deal["setup_draws"]) if (k + i) % p == seat}
    known |= {str(drawn) for mover, _, drawn in r._history() if mover == seat and drawn is not None}
    known |= {str(pl.tile) for pl in r.layout}
    if r.centre is not None:
        known.add(str(r.centre))
    return tiles_in(" ".join(known))


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_process(db, port=None):
    """A ``dominocore serve`` process on loopback with its tables in ``db``:
    yields ``(process, base URL, health)`` once ``/api/health`` answers (its
    output is in ``process.stdout``); stopped at the end if still running."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "dominocore", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=2) as answer:
                    health = json.loads(answer.read())
                break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(f"the server stopped: {process.stdout.read()}") from None
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process, base, health
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)


def network_bytes(rules: Any, seed: int, hidden: Tuple[int, ...] = (32, 16), scale: int = 300) -> bytes:
    """A network with random integer weights for ``rules``, as a file's bytes."""
    rng = np.random.default_rng(seed)
    probe = dc.reference.Round(rules, seed=0)
    inputs, actions = probe.observation_tensor_shape[0], probe.num_actions
    sizes = [inputs, *hidden, actions + 1]
    layers = []
    for i, (cols, rows) in enumerate(zip(sizes[:-1], sizes[1:])):
        last = i == len(sizes) - 2
        w = rng.integers(-scale, scale + 1, size=(rows, cols)).astype(np.int16)
        b = rng.integers(-scale * 8, scale * 8 + 1, size=rows).astype(np.int32)
        layers.append((w, b, 0 if last else 6))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "net.dcnet"
        write_network(path, network_key(rules), inputs, actions, layers, 500.0, 1000.0)
        return path.read_bytes()


def view_with(view: Any, **fields: Any) -> Any:
    """``view`` with ``fields`` replaced, built directly (not through
    ``from_dict``'s checks), as a client could build one by hand."""
    values = {name: getattr(view, name) for name in type(view).__slots__}
    values.update(fields)
    return type(view)(**values)
