"""The pre-registered experiment of docs/tournaments.md 7: does bot A beat greedy?

Fixed in advance (change nothing below after seeing results):

- four configurations: Chicken Foot ``trains`` double-9 4 players, ``cross``
  double-9 4 players, Doubles double-6 4 players, Block double-6 2 players;
- the design: duplicate deals (deal d is ``Round(rules, seed=SEED + d)``),
  A in one seat and greedy in the others (lineup ``[A, greedy, ...]``),
  rotated over every seat, so each deal is played p times;
- the metric: the round margin (docs/tournaments.md 3) and the paired
  difference of A's and greedy's per-deal mean margins on the same deals;
- the test: a one-sided paired t-test, "A's margin is above greedy's",
  rejected at p < 0.01 in each configuration separately;
- the sample size: 500 deals a configuration (``--deals`` below 500 is a
  smoke run and is labelled so);
- bot A: ``ismcts`` with 1,000 iterations and random rollouts (recorded in
  the table as the full spec); ``--bot`` names another policy: ``pimc`` and
  ``cheat`` at the same budget are the baseline and the ceiling.

Usage::

    python bench/tournament.py                          # the pre-registered run (needs the ismcts bot)
    python bench/tournament.py --bot random --deals 50  # a smoke run with what exists today
    python bench/tournament.py --backend ray            # on a Ray cluster (RAY_ADDRESS, or --address)

It prints a markdown table, suitable for the README.

``--partnerships`` runs the partnership experiment of
docs/games/partnership.md instead, fixed in advance the same way: the three
partnership games (OpenSpiel's team game, the Puerto Rico rules, the Latin
double-9 game), each with two designs, "A and A against greedy and greedy"
(lineup ``A greedy A greedy``) and "A with a greedy partner against greedy
and greedy" (lineup ``A greedy greedy greedy``), rotated over the seats on
the same 500 deals; the metric is A's team margin, tested one-sided
("above 0") at p < 0.01 in each row::

    python bench/tournament.py --partnerships

``--fives`` runs the experiment of the games that score during play
(docs/games/all_fives.md), fixed in advance the same way: All Fives with 2
players, All Fives with 4 players in partnerships, Fives and Threes with 2
players, on 500 duplicate deals each, seats rotated; greedy there takes the
most points now (all_fives.md F13); the metric is the round margin with the
points of play counted (A's team margin in partnerships, lineup ``A greedy
A greedy``), tested one-sided ("A above greedy", paired; "above 0" for the
team) at p < 0.01 in each row::

    python bench/tournament.py --fives

``--inference`` runs the experiment of docs/information.md 5, fixed in
advance the same way: does IS-MCTS with inference (its worlds weighted by a
model of the other seats) beat IS-MCTS with uniform worlds, everything else
unchanged? The four configurations above; on the same 500 deals a
configuration, seats rotated, each bot plays ``[bot, greedy, ...]``; the
metric is the paired difference, deal by deal, of the two bots' mean round
margins (each against the same greedy seats on the same deal); the test is
one-sided ("inference above uniform") at p < 0.01 in each configuration.
Both bots run 1,000 iterations with random rollouts (equal iterations:
only the sampler changes); the inference bot's model is
``OpponentModel("softmax", temperature=1.0)`` (the other seats are greedy,
which the softmax approaches as the temperature falls, while every legal
move keeps a positive probability) with the default 8 candidates.
``--configs`` runs a subset (by index, e.g. ``--configs 2,3``; the others are
reported as not run)::

    python bench/tournament.py --inference

``--inference --pool`` is a second experiment, registered after the first
one's results (inference won in Block alone, at 6 to 8 times the time) and
before its own run, on the same design, deals, test and threshold: the
inference bot weighs a pool of 256 uniform worlds once per search and draws
each iteration's world from it in proportion to its likelihood
(``pool=256``, docs/search.md 2), which costs far less time and weighs far
more worlds than resampling among 8 at every iteration::

    python bench/tournament.py --inference --pool

``--inference --pool --learned-model`` is a third experiment, registered
after the second's results and before its own run, on the same design,
deals, test and threshold: the pool's worlds are weighted by the learned
network's policy (``OpponentModel("learned", temperature=1.0)``,
docs/learning.md 5) instead of the softmax of tile scores::

    python bench/tournament.py --inference --pool --learned-model

``--inference --pool --pool-size 4096`` is a fourth experiment, registered
after the third's results and a pilot, and before its own run, on the same
design, deals, test and threshold: the second experiment's bot with a pool
of 4,096 worlds instead of 256. The pilot (150 deals of seed 99000000, which
the registered runs never use; bench/results/inference-experiment.md) found
that with 256 worlds a few of them carry nearly all the weight, so every
iteration searches the same handful (temperatures 0.1 and 0.3 did no better
than 1.0, and greedy rollouts on both sides no better than random), and that
with 4,096 inference led in all four configurations::

    python bench/tournament.py --inference --pool --pool-size 4096

``--inference --powered`` is a fifth experiment, registered after the
fourth's results and before its own run: the fourth's bots (a pool of 4,096
worlds, softmax at temperature 1, against uniform worlds, 1,000 iterations
each), the same design, test and threshold, in the two configurations where
the earlier experiments leaned towards inference (Doubles and Block, indices
2 and 3), on 3,000 deals (``POWERED_DEALS``) of seed 31,000,000
(``POWERED_SEED``), which no run has used. Why 3,000: in Doubles the four
earlier experiments measured +0.14, +0.31, -0.09 and +0.20 with a standard
error of about 0.15 at 500 deals (a deal's difference has a standard
deviation of about 3.3 points), so 500 deals could not tell an effect of 0.2
from none; 3,000 find it with a power of about 0.84 at p < 0.01. It is the
fifth test of the same question, so the report also says whether each
result holds at p < 0.002 (0.01 / 5, Bonferroni)::

    python bench/tournament.py --inference --powered

``--learned`` runs the experiment of docs/learning.md 4 on the new search,
fixed in advance the same way (written after the pilot below and before
this run): IS-MCTS with the learned network (``LEARNED_SEARCH``) against
today's IS-MCTS (its defaults: c = 0.7, random rollouts, no network), **at
equal wall time**: both get ``seconds=SEARCH_SECONDS`` a move and no
iteration bound. The four configurations, the same 500 deals, seats
rotated, each bot in one seat against greedy; the metric is the paired
difference of the two bots' margins deal by deal, one-sided at p < 0.01 in
each configuration. In ``trains`` the cheating search at the same time is
played too, and the report gives the share of the gap between today's
IS-MCTS and the cheating search that the new search closes (goal: a
third)::

    python bench/tournament.py --learned

``--learned --variant V --seed 99000000 --deals 150`` is the pilot that
chose ``LEARNED_SEARCH`` among the variants of ``LEARNED_VARIANTS``, on deals
the experiment does not use.

``--learned --second`` is a second experiment at equal time, registered
after the first one's results and a pilot (``--variant greedy-rollout``,
which led by 3.8 points in ``trains`` and 2.1 in ``cross``), and before its
own run, on the same design, deals, test, threshold and gap: the new search
is IS-MCTS with greedy rollouts (``SECOND_SEARCH``), no network. It asks
whether rollouts that play the other seats as they really play close the
gap; the benchmark's other seats are greedy, so this measures that model,
not strength against every opponent::

    python bench/tournament.py --learned --second

``--learned --third`` is a third experiment at equal time, registered after
the second's results and the pilots of bench/results/learned-experiment.md
(stop 39), and before its own run, on the same design, test, threshold and
gap, on 1,000 deals (``THIRD_DEALS``) of seed 41,000,000 (``THIRD_SEED``),
which no run has used. The new search is chosen per configuration
(``THIRD_SEARCH``), each the pilots' best on deals this run does not use:
greedy rollouts in ``trains`` and ``cross`` (the second experiment's search);
in Block, inference alone, the pool of 256 worlds weighted by the softmax
model at temperature 1 with random rollouts (``pool``, +1.40 in its pilot);
in Doubles, greedy rollouts with that pool (``greedy-rollout-pool``, +0.15,
the largest of the Doubles pilots, none of which was significant). It asks
whether a search chosen per game beats today's IS-MCTS at equal time in
every configuration; the Doubles pilots (ten times the time +0.05, the
cheating search +1.88) lead us to expect that it does not there::

    python bench/tournament.py --learned --third

``--learned --third --powered`` is its follow-up in Doubles, registered
after its results (the new search led in ``trains``, ``cross`` and Block at
p < 1e-7; in Doubles by +0.18 [-0.06, +0.42], p = 0.075) and before its own
run: the same search (``greedy-rollout-pool``), design and test, in Doubles
alone (``THIRD_POWERED_CONFIGS``), on 5,000 deals (``THIRD_POWERED_DEALS``)
of seed 51,000,000 (``THIRD_POWERED_SEED``), which no run has used. Why
5,000: a deal's difference had a standard deviation of about 3.8 points,
so 5,000 deals find an effect of 0.18 with a power of about 0.84 at
p < 0.01. It is the second test of this search in Doubles, so the report
also says whether the result holds at p < 0.005 (0.01 / 2, Bonferroni)::

    python bench/tournament.py --learned --third --powered

``--confirm`` runs two confirmatory replications in Doubles, registered
(stop 43) after every result above and before their own runs, each on deals
of a seed no run has used, analysed alone (not pooled with the earlier
runs), with the design, test and threshold of the experiment they repeat.
Each question has already been tested in Doubles, so each counts as met
only if its result holds at the Bonferroni bound over every registered test
of that question, this one included:

- ``--inference --confirm`` repeats the fifth inference experiment's bots
  (a pool of 4,096 worlds weighted by the softmax model against uniform
  worlds, 1,000 iterations each) in Doubles alone, on 10,000 deals
  (``CONFIRM_INFERENCE_DEALS``) of seed 71,000,000 (``CONFIRM_INFERENCE_SEED``).
  Its sixth test of inference against uniform worlds: p < 0.01 / 6. Why
  10,000: those bots measured +0.20 and +0.15 in Doubles, and a deal's
  difference has a standard deviation of about 3.35 points, so 10,000 deals
  find an effect of 0.15 with a power of about 0.94 at p < 0.0017 (0.52 for
  an effect of 0.10);
- ``--learned --third --confirm`` repeats the third experiment's Doubles
  search (``greedy-rollout-pool``) against today's IS-MCTS at equal time, on
  16,000 deals (``CONFIRM_THIRD_DEALS``) of seed 61,000,000
  (``CONFIRM_THIRD_SEED``). The third test of that search in Doubles:
  p < 0.01 / 3. Why 16,000: it measured +0.18 on 1,000 deals and +0.12 on
  5,000, about +0.13 together, with a standard deviation of about 3.8
  points, so 16,000 deals find 0.13 with a power of about 0.95 at
  p < 0.0033 (0.73 for an effect of 0.10)::

    python bench/tournament.py --inference --confirm
    python bench/tournament.py --learned --third --confirm
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List, Tuple

import dominocore as dc
from dominocore.stats import paired_t_test, t_interval

#: The experiment's seed (fixed in advance).
SEED = 20_251_101
#: The pre-registered sample size, in deals a configuration.
DEALS = 500
#: The significance level of the one-sided test.
ALPHA = 0.01
#: Bot A's default options, per policy name.
DEFAULT_OPTIONS: Dict[str, Dict[str, Any]] = {
    "ismcts": {"iterations": 1000, "rollout": "random"},
    # the baselines at the same budget: PIMC over 10 worlds of 100 iterations, and the cheating ceiling
    "pimc": {"iterations": 1000, "determinizations": 10, "rollout": "random"},
    "cheat": {"iterations": 1000, "rollout": "random"},
}


def configurations() -> List[Tuple[str, Any]]:
    """The four rule sets of the experiment, with their labels."""
    return [
        ("Chicken Foot trains, d9, 4p", dc.ChickenFoot(players=4, set=9, rule_set="trains")),
        ("Chicken Foot cross, d9, 4p", dc.ChickenFoot(players=4, set=9, rule_set="cross")),
        ("Doubles, d6, 4p", dc.Doubles(players=4, set=6)),
        ("Block, d6, 2p", dc.Block(players=2, set=6)),
    ]


def partnership_games() -> List[Tuple[str, Any]]:
    """The three partnership games of docs/games/partnership.md P6 (one round each)."""
    return [
        ("OpenSpiel team game, d6", dc.Block(players=4, set=6, hand_size=7, teams=2, team_scoring="fewer_pips")),
        ("Puerto Rico, d6", dc.Block(players=4, set=6, hand_size=7, teams=2, target=200, lead="puerto_rico")),
        ("Latin, d9", dc.Block(players=4, set=9, hand_size=10, teams=2, target=100, lead="puerto_rico")),
    ]


def scoring_games() -> List[Tuple[str, Any, List[str]]]:
    """The three configurations of the experiment on the games that score during play, with their lineups."""
    return [
        ("All Fives, d6, 2p", dc.AllFives(players=2), ["A", "greedy"]),
        ("All Fives, d6, 4p partnerships", dc.AllFives(players=4, teams=2), ["A", "greedy", "A", "greedy"]),
        ("Fives and Threes, d6, 2p", dc.FivesAndThrees(players=2), ["A", "greedy"]),
    ]


def run_fives(args: argparse.Namespace, spec: Any, label: str) -> str:
    """Play the experiment of the games that score during play and return its markdown report."""
    rows = []
    for title, rules, lineup in scoring_games():
        start = time.perf_counter()
        result = dc.tournament(
            rules, {"A": spec, "greedy": "greedy"}, rounds=args.deals, seed=args.seed, lineup=lineup,
            backend=args.backend, chunks=args.chunks, address=args.address, progress=not args.quiet,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
        if rules.teams:  # A's team margin per deal, against 0
            margin = result.per_deal("margin")[:, result.index("A")]
            diff, low, high = t_interval(margin)
            p = paired_t_test(margin)
        else:
            pair = result.pair("A", "greedy")
            diff, low, high, p = pair["margin"], pair["margin_low"], pair["margin_high"], pair["p_value"]
        table = {row["bot"]: row for row in result.table()}
        rows.append(
            f"| {title} | {' '.join(lineup)} | {result.deals} | {diff:+.2f} [{low:+.2f}, {high:+.2f}] | {p:.2g} "
            f"| {'**yes**' if p < ALPHA else 'no'} | {table['A']['win_rate']:.3f} | {elapsed:.1f} s |"
        )
    smoke = smoke_label(args)
    return "\n".join(
        [
            f"Bot A = `{label}` against `greedy` (the most points now), on the same deals (seed {args.seed}), "
            f"seats rotated; margins count the points of play; one-sided t-test at p < {ALPHA}.{smoke}",
            "",
            "| configuration | lineup | deals | A - greedy (teams: A's team margin) [95% CI] | one-sided p "
            f"| A better (p < {ALPHA}) | A win rate | time |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )


def run_partnerships(args: argparse.Namespace, spec: Any, label: str) -> str:
    """Play the partnership experiment and return its markdown report."""
    designs = [
        ("A+A vs greedy+greedy", ["A", "greedy", "A", "greedy"]),
        ("A+greedy vs greedy+greedy", ["A"] + ["greedy"] * 3),
    ]
    rows = []
    for title, rules in partnership_games():
        for design, lineup in designs:
            start = time.perf_counter()
            result = dc.tournament(
                rules, {"A": spec, "greedy": "greedy"}, rounds=args.deals, seed=args.seed, lineup=lineup,
                backend=args.backend, chunks=args.chunks, address=args.address, progress=not args.quiet,
            )  # fmt: skip
            elapsed = time.perf_counter() - start
            margin = result.per_deal("margin")[:, result.index("A")]  # A's team margin, per deal
            mean, low, high = t_interval(margin)
            p = paired_t_test(margin)
            teams = {row["team"]: row for row in result.teams()}
            team_a = next(name for name in teams if "A" in name.split("+"))
            rows.append(
                f"| {title} | {design} | {result.deals} | {mean:+.2f} [{low:+.2f}, {high:+.2f}] | {p:.2g} "
                f"| {'**yes**' if p < ALPHA else 'no'} | {teams[team_a]['win_rate']:.3f} | {elapsed:.1f} s |"
            )
    smoke = smoke_label(args)
    return "\n".join(
        [
            f"Bot A = `{label}` in partnerships: A's team margin on the same deals (seed {args.seed}), seats "
            f'rotated; one-sided t-test of "above 0" at p < {ALPHA}.{smoke}',
            "",
            f"| game | design | deals | A's team margin [95% CI] | one-sided p | A's team better (p < {ALPHA}) "
            "| A's team win rate | time |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )


#: The inference experiment's bots (fixed in advance): uniform worlds against weighted ones.
INFERENCE_UNIFORM: Dict[str, Any] = {"iterations": 1000, "rollout": "random"}
INFERENCE_MODEL = {"model": "softmax", "temperature": 1.0, "candidates": 8}
#: The second experiment's pool of weighted worlds (``--inference --pool``).
INFERENCE_POOL = 256
#: The fifth experiment (``--inference --powered``): its pool, configurations, deals and seed.
POWERED_POOL = 4096
POWERED_CONFIGS = "2,3"
POWERED_DEALS = 3000
POWERED_SEED = 31_000_000
#: How many experiments have tested inference against uniform worlds, the fifth included.
INFERENCE_EXPERIMENTS = 5
#: ``--configs`` of Doubles, d6, 4p alone: the follow-up and both confirmatory replications (``--confirm``).
DOUBLES_ALONE = "2"
#: The inference one (``--inference --confirm``): deals, seed, and the tests of the question, itself included.
CONFIRM_INFERENCE_DEALS = 10_000
CONFIRM_INFERENCE_SEED = 71_000_000
CONFIRM_INFERENCE_TESTS = 6


def smoke_label(args: argparse.Namespace) -> str:
    """The report's warning when it played fewer deals than its experiment registered, else nothing."""
    if args.deals >= args.registered:
        return ""
    return f" **Smoke run: {args.deals} deals, not the pre-registered {args.registered}.**"


def bonferroni_line(title: str, p: float, tests: int) -> str:
    """Whether a result still holds after a Bonferroni correction for the ``tests`` tests of its question."""
    corrected = ALPHA / tests
    return f"{title}: {'holds' if p < corrected else 'does not hold'} at p < {corrected:.2g} (Bonferroni)."


def against_greedy(args: argparse.Namespace, rules: Any, spec: Any) -> Tuple[Any, float]:
    """Bot ``spec`` in one seat against greedy on the experiment's deals, seats
    rotated: its margin deal by deal, and the wall time it took."""
    start = time.perf_counter()
    result = dc.tournament(
        rules, {"A": spec, "greedy": "greedy"}, rounds=args.deals, seed=args.seed,
        lineup=["A"] + ["greedy"] * (rules.players - 1), backend=args.backend, chunks=args.chunks,
        address=args.address, progress=not args.quiet,
    )  # fmt: skip
    return result.per_deal("margin")[:, result.index("A")], time.perf_counter() - start


def paired_row(title: str, a: Any, b: Any, a_seconds: float, b_seconds: float) -> Tuple[str, float, float]:
    """A table row of bot a against bot b on the same deals (the paired
    difference, its interval and one-sided p), the mean difference and p."""
    diff = a - b
    mean, low, high = t_interval(diff)
    p = paired_t_test(diff)
    row = (
        f"| {title} | {len(diff)} | {a.mean():+.2f} | {b.mean():+.2f} "
        f"| {mean:+.2f} [{low:+.2f}, {high:+.2f}] | {p:.2g} | {'**yes**' if p < ALPHA else 'no'} "
        f"| {a_seconds:.0f} s / {b_seconds:.0f} s |"
    )
    return row, mean, p


def run_inference(args: argparse.Namespace) -> str:
    """Play the inference experiment and return its markdown report."""
    uniform = ("ismcts", {**INFERENCE_UNIFORM, "rollout": args.rollout or INFERENCE_UNIFORM["rollout"]})
    policy = "learned" if args.learned_model else INFERENCE_MODEL["model"]
    temperature = INFERENCE_MODEL["temperature"] if args.temperature is None else args.temperature
    model = dc.OpponentModel(policy, temperature=temperature)
    weighted = ("ismcts", {**uniform[1], "model": model, "candidates": INFERENCE_MODEL["candidates"]})
    if args.pool:
        weighted[1]["pool"] = args.pool_size or INFERENCE_POOL
    chosen = {int(k) for k in args.configs.split(",")} if args.configs else None
    rows: List[str] = []
    notes: List[str] = []
    for index, (title, rules) in enumerate(configurations()):
        if chosen is not None and index not in chosen:
            rows.append(f"| {title} | not run | | | | | |")
            continue
        (weighted_margins, weighted_time), (uniform_margins, uniform_time) = (
            against_greedy(args, rules, spec) for spec in (weighted, uniform)
        )
        row, _, p = paired_row(title, weighted_margins, uniform_margins, weighted_time, uniform_time)
        rows.append(row)
        if args.powered or args.confirm:
            notes.append(bonferroni_line(title, p, CONFIRM_INFERENCE_TESTS if args.confirm else INFERENCE_EXPERIMENTS))
    smoke = smoke_label(args)
    return "\n".join(
        [
            f"IS-MCTS with inference (`{weighted[1]!r}`) against IS-MCTS with uniform worlds "
            f"(`{uniform[1]!r}`), each in one seat against greedy, on the same deals (seed {args.seed}), seats "
            f"rotated; the paired difference of their margins, one-sided t-test at p < {ALPHA}.{smoke}",
            "",
            "| configuration | deals | inference: margin | uniform: margin | inference - uniform [95% CI] "
            f"| one-sided p | inference better (p < {ALPHA}) | time (inference / uniform) |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            *([""] + notes if notes else []),
        ]
    )


#: The learned-search experiment's time a move, for every searching bot (fixed in advance).
SEARCH_SECONDS = 0.003
#: The variants of the pilot (docs/learning.md 4), by name.
LEARNED_VARIANTS: Dict[str, Dict[str, Any]] = {
    "prior": {"prior": True},
    "prior-seat": {"prior": "seat"},
    "prior-c2": {"prior": True, "c": 2.0},
    "leaf": {"leaf": "learned"},
    "prior-leaf": {"prior": True, "leaf": "learned"},
    # not the network: greedy rollouts, which play the other seats as the benchmark's greedy bots do
    "greedy-rollout": {"rollout": "greedy"},
    # and with inference: the worlds drawn from a pool of 256 weighted by the softmax model
    "greedy-rollout-pool": {"rollout": "greedy", "model": dc.OpponentModel("softmax", temperature=1.0), "pool": 256},
    "greedy-rollout-pool-t3": {"rollout": "greedy", "model": dc.OpponentModel("softmax", temperature=3.0), "pool": 256},
    # inference alone, at equal time: the pool of 256 worlds weighted by the softmax model, random rollouts
    "pool": {"model": dc.OpponentModel("softmax", temperature=1.0), "pool": 256},
    # the third experiment's diagnostics (stop 39): other exploration constants, root parallelism, a flat
    # search, ten times the time (not equal time: how much more search is worth), and the cheating search
    "c0.35": {"c": 0.35},
    "c1.4": {"c": 1.4},
    "trees4": {"trees": 4},
    "flat": {"max_depth": 1},
    "ten-times": {"seconds": 10 * SEARCH_SECONDS},
    "cheat": {"policy": "cheat"},
}
#: The new search of the registered experiment, chosen by the pilot.
LEARNED_SEARCH = "prior-seat"
#: The new search of the second registered experiment (``--second``), chosen by its pilot.
SECOND_SEARCH = "greedy-rollout"
#: The third registered experiment (``--third``): the new search of each configuration, chosen by the
#: pilots, and its deals and seed.
THIRD_SEARCH = {0: "greedy-rollout", 1: "greedy-rollout", 2: "greedy-rollout-pool", 3: "pool"}
THIRD_DEALS = 1000
THIRD_SEED = 41_000_000
#: Its powered follow-up in Doubles (``--third --powered``): the configuration, deals and seed.
THIRD_POWERED_CONFIGS = DOUBLES_ALONE
THIRD_POWERED_DEALS = 5000
THIRD_POWERED_SEED = 51_000_000
#: How many registered tests the follow-up's search has had in Doubles, the follow-up included.
THIRD_DOUBLES_TESTS = 2
#: Its confirmatory replication in Doubles (``--third --confirm``): deals, seed, and the tests of that search in
#: Doubles, the replication included.
CONFIRM_THIRD_DEALS = 16_000
CONFIRM_THIRD_SEED = 61_000_000
CONFIRM_THIRD_TESTS = 3


#: The options that change the bots or configurations of an inference experiment.
INFERENCE_BOT_OPTIONS = ("pool", "pool_size", "configs", "learned_model", "temperature", "rollout")
#: What each fixed experiment's flag fixes, and the options that would change it (refused with it). With
#: ``--third``, its own entry refuses the options of the search.
FIXED_BY = {
    "powered": ("its bots and configurations", INFERENCE_BOT_OPTIONS + ("confirm",)),
    "confirm": ("its bots and configurations", INFERENCE_BOT_OPTIONS),
    "third": ("its searches and configurations", ("variant", "second", "configs")),
}


def new_search(args: argparse.Namespace, index: int) -> str:
    """The variant the experiment (or pilot) plays as the new search in configuration ``index``."""
    if args.variant:
        return args.variant
    if args.third:
        return THIRD_SEARCH[index]
    return SECOND_SEARCH if args.second else LEARNED_SEARCH


def run_learned_search(args: argparse.Namespace) -> str:
    """Play the learned-search experiment (or its pilot) and return its markdown report."""
    timed = {"iterations": 0, "seconds": SEARCH_SECONDS, "rollout": "random"}
    chosen = {int(k) for k in args.configs.split(",")} if args.configs else None
    rows, gap, played = [], [], {}
    for index, (title, rules) in enumerate(configurations()):
        if chosen is not None and index not in chosen:
            rows.append(f"| {title} | not run | | | | | | |")
            continue
        options = {**timed, **LEARNED_VARIANTS[new_search(args, index)]}
        played[title] = (str(options.pop("policy", "ismcts")), options)
        bots = {"new": played[title], "ismcts": ("ismcts", dict(timed)), "cheat": ("cheat", dict(timed))}
        names = ["new", "ismcts"] + (["cheat"] if index == 0 and not args.variant else [])
        margins, seconds = {}, {}
        for name in names:
            margins[name], seconds[name] = against_greedy(args, rules, bots[name])
        row, mean, p = paired_row(title, margins["new"], margins["ismcts"], seconds["new"], seconds["ismcts"])
        rows.append(row)
        if args.third and (args.powered or args.confirm):
            gap.append(bonferroni_line(title, p, CONFIRM_THIRD_TESTS if args.confirm else THIRD_DOUBLES_TESTS))
        if "cheat" in margins:
            ceiling = margins["cheat"] - margins["ismcts"]
            c_mean, c_low, c_high = t_interval(ceiling)
            gap.append(
                f"In {title}, the cheating search at the same time: margin {margins['cheat'].mean():+.2f}, "
                f"{c_mean:+.2f} [{c_low:+.2f}, {c_high:+.2f}] over today's IS-MCTS; the new search closes "
                f"{mean / c_mean:.0%} of that gap (goal: a third)."
            )
    smoke = smoke_label(args)
    searches = [f"- {title}: `{name}` `{options!r}`" for title, (name, options) in played.items()]
    return "\n".join(
        [
            f"The new search against today's IS-MCTS (`{timed!r}`), each in one seat against greedy, at equal "
            f"time ({SEARCH_SECONDS * 1000:g} ms a move), on the same deals (seed {args.seed}), seats rotated; "
            f"paired, one-sided t-test at p < {ALPHA}.{smoke} The new search:",
            "",
            *searches,
            "",
            "| configuration | deals | new: margin | IS-MCTS: margin | new - IS-MCTS [95% CI] "
            f"| one-sided p | new better (p < {ALPHA}) | time (new / IS-MCTS) |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            *gap,
        ]
    )


#: The options of one experiment, by the experiment's flag: given without it they would do nothing.
EXPERIMENT_OPTIONS = {
    "pool": ("inference",), "learned_model": ("inference",), "temperature": ("inference",),
    "rollout": ("inference",), "pool_size": ("pool",), "variant": ("learned",), "second": ("learned",),
    "third": ("learned",), "powered": ("inference", "third"), "confirm": ("inference", "third"),
}  # fmt: skip


def bot_spec(name: str, options: Dict[str, Any]) -> Any:
    """A tournament bot spec: the name alone, or (name, options)."""
    return (name, options) if options else name


def run(args: argparse.Namespace) -> str:
    """Play every configuration and return the markdown report."""
    options = json.loads(args.options) if args.options else DEFAULT_OPTIONS.get(args.bot, {})
    spec = bot_spec(args.bot, options)
    label = args.bot if not options else f"{args.bot}({', '.join(f'{k}={v!r}' for k, v in sorted(options.items()))})"
    if args.partnerships:
        return run_partnerships(args, spec, label)
    if args.fives:
        return run_fives(args, spec, label)
    if args.inference:
        return run_inference(args)
    if args.learned:
        return run_learned_search(args)
    names = {"A": spec, "greedy": "greedy"}
    rows = []
    for title, rules in configurations():
        lineup = ["A"] + ["greedy"] * (rules.players - 1)
        start = time.perf_counter()
        result = dc.tournament(
            rules,
            names,
            rounds=args.deals,
            seed=args.seed,
            lineup=lineup,
            backend=args.backend,
            chunks=args.chunks,
            address=args.address,
            progress=not args.quiet,
        )
        elapsed = time.perf_counter() - start
        table = {row["bot"]: row for row in result.table()}
        pair = result.pair("A", "greedy")
        better = pair["p_value"] < ALPHA
        rows.append(
            f"| {title} | {result.deals} | {table['A']['mean_margin']:+.2f} "
            f"[{table['A']['mean_margin_low']:+.2f}, {table['A']['mean_margin_high']:+.2f}] "
            f"| {pair['margin']:+.2f} [{pair['margin_low']:+.2f}, {pair['margin_high']:+.2f}] "
            f"| {pair['p_value']:.2g} | {'**yes**' if better else 'no'} "
            f"| {table['A']['win_rate']:.3f} | {table['greedy']['win_rate']:.3f} | {elapsed:.1f} s |"
        )
    smoke = smoke_label(args)
    lines = [
        f"Bot A = `{label}` against `greedy`: A in one seat, greedy in the others, rotated over every seat, "
        f"on the same deals (seed {args.seed}); one-sided paired t-test at p < {ALPHA}.{smoke}",
        "",
        "| configuration | deals | A's mean margin [95% CI] | A - greedy, paired [95% CI] | one-sided p "
        f"| A better (p < {ALPHA}) | A win rate | greedy win rate | time |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    return "\n".join(lines)


def main(argv: Any = None) -> int:
    """Parse the command line, run, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bot", default="ismcts", help="bot A's policy name (default ismcts)")
    parser.add_argument("--options", default=None, help="bot A's options as JSON (default: ismcts 1000 iterations)")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"deals a configuration (pre-registered: {DEALS})")
    parser.add_argument("--seed", type=int, default=SEED, help="the experiment's seed (fixed in advance)")
    parser.add_argument("--backend", default="local", choices=["local", "ray"])
    parser.add_argument("--chunks", type=int, default=None, help="chunks (Ray tasks) a configuration")
    parser.add_argument("--address", default=None, help="the Ray cluster's address (else RAY_ADDRESS or local)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--partnerships", action="store_true", help="the partnership experiment instead")
    parser.add_argument("--fives", action="store_true", help="the experiment of the games that score in play")
    parser.add_argument("--inference", action="store_true", help="IS-MCTS with inference against uniform worlds")
    parser.add_argument("--configs", default=None, help="--inference, --learned: the configurations to run (0-3)")
    parser.add_argument("--learned", action="store_true", help="the search with the learned network, at equal time")
    parser.add_argument("--variant", default=None, choices=sorted(LEARNED_VARIANTS), help="--learned: the pilot")
    parser.add_argument("--pool", action="store_true", help="--inference: the second experiment, a pool of worlds")
    parser.add_argument("--learned-model", action="store_true", help="--inference: the third, the learned model")
    parser.add_argument(
        "--temperature", type=float, default=None, help="--inference: the model's temperature (the fourth's pilot)"
    )
    parser.add_argument(
        "--rollout", default=None, choices=["random", "greedy"], help="--inference: both bots' rollouts (the pilot)"
    )
    parser.add_argument("--second", action="store_true", help="--learned: the second experiment (greedy rollouts)")
    parser.add_argument("--pool-size", type=int, default=None, help="--inference --pool: the pool's worlds (the pilot)")
    parser.add_argument(
        "--powered", action="store_true", help="--inference: the fifth experiment; --third: its Doubles follow-up"
    )
    parser.add_argument("--third", action="store_true", help="--learned: the third experiment (a search per game)")
    parser.add_argument(
        "--confirm", action="store_true", help="--inference, --third: the confirmatory replication in Doubles"
    )
    args = parser.parse_args(argv)
    for flag, (what, options) in FIXED_BY.items():
        given = [f"--{option.replace('_', '-')}" for option in options if getattr(args, option)]
        if getattr(args, flag) and given:
            parser.error(f"--{flag} fixes {what}: give it none of {', '.join(given)}")
    for option, experiments in EXPERIMENT_OPTIONS.items():
        if getattr(args, option) not in (None, False) and not any(getattr(args, e) for e in experiments):
            parser.error(f"--{option.replace('_', '-')} belongs to " + " or ".join(f"--{e}" for e in experiments))
    registered = (DEALS, SEED)  # the experiment's deals and seed, which --deals and --seed replace
    if args.third and args.confirm:
        args.configs, registered = DOUBLES_ALONE, (CONFIRM_THIRD_DEALS, CONFIRM_THIRD_SEED)
    elif args.confirm:
        args.pool, args.pool_size, args.configs = True, POWERED_POOL, DOUBLES_ALONE
        registered = (CONFIRM_INFERENCE_DEALS, CONFIRM_INFERENCE_SEED)
    elif args.third and args.powered:
        args.configs, registered = THIRD_POWERED_CONFIGS, (THIRD_POWERED_DEALS, THIRD_POWERED_SEED)
    elif args.third:
        registered = (THIRD_DEALS, THIRD_SEED)
    elif args.powered:
        args.pool, args.pool_size, args.configs = True, POWERED_POOL, POWERED_CONFIGS
        registered = (POWERED_DEALS, POWERED_SEED)
    args.registered = registered[0]
    args.deals = args.registered if args.deals == DEALS else args.deals
    args.seed = registered[1] if args.seed == SEED else args.seed
    print(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
