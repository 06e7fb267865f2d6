"""Side-by-side speed table: one run, one machine, every ratio measured here.

    python bench/compare.py            # a few minutes
    python bench/compare.py --quick    # about a minute, for a smoke test
    python bench/compare.py --baseline HEAD~1         # also: this tree vs the previous commit
    python bench/compare.py --baseline origin/main    # ... or vs any revision git knows

Rows: batch simulation (C++ on 1 and 2 threads, the reference, and the
speed-of-light kernel of bench/kernel_bench.py on the same rounds), the
Python step loop (ask the legal action ids, pick one with
random.Random.choice, apply it) over the C++ core, the reference and, when
open_spiel is installed (``pip install open_spiel``), OpenSpiel's
python_block_dominoes and its C++ crazy_eights; the size of a round state and
the cost of clone(); IS-MCTS (bench/search_rates.py); VectorEnv's environment
steps a second (bench/vector_env_bench.py); the information model. Every rate
is given per wall-clock second and per CPU-second (bench/rates.py,
docs/performance.md 1), each the best of a few repeats (the machine is shared
and noisy); the ratios, then the speed goals (docs/performance.md 2) with a
yes or no, follow.

``--baseline REV`` adds a second table: the working tree against revision REV.
Both are pip-installed (``--target``, Release build) into a temporary directory,
REV from a temporary git worktree; .venv is not touched. The ``WORKLOADS`` then
run in fresh interpreters, alternating between the two sides repeat by repeat
so that the machine's load weighs on both alike, the kernel in the same
rotation; each figure is the best of 5 (2 with --quick). Building both sides
takes a minute or two.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import site
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import dominocore._native as core  # the former name: a baseline before dominocore.native has it too
import dominocore.reference as ref
import dominocore.search as search
import numpy as np
from kernel_bench import compile_kernel, kernel_rows, run_kernel  # bench/, beside this file
from rates import Rate, Row, best, best_rate, rate_table, timed, without_blas_threads
from search_rates import ismcts_rows, search_positions
from vector_env_bench import vector_env_rows

ROOT = Path(__file__).resolve().parent.parent


def step_loop(module, rules, rounds: int, seed: int = 1) -> int:
    """Play ``rounds`` random rounds through the step interface; return the action count."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for i in range(rounds):
        state = module.Round(rules, seed=seed + i)
        while not state.is_over:
            state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def openspiel_loop(game, games: int, seed: int = 1) -> int:
    """The same loop over an OpenSpiel game (chance outcomes sampled uniformly)."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def block_games(rules, games: int, seed: int = 1) -> List[Tuple[int, List[int]]]:
    """``games`` random Block rounds of ``rules`` played by the core: (seed, action ids)."""
    games_out = []
    choice = random.Random(seed).choice
    for i in range(games):
        state = core.Round(rules, seed=seed + i)
        actions = []
        while not state.is_over:
            actions.append(choice(state.legal_actions()))
            state.apply_action(actions[-1])
        games_out.append((seed + i, actions))
    return games_out


def block_replay(module, rules, played: List[Tuple[int, List[int]]]) -> int:
    """Replay Block games of ``rules`` through ``module``'s step interface; return the placements made."""
    rules, placements = module.rules_from_dict(rules.to_dict()), 0
    pass_id = rules.num_actions - 1
    for seed, actions in played:
        state = module.Round(rules, seed=seed)
        for a in actions:
            state.legal_actions()  # what a step loop asks before it chooses
            state.apply_action(a)
            placements += a != pass_id
    return placements


def openspiel_block_script(rules, bd, played: List[Tuple[int, List[int]]]) -> List[List[int]]:
    """The same games as action lists of OpenSpiel's ``bd`` (python_block_dominoes, or
    python_team_dominoes with 4 seats): the deal as chance outcomes (block_dominoes: hand 0,
    then hand 1; team_dominoes: a tile to each seat in turn), then each placement as (player,
    tile, edge); our Passes have no counterpart (OpenSpiel skips a seat that cannot place)."""
    deck = {(int(a), int(b)): i for i, (a, b) in enumerate(bd._DECK)}
    ids = {str(action): i for i, action in enumerate(bd._ACTIONS)}
    scripts, p = [], rules.players
    for seed, actions in played:
        state = core.Round(rules, seed=seed)
        hands = [state.hand(seat) for seat in range(p)]
        dealt = [hands[s][i] for s in range(p) for i in range(rules.hand_size)]
        if p == 4:  # team_dominoes deals round the table
            dealt = [hands[s][i] for i in range(rules.hand_size) for s in range(p)]
        script = [deck[(t.low, t.high)] for t in dealt]
        for a in actions:
            move, seat, lead = state.action_to_move(a), state.current_player, not state.layout
            if move.kind == "place":
                t = move.tile
                edge = None if lead else float(state.open_ends[[e.id for e in state.open_ends].index(move.end)].number)
                script.append(ids[str(bd.Action(seat, (float(t.low), float(t.high)), edge))])
            state.apply_action(a)
        scripts.append(script)
    return scripts


def against_openspiel(label: str, rules, module, game, n: Callable[[int], int], repeats: int):
    """The rows and ratios of ``rules`` against the OpenSpiel game ``game`` (its Python
    ``module``) on the same random games: replays in both, and the C++ batch."""
    played = block_games(rules, n(2000))
    scripts = openspiel_block_script(rules, module, played)
    os_rate = best_rate(lambda: openspiel_replay(game, scripts), repeats)
    ours = best_rate(lambda: block_replay(core, rules, played), repeats)
    batch = best_rate(lambda: int(core.simulate(rules, rounds=n(200_000), seed=1, threads=1).moves.sum()), repeats)
    rows = [
        (f"{label} replay, OpenSpiel {game.get_type().short_name}", os_rate, "placements/s"),
        (f"{label} replay, step loop over the C++ core", ours, "placements/s"),
        (f"{label} simulate, C++, 1 thread", batch, "moves/s"),
    ]
    ratios = [
        (f"{label}: step loop / OpenSpiel (same games; goal >= 10)", ours.cpu / os_rate.cpu),
        (f"{label}: C++ simulate / OpenSpiel (goal >= 100)", batch.cpu / os_rate.cpu),
    ]
    return rows, ratios


def openspiel_replay(game, scripts: List[List[int]]) -> int:
    """Replay action lists in OpenSpiel; return the player actions (placements) made."""
    placements = 0
    for script in scripts:
        state = game.new_initial_state()
        for a in script:
            if not state.is_chance_node():
                state.legal_actions()
                placements += 1
            state.apply_action(a)
        assert state.is_terminal()
    return placements


def mid_game(module, rules):
    """Round seed 3 after 20 random actions (6 legal moves there on the current tree)."""
    state = module.Round(rules, seed=3)
    choice = random.Random(3).choice
    for _ in range(20):
        state.apply_action(choice(state.legal_actions()))
    return state


def repeat_calls(call: Callable[[], object], count: int) -> int:
    """Call ``call`` ``count`` times; return the count."""
    for _ in range(count):
        call()
    return count


def sampling(module, rules) -> Callable[[int], int]:
    """``k`` worlds from the reusable determinizer of the seat to move, mid-game."""
    state = mid_game(module, rules)
    sample = state.determinizer(state.current_player).sample

    def work(k: int) -> int:
        for i in range(k):
            sample(i)
        return k

    return work


def searching(rollout: str) -> Callable[..., Callable[[int], int]]:
    """A WORKLOADS entry's prepare: IS-MCTS on 1 thread (2 trees, ``rollout`` rollouts) at the 20 positions
    of bench/search_rates.py, ``k // 20`` iterations at each (the iterations made)."""

    def prepare(module, rules) -> Callable[[int], int]:
        positions = search_positions(20)

        def work(k: int) -> int:
            iterations = max(1, k // len(positions))
            bot = search.ISMCTSPlayer(iterations=iterations, trees=2, threads=1, seed=1, rollout=rollout)
            return sum(bot.search(r)["iterations"] for r in positions)

        return work

    return prepare


def stepping(module, rules) -> Callable[[int], int]:
    """``k`` random steps of 4096 environments on 1 thread (the environment steps)."""
    env = module.VectorEnv(rules, num_envs=4096, seed=1, threads=1)
    env.reset(seed=1)
    return lambda k: repeat_calls(env.step_random, k) * env.num_envs


def observing(module, rules) -> Callable[[int], int]:
    """``k`` calls of ``Round.observation_tensors`` over 1000 random mid-game positions (the tensors)."""
    rounds, seats = zip(*random_positions(module, rules, 1000))
    out = np.zeros((len(rounds), *rounds[0].observation_tensor_shape), dtype=np.float32)
    return lambda k: repeat_calls(lambda: module.Round.observation_tensors(rounds, seats, out=out), k) * len(rounds)


def other_game(name: str, policy: str = "random") -> Callable[..., Callable[[int], int]]:
    """A WORKLOADS entry's prepare: rounds of the game class ``name`` (its defaults, 4 players), every seat
    playing ``policy``."""
    return lambda m, r: (
        lambda k: m.simulate(getattr(m, name)(players=4), rounds=k, seed=1, threads=1, policy=policy).moves.size
    )


#: The --baseline table: name -> (unit, size, prepare(module, rules) -> work(size) -> units), run by the
#: same code on both sides with Chicken Foot trains, double-9, 4 players (the other games' simulate
#: rows: their own); only work(size) is timed.
#: Use only API that older versions have too.
WORKLOADS: Dict[str, Tuple[str, int, Callable[..., Callable[[int], int]]]] = {
    "simulate, 1 thread": (
        "rounds/s",
        100_000,
        lambda m, r: lambda k: m.simulate(r, rounds=k, seed=1, threads=1).moves.size,
    ),
    **{
        f"simulate, 1 thread, {name} 4p": ("rounds/s", size, other_game(name))
        for name, size in (("Doubles", 100_000), ("Block", 100_000), ("MexicanTrain", 20_000), ("AllFives", 50_000))
    },
    **{
        f"simulate greedy, 1 thread, {name} 4p": ("rounds/s", size, other_game(name, "greedy"))
        for name, size in (("ChickenFoot", 100_000), ("Block", 100_000), ("MexicanTrain", 20_000), ("AllFives", 50_000))
    },
    "step loop": ("actions/s", 4_000, lambda m, r: lambda k: step_loop(m, r, k)),
    "Round.clone()": ("clones/s", 500_000, lambda m, r: lambda k: repeat_calls(mid_game(m, r).clone, k)),
    "legal_moves(), mid-game": ("calls/s", 300_000, lambda m, r: lambda k: repeat_calls(mid_game(m, r).legal_moves, k)),
    "determinizer.sample()": ("worlds/s", 100_000, sampling),
    "IS-MCTS, 1 thread": ("iterations/s", 400_000, searching("random")),
    # the rollouts bench/tournament.py chose for Chicken Foot
    "IS-MCTS greedy rollouts, 1 thread": ("iterations/s", 200_000, searching("greedy")),
    "VectorEnv.step_random, 1 thread": ("env steps/s", 300, stepping),
    "observation_tensors, batch of 1000": ("tensors/s", 40, observing),
}


def run_workload(name: str, size: int) -> None:
    """Worker side of --baseline: print one timed run's rates of ``name`` and where dominocore came from."""
    work = WORKLOADS[name][2](core, core.ChickenFoot(players=4))
    work(max(1, size // 10))  # warm up
    compiled = __import__("dominocore._core", fromlist=["_core"])  # where the core came from, on both sides
    rate = timed(lambda: work(size))
    print(rate.wall, rate.cpu, core.__file__, compiled.__file__)


def install(src: Path, out: Path) -> Path:
    """pip-install the package at ``src`` into ``out/site`` (built in ``out/build``); return that directory."""
    target = out / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run([*pip, "--target", str(target), "-C", f"build-dir={out / 'build'}", str(src)], check=True)
    return target


def install_revision(rev: str, out: Path) -> Path:
    """``install`` git revision ``rev`` from a temporary worktree (removed again, even on failure)."""
    src = out / "src"
    subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(src), rev], cwd=ROOT, check=True)
    try:
        return install(src, out)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(src)], cwd=ROOT, check=True)


def measure(target: Path, name: str, size: int) -> Rate:
    """One timed run of workload ``name`` in a fresh interpreter importing dominocore from ``target``."""
    # -S: no site hooks, so the editable install's import hook cannot take precedence over PYTHONPATH
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), *site.getsitepackages()]))
    cmd = [sys.executable, "-S", __file__, "--worker", name, str(size)]
    wall, cpu, *paths = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    assert all(Path(p).is_relative_to(target) for p in paths), (target, paths)
    return Rate(float(wall), float(cpu))


def resolve(rev: str) -> str:
    """The commit ``rev`` names, looked up once (a typo fails before any work; the branch may move meanwhile)."""
    cmd = ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"]
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True).stdout.strip()


def compare_with(rev: str, sha: str, scale: float, repeats: int) -> None:
    """Print the working tree against commit ``sha`` (named ``rev``), alternating the sides every repeat."""
    with tempfile.TemporaryDirectory(prefix="dominocore-baseline-") as tmp:
        sides = [install(ROOT, Path(tmp, "current")), install_revision(sha, Path(tmp, "baseline"))]
        runs: Dict[Tuple[str, int], List[Rate]] = {(name, side): [] for name in WORKLOADS for side in (0, 1)}
        kernel, kernel_runs = compile_kernel(), []
        simulated = max(1, int(WORKLOADS["simulate, 1 thread"][1] * scale))
        for i in range(repeats):
            for name, (_, size, _) in WORKLOADS.items():
                for side in (i % 2, 1 - i % 2):
                    runs[name, side].append(measure(sides[side], name, max(1, int(size * scale))))
            # the kernel's rounds are simulate's (seed 1): its rate is the bound of that row
            kernel_runs.append(run_kernel(kernel, simulated, 1).rate(simulated))
    baseline = f"baseline {rev} ({sha[:7]})"
    print()
    print(f"working tree vs {rev} ({sha[:7]}): best of {repeats}, interleaved, each run in a fresh process")
    print()
    labels = {name: f"{name}, {unit}" for name, (unit, _, _) in WORKLOADS.items()}
    width = max(len(label) for label in labels.values())
    print(
        f"| {'measurement':{width}} | {'current, per CPU-s':>18} | {'baseline, per CPU-s':>19} | "
        f"{'ratio':>6} | {'ratio, wall':>11} |"
    )
    print(f"|{'-' * (width + 2)}|{'-' * 20}|{'-' * 21}|{'-' * 8}|{'-' * 13}|")
    for name, label in labels.items():
        now, then = best(runs[name, 0]), best(runs[name, 1])
        print(
            f"| {label:{width}} | {now.cpu:>18,.0f} | {then.cpu:>19,.0f} | "
            f"{now.cpu / then.cpu:>6.2f} | {now.wall / then.wall:>11.2f} |"
        )
    print(f"(ratio: current / {baseline})")
    bound = best(kernel_runs)
    now, then = (best(runs["simulate, 1 thread", side]).cpu / bound.cpu for side in (0, 1))
    print()
    print(
        f"simulate / speed-of-light kernel (per CPU-second; the kernel {bound.cpu:,.0f} rounds/s, "
        f"in the same rotation): current {now:.2f}, baseline {then:.2f}"
    )


#: The speed goals (docs/performance.md): (what, a row's or a ratio's name, the goal), all per CPU-second.
GOALS = [
    ("VectorEnv.step_random, env steps", "VectorEnv.step_random, 1 thread", 5e6),
    ("simulate / speed-of-light kernel", "simulate / kernel, 1 thread", 1.0),
    ("IS-MCTS, iterations a thread", "IS-MCTS trains d9 4p, 2 trees, 1 thread", 2e5),
    ("observation_tensors, batched, tensors", "trains d9 4p: observation_tensors, batched, C++", 6e6),
]


def goal_table(rows: List[Row], ratios: List[Tuple[str, float]]) -> List[str]:
    """Markdown lines: each goal, the figure measured for it and whether it is met."""
    found = {name: rate.cpu for name, rate, _ in rows}
    found.update(ratios)
    lines = [
        f"| {'goal (per CPU-second)':40} | {'measured':>12} | {'goal':>12} | met |",
        f"|{'-' * 42}|{'-' * 14}|{'-' * 14}|-----|",
    ]
    for what, name, goal in GOALS:
        value = found.get(name, float("nan"))
        digits = 2 if goal < 10 else 0
        met = "yes" if value >= goal else "no"
        lines.append(f"| {what:40} | {value:>12,.{digits}f} | {goal:>12,.{digits}f} | {met:>3} |")
    return lines


def in_fresh_process(code: str) -> str:
    """Run ``code`` in a fresh interpreter (for peak memory and signals); return its output."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    ).stdout


def simulate_bytes_per_round(rounds: int) -> float:
    """Peak resident memory that ``simulate(rounds=...)`` adds, per round (fresh process, 1 thread)."""
    out = in_fresh_process(
        f"""
        import resource, dominocore._native as dc
        rules = dc.ChickenFoot(players=4)
        dc.simulate(rules, rounds=10, seed=1, threads=1)  # warm up: code and small buffers
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        sim = dc.simulate(rules, rounds={rounds}, seed=1, threads=1)
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / {rounds})
        """
    )
    return float(out)


def interrupt_latency() -> float:
    """Seconds from SIGINT to KeyboardInterrupt in a long two-thread ``simulate``."""
    code = """
        import signal, time, dominocore._native as dc
        # A background job inherits SIGINT ignored: take Python's own handler back.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("start", flush=True)
        try:
            dc.simulate(dc.Doubles(players=2, target=10**6, max_rounds=100_000), matches=10**6, threads=2)
        except KeyboardInterrupt:
            print(time.perf_counter(), flush=True)
        """
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    time.sleep(0.5)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()  # never leave a run that missed the signal going
    return float(out) - sent


def random_positions(module, rules, count: int, seed: int = 7) -> list:
    """``count`` mid-game positions of random play (each a random number of
    random actions into round ``seed + i``), with the seat to move."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = module.Round(rules, seed=seed + len(positions) + 1000 * rng.randrange(1000))
        for _ in range(rng.randrange(1, 80)):
            if state.is_over:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_over:
            positions.append((state, state.current_player))
    return positions


def per_position_rates(positions: list, samples: int, reusable: bool) -> List[Rate]:
    """Determinizations a second at each position: ``samples`` worlds through
    one ``determinizer`` (its preparation included once), or one-shot."""

    def worlds(state, seat) -> int:
        if reusable:
            sample = state.determinizer(seat).sample
            for i in range(samples):
                sample(i)
        else:
            for i in range(samples):
                state.determinize(seat, i)
        return samples

    return [timed(lambda state=state, seat=seat: worlds(state, seat)) for state, seat in positions]


def median(rates: List[Rate]) -> Rate:
    """The median wall-clock rate and the median per-CPU-second rate."""
    middle = len(rates) // 2
    return Rate(sorted(r.wall for r in rates)[middle], sorted(r.cpu for r in rates)[middle])


def information_rows(
    label: str, make: Callable, quick: bool, repeats: int
) -> Tuple[List[Row], List[Tuple[str, float]], List[str]]:
    """The information model (docs/information.md) on the rules ``make(module)``
    builds: determinizations, tensors and keys, C++ against the reference."""
    rows: List[Row] = []
    ratios: List[Tuple[str, float]] = []
    notes: List[str] = []
    count = 200 if quick else 10_000
    positions = random_positions(core, make(core), count)
    ref_positions = [(ref.Round.from_dict(s.to_dict()), seat) for s, seat in positions[: max(20, count // 100)]]
    for reusable, samples, form in ((True, 20, "reusable determinizer"), (False, 3, "one-shot determinize")):
        rates = per_position_rates(positions, samples, reusable)
        ours, theirs = median(rates), median(per_position_rates(ref_positions, 2, reusable))
        rows += [
            (f"{label}: {form}, C++ (median)", ours, "worlds/s"),
            (f"{label}: {form}, reference (median)", theirs, "worlds/s"),
        ]
        ratios.append((f"{label}: {form}: C++ / reference", ours.cpu / theirs.cpu))
        walls = sorted(r.wall for r in rates)
        p99, worst = walls[len(walls) // 100], walls[0]
        notes.append(
            f"{label}, {form}, C++, {len(rates):,} positions: median {1e6 / ours.wall:.1f} us, "
            f"p99 {1e6 / p99:.1f} us, worst {1e6 / worst:.1f} us a world"
        )
    state, seat = positions[0]
    ref_state = ref.Round.from_dict(state.to_dict())
    buffer = np.zeros(state.observation_tensor_shape, dtype=np.float32)
    obs = best_rate(lambda: repeat_calls(lambda: state.observation_tensor(seat, out=buffer), 20_000), repeats)
    obs_ref = best_rate(lambda: repeat_calls(lambda: ref_state.observation_tensor(seat, out=buffer), 300), repeats)
    rounds = [s for s, _ in positions[:1000]]
    seats = [seat for _, seat in positions[:1000]]
    batch = np.zeros((len(rounds), *state.observation_tensor_shape), dtype=np.float32)
    fill = lambda: core.Round.observation_tensors(rounds, seats, out=batch)  # noqa: E731
    obs_batch = best_rate(lambda: repeat_calls(fill, 20) * len(rounds), repeats)
    keys = best_rate(lambda: repeat_calls(lambda: state.information_state_hash(seat), 50_000), repeats)
    keys_ref = best_rate(lambda: repeat_calls(lambda: ref_state.information_state_hash(seat), 300), repeats)
    rows += [
        (f"{label}: observation_tensor(out=), C++", obs, "tensors/s"),
        (f"{label}: observation_tensors, batched, C++", obs_batch, "tensors/s"),
        (f"{label}: observation_tensor(out=), reference", obs_ref, "tensors/s"),
        (f"{label}: information_state_hash, C++", keys, "keys/s"),
        (f"{label}: information_state_hash, reference", keys_ref, "keys/s"),
    ]
    ratios += [
        (f"{label}: observation_tensor: C++ / reference", obs.cpu / obs_ref.cpu),
        (f"{label}: information_state_hash: C++ / reference", keys.cpu / keys_ref.cpu),
    ]
    notes.append(f"{label}, observation_tensors: one call fills the tensors of {len(rounds):,} positions")
    return rows, ratios, notes


def main() -> None:
    without_blas_threads()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument("--baseline", metavar="REV", help="also compare the working tree with git revision REV")
    parser.add_argument("--worker", nargs=2, metavar=("WORKLOAD", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_workload(args.worker[0], int(args.worker[1]))
        return
    baseline = resolve(args.baseline) if args.baseline else None
    scale = 0.05 if args.quick else 1.0
    repeats = 1 if args.quick else 3
    n = lambda x: max(1, int(x * scale))  # noqa: E731

    rows: List[Row] = []
    cf_core, cf_ref = core.ChickenFoot(players=4), ref.ChickenFoot(players=4)

    # -- batch simulation
    sim1 = best_rate(lambda: core.simulate(cf_core, rounds=n(400_000), seed=1, threads=1).moves.size, repeats)
    sim2 = best_rate(lambda: core.simulate(cf_core, rounds=n(400_000), seed=1, threads=2).moves.size, repeats)
    simr = best_rate(lambda: len(ref.simulate(cf_ref, rounds=n(300), seed=1).moves), repeats)
    rows += [
        ("simulate, C++, 1 thread", sim1, "rounds/s"),
        ("simulate, C++, 2 threads", sim2, "rounds/s"),
        ("simulate, reference", simr, "rounds/s"),
    ]
    ratios = [
        ("C++ 2 threads / 1 thread (wall clock)", sim2.wall / sim1.wall),
        ("C++ simulate (1 thread) / reference simulate", sim1.cpu / simr.cpu),
    ]

    # -- against the speed-of-light kernel (bench/kernel_bench.py): the same rounds, alternating
    more_rows, more_ratios = kernel_rows(0.5 * scale, repeats)
    rows += more_rows
    ratios += more_ratios

    # -- the Python step loop
    step_core = best_rate(lambda: step_loop(core, cf_core, n(6000)), repeats)
    step_ref = best_rate(lambda: step_loop(ref, cf_ref, n(150)), repeats)
    rows += [
        ("step loop, C++ core", step_core, "actions/s"),
        ("step loop, reference", step_ref, "actions/s"),
    ]
    ratios.append(("step loop: C++ core / reference", step_core.cpu / step_ref.cpu))

    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers python_* games)
    except ImportError:
        rows.append(("OpenSpiel", Rate(float("nan"), float("nan")), "not installed (pip install open_spiel)"))
    else:
        block = pyspiel.load_game("python_block_dominoes")
        eights = pyspiel.load_game("crazy_eights")
        os_block = best_rate(lambda: openspiel_loop(block, n(300)), repeats)
        os_eights = best_rate(lambda: openspiel_loop(eights, n(3000)), repeats)
        rows += [
            ("step loop, OpenSpiel python_block_dominoes", os_block, "actions/s"),
            ("step loop, OpenSpiel crazy_eights (C++)", os_eights, "actions/s"),
        ]
        ratios += [
            ("step loop: C++ core / OpenSpiel python_block_dominoes", step_core.cpu / os_block.cpu),
            ("step loop: C++ core / OpenSpiel crazy_eights", step_core.cpu / os_eights.cpu),
        ]
        # the same game driven through the OpenSpiel bridge (docs/ecosystem.md): the deal as chance nodes
        import dominocore.openspiel  # noqa: F401  (registers the dominocore_* games)

        bridged = pyspiel.load_game("dominocore_chickenfoot(rule_set=trains,players=4,set=9)")
        os_bridge = best_rate(lambda: openspiel_loop(bridged, n(60)), repeats)
        rows.append(("step loop, trains via dominocore.openspiel (chance too)", os_bridge, "actions/s"))
        ratios.append(("step loop: C++ core / OpenSpiel-driven dominocore", step_core.cpu / os_bridge.cpu))

    # -- Block and partnership Block against OpenSpiel's python_block_dominoes and
    # python_team_dominoes (docs/games/partnership.md P6), on identical games
    if "pyspiel" in sys.modules:
        from open_spiel.python.games import block_dominoes, team_dominoes

        peers = [
            ("Block", core.Block(players=2), block_dominoes, block),
            (
                "Team Block",
                core.Block(players=4, hand_size=7, teams=2, team_scoring="fewer_pips"),
                team_dominoes,
                pyspiel.load_game("python_team_dominoes"),
            ),
        ]
        for label, peer_rules, peer_module, peer_game in peers:
            peer_rows, peer_ratios = against_openspiel(label, peer_rules, peer_module, peer_game, n, repeats)
            rows += peer_rows
            ratios += peer_ratios

    # -- scoring during play (docs/games/all_fives.md): the batch's cost per move against
    # Block's, the line game without points of play (the bound: within 1.5x)
    def moves_of(rules) -> Callable[[], int]:
        return lambda: int(core.simulate(rules, rounds=n(100_000), seed=1, threads=1).moves.sum())

    block_moves = best_rate(moves_of(core.Block(players=2)), repeats)
    rows.append(("simulate, Block 2p, C++, 1 thread", block_moves, "moves/s"))
    mexican_moves = best_rate(moves_of(core.MexicanTrain(players=4)), repeats)
    rows.append(("simulate, Mexican Train 4p, C++, 1 thread", mexican_moves, "moves/s"))
    for label, rules in (
        ("All Fives 2p", core.AllFives(players=2)),
        ("All Fives 4p teams", core.AllFives(players=4, teams=2)),
        ("Fives and Threes 2p", core.FivesAndThrees(players=2)),
    ):
        rate = best_rate(moves_of(rules), repeats)
        rows.append((f"simulate, {label}, C++, 1 thread", rate, "moves/s"))
        ratios.append((f"cost a move: {label} / Block 2p", block_moves.cpu / rate.cpu))

    # -- the learned policy (docs/learning.md): a move's cost with the shipped trains network
    def policy_moves(module, rules, policy: str, rounds: int) -> Callable[[], int]:
        return lambda: int(module.simulate(rules, rounds=rounds, seed=1, policy=policy, threads=1).moves.sum())

    greedy_moves = best_rate(policy_moves(core, cf_core, "greedy", n(20_000)), repeats)
    learned_moves = best_rate(policy_moves(core, cf_core, "learned", n(20_000)), repeats)
    learned_ref = best_rate(policy_moves(ref, cf_ref, "learned", n(40)), repeats)
    rows += [
        ("simulate, greedy, C++, 1 thread", greedy_moves, "moves/s"),
        ("simulate, learned, C++, 1 thread", learned_moves, "moves/s"),
        ("simulate, learned, reference", learned_ref, "moves/s"),
    ]
    ratios += [
        ("learned: microseconds a move, C++, 1 thread (goal <= 20)", 1e6 / learned_moves.cpu),
        ("learned: C++ / reference", learned_moves.cpu / learned_ref.cpu),
    ]

    # -- a long Doubles match (O(1) accounting a round) and the resources of a batch
    long_match = core.Doubles(players=2, target=10**6, max_rounds=n(100_000))
    long_rate = best_rate(lambda: core.simulate(long_match, matches=1, seed=1, threads=1).moves.size, repeats)
    rows.append(("one long Doubles match (no target reached), C++", long_rate, "rounds/s"))
    per_round = simulate_bytes_per_round(n(4_000_000))
    stop_after = interrupt_latency()

    # -- state size and clone cost
    clone = mid_game(core, cf_core).clone
    clones = best_rate(lambda: repeat_calls(clone, n(200_000)), repeats)
    rows.append(("Round.clone(), C++ core (from Python)", clones, "clones/s"))

    # -- search: IS-MCTS iterations a second (bench/search_rates.py)
    more_rows, more_ratios = ismcts_rows(args.quick, repeats)
    rows += more_rows
    ratios += more_ratios

    # -- the vectorized environment: env steps with observations (bench/vector_env_bench.py)
    vec_rows, vec_notes = vector_env_rows(scale, repeats)
    rows += vec_rows

    info_notes: List[str] = []
    for label, make in (
        ("trains d9 4p", lambda m: m.ChickenFoot(players=4)),
        ("doubles d6 4p", lambda m: m.Doubles(players=4)),
    ):
        more_rows, more_ratios, notes = information_rows(label, make, args.quick, repeats)
        rows += more_rows
        ratios += more_ratios
        info_notes += notes

    print(
        f"dominocore bench: Chicken Foot trains, double-9, 4 players; random policy{' (quick)' if args.quick else ''}"
    )
    print()
    print("\n".join(rate_table(rows)))
    print()
    print(f"| {'ratio (per CPU-second unless it says otherwise)':56} | {'value':>14} |")
    print(f"|{'-' * 58}|{'-' * 16}|")
    for name, value in ratios:
        print(f"| {name:56} | {value:>14.2f} |")
    print()
    print("\n".join(goal_table(rows, ratios)))
    print()
    print(
        f"round state: {core.STATE_BYTES} bytes (sizeof(State); undo history beside it); "
        f"clone() {1e9 / clones.wall:,.0f} ns from Python"
    )
    print(
        f"simulate: {per_round:.1f} bytes a round at peak ({n(4_000_000):,} rounds, 4 players; the result itself "
        f"holds 31); Ctrl-C stopped a 2-thread run after {stop_after * 1000:.0f} ms"
    )
    for note in vec_notes:
        print(note)
    print()
    print("determinization cost per world, over random mid-game positions (the seat to move):")
    for note in info_notes:
        print(f"- {note}")
    if baseline:
        compare_with(args.baseline, baseline, scale, 2 if args.quick else 5)


if __name__ == "__main__":
    main()
