"""What ``dominocore simulate`` prints and writes (docs/cli.md): the summary
table of a result, and its arrays as ``.npz``, ``.csv`` or ``.parquet``
(pyarrow, an optional extra, loaded when a parquet file is asked for).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
from typing import Any, Dict, List

import numpy as np

import dominocore as dc

__all__ = ["OUT_TYPES", "check_out_path", "columns", "summary", "write_results"]

OUT_TYPES = (".npz", ".csv", ".parquet")


def summary(rules: "dc.Rules", sim: Any, matches: bool) -> List[str]:
    """The summary table of a simulation result."""
    n = sim.num_rounds
    lines = []
    if n == 0:
        return ["no round finished"]
    points = sim.points.astype(np.float64)
    mean = points.mean(axis=0)
    half = 1.96 * points.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(rules.players, math.nan)
    head = f"{'seat':>4}  {'mean points':>11}  {'95% interval':>19}"
    if matches:
        head += f"  {'mean total':>10}  {'wins':>6}"
    lines.append(head)
    for s in range(rules.players):
        row = f"{s:>4}  {mean[s]:>11.2f}  {mean[s] - half[s]:>8.2f} .. {mean[s] + half[s]:>7.2f}"
        if matches:
            games = len(sim.totals)
            total = sim.totals[:, s].mean() if games else math.nan
            wins = sim.winners[:, s].mean() if games else math.nan
            row += f"  {total:>10.1f}  {wins:>6.1%}"
        lines.append(row)
    out, blocked = float((sim.reason == "out").mean()), float((sim.reason == "blocked").mean())
    ending = f"out {out:.1%}, blocked {blocked:.1%}"
    if out + blocked < 1:  # rounds a match stopped at its target (docs/games/all_fives.md F8)
        ending += f", stopped at the target {1 - out - blocked:.1%}"
    lines.append(f"rounds: {n:,}; {ending}; mean moves {float(sim.moves.mean()):.1f}")
    return lines


def columns(sim: Any, players: int) -> Dict[str, Any]:
    """The per-round results as named columns."""
    cols: Dict[str, Any] = {
        "round": np.arange(sim.num_rounds, dtype=np.int64),
        "match": sim.match_index,
        "starter": sim.starter,
        "reason": sim.reason.names(),
        "out_seat": sim.out_seat,
        "moves": sim.moves,
    }
    for s in range(players):
        cols[f"points_{s}"] = sim.points[:, s]
    return cols


def write_results(path: str, rules: "dc.Rules", sim: Any) -> None:
    """Write the per-round results of ``sim`` to ``path`` by its suffix."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".npz":
        with open(path, "wb") as f:  # np.savez given a name would add ".npz" to "r.NPZ"
            np.savez(
                f,
                points=sim.points,
                reason=np.asarray(sim.reason.view(np.ndarray)),
                out_seat=sim.out_seat,
                starter=sim.starter,
                moves=sim.moves,
                match_index=sim.match_index,
                totals=sim.totals,
                winners=sim.winners,
                rules=np.array(json.dumps(rules.to_dict())),
            )
    elif suffix == ".csv":
        cols = columns(sim, rules.players)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(",".join(cols) + "\n")
            for row in zip(*(c.tolist() for c in cols.values())):
                f.write(",".join(map(str, row)) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({name: pa.array(col) for name, col in columns(sim, rules.players).items()})
        pq.write_table(table.replace_schema_metadata({"rules": json.dumps(rules.to_dict())}), path)


def check_out_path(parser: argparse.ArgumentParser, path: str) -> None:
    """Refuse, before any work, an ``--out`` path that could not be written:
    an unknown suffix, pyarrow missing for .parquet, a directory that does
    not exist or cannot be written to, a directory in the file's place."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in OUT_TYPES:
        parser.error(f"--out: unknown file type {suffix or '(none)'!r} (use {', '.join(OUT_TYPES)})")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            parser.error("--out FILE.parquet needs pyarrow: pip install pyarrow (or dominocore[parquet])")
    try:
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            parser.error(f"--out: {path!r} is a directory")
        if not os.path.isdir(directory):
            parser.error(f"--out: cannot write {path!r}: no such directory {directory!r}")
        # The surest test that the file can be made: make one beside it.
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".dominocore-", suffix=".probe")
        os.close(fd)
        os.remove(probe)
        if os.path.exists(path) and not os.access(path, os.W_OK):
            parser.error(f"--out: cannot write {path!r}: permission denied")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        parser.error(f"--out: cannot write {path!r}: {getattr(exc, 'strerror', None) or exc}")
