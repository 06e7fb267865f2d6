"""Splitting batch work into chunks, run here or as Ray tasks (docs/tournaments.md 5).

``simulate(..., backend="ray")`` and ``tournament(..., backend="ray")`` cut
their games into ``chunks`` consecutive ranges (game i is seeded from the
run's seed and i alone), run each range as a Ray task and put the pieces
back in order, so the result is exactly the local one whatever the number
of chunks or workers. A task that raises is retried (``max_retries``, with
``retry_exceptions``); a task lost with its worker is retried by Ray too.

Ray is optional (``pip install "dominocore[ray]"``) and imported only when
``backend="ray"`` is asked for. ``ray.init`` is called only if Ray is not
initialised yet: with ``address`` when given (a running cluster, as
``ray.init(address=...)``), else with Ray's defaults, which honour the
``RAY_ADDRESS`` environment variable and otherwise start a local instance.
"""

from __future__ import annotations

import importlib
import math
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ._implementations import IMPLEMENTATIONS, implementation
from .common.checks import MAX_SEED, as_int, shown
from .common.errors import RulesError
from .common.extensions import register_chunk_runner
from .common.progress import progress_bar
from .common.results import SimulationResult

__all__ = [
    "BACKENDS",
    "MAX_RETRIES",
    "check_backend",
    "ensure_ray",
    "largest_node_cpus",
    "run_chunks",
    "simulate_chunks",
]

#: The execution backends of ``simulate`` and ``tournament``.
BACKENDS = ("local", "ray")
#: How many times a failed Ray task is tried again.
MAX_RETRIES = 3
#: Chunks per CPU of the cluster when ``chunks`` is not given (more chunks even out the load).
CHUNKS_PER_CPU = 4

Tick = Optional[Callable[[int], Any]]
ChunkFunction = Callable[[Any, int, int, Tick], Any]
Progress = Union[bool, None, Callable[[int, int], Any]]


def check_backend(backend: Any, chunks: Any = None, address: Any = None) -> Optional[int]:
    """Check ``backend`` (one of ``BACKENDS``), ``chunks`` (None or 1..2**40)
    and ``address`` (None or a string, Ray only); return ``chunks`` as an int
    or None (``RulesError``)."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise RulesError(f"backend must be one of {BACKENDS}, got {shown(backend)}")
    if address is not None:
        if backend != "ray":
            raise RulesError("address applies to backend='ray' only")
        if not isinstance(address, str):
            raise RulesError(f"address must be a string (a Ray cluster address), got {shown(address)}")
    return None if chunks is None else as_int(chunks, "chunks", 1, 1 << 40)


def ensure_ray(address: Optional[str] = None) -> Any:
    """The ``ray`` module, initialised: ``ray.init(address=address)`` unless
    Ray already is (then ``address`` is not looked at). ``ImportError``
    with the install command when Ray is not installed."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(
            f'backend="ray" needs Ray: pip install "dominocore[ray]" (or pip install ray): {exc}'
        ) from None
    if not ray.is_initialized():
        if address is None:
            ray.init()
        else:
            ray.init(address=address)
    return ray


_NO_CPU = "the Ray cluster has no node with a CPU: its tasks would wait for ever (start a node with CPUs)"


def largest_node_cpus(ray: Any) -> int:
    """The CPUs of the largest live node of the cluster ``ray`` is connected
    to: a task asking for more never runs (Ray waits for such a node for
    ever), since a task runs on one node."""
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive", True)]
        cpus = [float(n.get("Resources", {}).get("CPU", 0)) for n in nodes]
    except Exception:  # an older or newer Ray without nodes(): the cluster's total
        cpus = [float(ray.cluster_resources().get("CPU", 0))]
    return int(math.floor(max(cpus, default=0.0)))


def fit_cpus(ray: Any, wanted: int, what: str) -> int:
    """``wanted`` CPUs a task, or as many as the largest node has, with a
    ``RuntimeWarning``; ``RulesError`` if no node has a CPU (a task would
    wait for ever)."""
    largest = largest_node_cpus(ray)
    if largest < 1:
        raise RulesError(_NO_CPU)
    if wanted > largest:
        warnings.warn(
            f"{what}={wanted}: the largest node of the Ray cluster has {largest} CPU{'s' if largest != 1 else ''}, "
            f"so each task runs {largest} instead (a task asking for more would wait for ever; "
            "the results do not depend on it)",
            RuntimeWarning,
            stacklevel=4,
        )
        return largest
    return wanted


def _loaded_networks(name: str) -> Tuple[str, List[bytes]]:
    """The engine serving implementation ``name`` ("cpp" or "python") and the
    weights files its ``load_network`` loaded in this process: a Ray task
    loads them first, so that its ``"learned"`` seats play the networks this
    process plays, not only the shipped ones."""
    engine = implementation(name).IMPLEMENTATION
    learned = importlib.import_module(f"{IMPLEMENTATIONS[engine]}.learned")
    return engine, learned.loaded_networks()


def _run_task(
    fn: ChunkFunction, payload: Any, index: int, start: int, count: int, hook: Any, networks: Any = None
) -> Any:
    """The body of one Ray task: the driver's loaded networks (``networks``,
    as ``_loaded_networks`` gives them), ``hook(index)`` (a test's failure
    injector), then the chunk."""
    if networks is not None:
        engine, files = networks
        load = implementation(engine).load_network
        for data in files:
            load(data)
    if hook is not None:
        hook(index)
    return fn(payload, start, count, None)


_REMOTE: Dict[str, Any] = {}


def _remote_task(ray: Any) -> Any:
    """``_run_task`` as a Ray remote function, made once a process."""
    task = _REMOTE.get("task")
    if task is None:
        task = _REMOTE["task"] = ray.remote(_run_task)
    return task


def _bounds(n: int, chunks: int) -> List[range]:
    """``chunks`` consecutive ranges covering 0..n-1, sizes differing by at most one (none empty unless n is 0)."""
    chunks = max(1, min(chunks, n))
    size, extra = divmod(n, chunks)
    out, start = [], 0
    for i in range(chunks):
        count = size + (i < extra)
        out.append(range(start, start + count))
        start += count
    return out


class _Reporter:
    """Progress over ``total`` units: a tqdm bar (``True``), a callable
    ``progress(done, total)``, or nothing."""

    def __init__(self, progress: Progress, total: int, description: str) -> None:
        self.total, self.done, self.bar, self.call = total, 0, None, None
        if progress is True:  # quiet when stderr is not a terminal
            self.bar = progress_bar(total, "deal", description)
        elif callable(progress):
            self.call = progress
        elif progress not in (False, None):
            raise RulesError(f"progress must be True, False, None or a callable, got {shown(progress)}")

    def __call__(self, k: int) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k)
        if self.call is not None:
            self.call(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_chunks(
    fn: ChunkFunction,
    payload: Any,
    n: int,
    *,
    backend: str = "local",
    chunks: Optional[int] = None,
    address: Optional[str] = None,
    progress: Progress = None,
    description: str = "",
    hook: Any = None,
    num_cpus: int = 1,
    max_retries: int = MAX_RETRIES,
    implementation_name: Optional[str] = None,
) -> List[Any]:
    """``[fn(payload, start, count, tick) for each chunk]``, in chunk order:
    ``n`` units cut into ``chunks`` consecutive ranges, run one after the
    other here (``backend="local"``) or as Ray tasks of ``num_cpus`` CPUs
    each, retried ``max_retries`` times on any exception (``RulesError``
    before any task when no node of the cluster has that many CPUs: such a
    task would wait for ever). ``hook(index)`` is
    called before each chunk (tests inject failures with it). Progress
    counts units: ``tick(k)`` inside local chunks, whole chunks as Ray
    tasks finish. ``implementation_name``: the engine the chunks play, whose
    loaded networks (``_loaded_networks``) each Ray task loads first."""
    count = check_backend(backend, chunks, address)
    reporter = _Reporter(progress, n, description)
    try:
        if backend == "local":
            parts = []
            for i, r in enumerate(_bounds(n, count or 1)):
                if hook is not None:
                    hook(i)
                parts.append(fn(payload, r.start, len(r), reporter))
            return parts
        ray = ensure_ray(address)
        largest = largest_node_cpus(ray)
        if largest < 1:
            raise RulesError(_NO_CPU)
        if num_cpus > largest:
            raise RulesError(
                f"each task asks for {num_cpus} CPUs, but the largest node of the Ray cluster has {largest}: "
                "the tasks would wait for ever"
            )
        if count is None:
            count = CHUNKS_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
        ranges = _bounds(n, count)
        task = _remote_task(ray).options(max_retries=max_retries, retry_exceptions=True, num_cpus=num_cpus)
        shared = ray.put(payload)
        networks = None if implementation_name is None else ray.put(_loaded_networks(implementation_name))
        refs = [task.remote(fn, shared, i, r.start, len(r), hook, networks) for i, r in enumerate(ranges)]
        position = {ref: i for i, ref in enumerate(refs)}
        results: List[Any] = [None] * len(refs)
        pending = list(refs)
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    i = position[ref]
                    results[i] = ray.get(ref)
                    reporter(len(ranges[i]))
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
        return results
    finally:
        reporter.close()


def _simulate_chunk(payload: Any, start: int, count: int, tick: Tick) -> Any:
    """Games ``start .. start + count - 1`` of a ``simulate`` run, as the local run plays them."""
    name, rules, matches, seed, round_index, policies, threads = payload
    impl = implementation(name)
    extra = {"matches": count} if matches else {"rounds": count, "round_index": round_index}
    part = impl.simulate(rules, seed=(seed + start) & MAX_SEED, policy=policies, threads=threads, **extra)
    part.match_index += start
    if tick is not None:
        tick(count)
    return part


def simulate_chunks(
    implementation: str,
    rules: Any,
    args: Any,
    backend: str,
    chunks: Optional[int],
    address: Optional[str],
) -> SimulationResult:
    """``simulate``'s checked arguments ``args`` (``common.simulate_args.SimulationArgs``)
    played in chunks on ``backend`` and joined: the very arrays the local
    run gives. On Ray each task runs ``threads`` threads (default 1) and
    asks for as many CPUs: at most the CPUs of the cluster's largest node
    (more, and the tasks would never run), with a ``RuntimeWarning`` when
    that cuts ``threads`` down."""
    threads = args.threads if args.threads is not None else (1 if backend == "ray" else None)
    if backend == "ray":
        check_backend(backend, chunks, address)  # before Ray starts
        threads = fit_cpus(ensure_ray(address), threads or 1, "threads")
    payload = (implementation, rules, args.matches, args.seed, args.round_index, args.policies, threads)
    parts = run_chunks(
        _simulate_chunk,
        payload,
        args.n,
        backend=backend,
        chunks=chunks,
        address=address,
        progress=args.progress,
        description="simulate",
        num_cpus=threads or 1,
        implementation_name=implementation,
    )
    return SimulationResult.concatenate(parts)


register_chunk_runner(simulate_chunks)
