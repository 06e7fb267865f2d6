"""Seeded mutation fuzzing of player views (see view_cases.py).

Each test runs a shard of cases; a case is rebuilt from its seed alone, and a
failure names it: ``python tests/fuzz/view_cases.py SEED -v`` reproduces it.
Default: 800 cases (seconds); ``--large``: 100,000 (``-n auto`` spreads the
shards). DOMINOCORE_FUZZ_VIEWS sets the count, DOMINOCORE_FUZZ_SEED moves
the seeds (default 0). CI's sanitized run of the suite (.ci/run) runs these
against the core built with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import collections
import os

import pytest
from contract import Violation
from helpers import scaled

try:
    import dominocore.search  # noqa: F401
    import view_cases
except ImportError as exc:  # pragma: no cover - the core is being rebuilt, or missing
    pytest.skip(f"the view fuzzer needs the compiled core: {exc}", allow_module_level=True)

SHARDS = 8
COUNT = scaled(800, 100_000, "DOMINOCORE_FUZZ_VIEWS")
BASE_SEED = int(os.environ.get("DOMINOCORE_FUZZ_SEED", "0"))
MAX_REPORTED = 12


def run_shard(shard: int) -> collections.Counter:
    tally: collections.Counter = collections.Counter()
    found = {}
    for seed in range(BASE_SEED + shard, BASE_SEED + COUNT, SHARDS):
        what, record = view_cases.view_case(seed)
        try:
            tally[view_cases.check_view(record, what, seed)] += 1
        except Violation as exc:
            key = str(exc).split(":")[0][:80]
            found.setdefault(key, f"python tests/fuzz/view_cases.py {seed} -v  # {what}\n    {exc}")
            if len(found) >= MAX_REPORTED:
                break
    if found:
        pytest.fail(
            f"{len(found)} kind(s) of contract violation in view shard {shard} ({dict(tally)} passed):\n"
            + "\n".join(found.values()),
            pytrace=False,
        )
    return tally


@pytest.mark.parametrize("shard", range(SHARDS))
def test_mutated_views_load_render_and_search_or_raise_state_error(shard):
    tally = run_shard(shard)
    assert sum(tally.values()) > 0


def test_the_base_views_load_render_and_search():
    """The pool itself: every view is accepted, and every one of the seat to
    move is searched (no StateError for a real round's view)."""
    tally = collections.Counter(
        view_cases.check_view(v, f"base_views()[{i}]", i) for i, v in enumerate(view_cases.base_views())
    )
    assert tally["rejected"] == 0, tally
    assert tally["searched"] > 40, tally


def test_the_view_mutations_reach_every_outcome():
    """The mutator is not vacuous: most mutated views are rejected, some
    are accepted, and some accepted ones are searched (600 cases: since views
    carry the points of play, which must add up, fewer mutations survive)."""
    tally = collections.Counter()
    for seed in range(600):
        try:
            tally[view_cases.check_view(view_cases.view_case(seed)[1], seed=seed)] += 1
        except Violation:
            tally["violation"] += 1
    assert tally["rejected"] > 150 and tally["accepted"] + tally["searched"] > 20 and tally["searched"] > 5, tally
