"""Helpers of tests/test_information.py (docs/information.md).

Independent of the implementations' samplers:

- ``Knowledge``: what one seat knows of a round, read from the round's hidden
  record (``_deal_dict``, ``_history``) only through the public facts and the
  seat's own private history (docs/information.md 1);
- ``inconsistency``/``consistent``: the oracle. A world (a deal after the
  set-up, with the cross's search draws, and a yard order) is consistent with
  what the seat knows when it has the same public facts and the seat's own
  tiles, its set-up fact holds, and the public moves replay legally from it,
  by the same movers, with the seat's own draws taking the same tiles, to a
  round that is over exactly when the original is;
- ``rejection_sample``: the baseline proposal of docs/information.md 4 (each
  seat's placed tiles into a uniformly chosen slot it had got before placing
  them, the rest of the unseen tiles shuffled over the other slots and the
  yard), accepted by the oracle: uniform over consistent worlds;
- ``enumerate_worlds``: every consistent assignment of tiles to the other
  seats' slots, by brute force through the oracle;
- random positions from random play, and the statistics (chi-square with
  its own regularized incomplete gamma function, two-proportion z-tests).
"""

from __future__ import annotations

import collections
import importlib
import itertools
import math
import os
import random
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from dominocore.common.errors import IllegalMoveError, StateError
from dominocore.common.moves import DRAW, PLACE
from dominocore.common.tiles import Tile, tiles_of_set
from dominocore.reference.learned import network_for as reference_network_for

#: A world as the tests hand it around: the keys of ``Round._deal_dict()``,
#: tiles as ``Tile`` (``centre`` may be ``None`` in Block).
WorldDeal = Dict[str, Any]
#: What the statistical tests compare: per other seat (in seat order) the
#: tile indices it holds now, then the tile each other seat's Draw took (in
#: history order). The yard's order beyond the drawn tiles is left out: it is
#: uniform in every consistent world and enters no condition.
Key = Tuple[Tuple[Tuple[int, ...], ...], Tuple[int, ...]]


def information_scaled(default: int, large: int) -> int:
    """A count of tests/test_information.py: ``default``, or ``large`` under
    ``--information-large`` (``DOMINOCORE_INFORMATION_LARGE=1``)."""
    return large if os.environ.get("DOMINOCORE_INFORMATION_LARGE") == "1" else default


def oracle_engine() -> Any:
    """The engine the oracle replays worlds with: the compiled core when it is
    built (fast), else the reference. Only its move legality is used, which
    the differential tests hold equal between the two; the samplers under test
    take no part in it."""
    try:
        return importlib.import_module("dominocore.native")
    except ImportError:  # pragma: no cover - only without a build
        return importlib.import_module("dominocore.reference")


_ENGINE = oracle_engine()


def _tile(value: Any) -> Optional[Tile]:
    if value is None or isinstance(value, Tile):
        return value
    return Tile.parse(value)


def parse_deal(deal: Dict[str, Any]) -> WorldDeal:
    """A ``_deal_dict()`` (tiles as strings) with its tiles as ``Tile``."""
    return {
        "centre": _tile(deal["centre"]),
        "starter": deal["starter"],
        "hands": [[_tile(t) for t in h] for h in deal["hands"]],
        "yard": [_tile(t) for t in deal["yard"]],
        "setup_draws": [_tile(t) for t in deal.get("setup_draws", [])],
        "highest_double": bool(deal.get("highest_double", False)),
    }


class Knowledge:
    """What ``seat`` knows of ``original`` (docs/information.md 1), and the
    slot structure of section 4 seen from it.

    Read from the hidden record, but only: the public facts (rules, round
    index, centre, starter, the set-up's facts, each hand's size after the
    set-up, the search's drawers, every move with its mover, the yard's size,
    whether the round is over) and the seat's own private history (its hand
    after the set-up, its search draws, the tiles it drew).
    """

    def __init__(self, original: Any, seat: int) -> None:
        rules = original.rules
        p = rules.players
        deal = parse_deal(original._deal_dict())
        history = original._history()
        self.rules = rules
        self.seat = seat
        self.round_index = original.round_index
        self.centre: Optional[Tile] = deal["centre"]
        self.starter: int = deal["starter"]
        self.highest_double: bool = deal["highest_double"]
        self.hand_sizes = [len(h) for h in deal["hands"]]
        setup = deal["setup_draws"]
        #: The search's drawers: the i-th tile was drawn by seat (k + i) mod p (public).
        self.search_drawers = [(self.round_index + i) % p for i in range(len(setup))]
        #: The seat's own search draws, in order (its share of the search: private).
        self.own_search = [t for t, d in zip(setup, self.search_drawers) if d == seat]
        #: The seat's own hand right after the set-up (its dealt tiles and search draws).
        self.own_initial = frozenset(deal["hands"][seat])
        self.moves = [(mover, move) for mover, move, _ in history]
        #: The tiles the seat's own Draws took, by move index.
        self.own_drawn = {
            i: drawn for i, (mover, move, drawn) in enumerate(history) if mover == seat and move.kind == DRAW
        }
        self.yard_size = original.yard_size
        self.is_over = original.is_over
        self.others = [j for j in range(p) if j != seat]
        #: Move indices of every Draw, in order (the k-th took the yard's k-th tile).
        self.draw_moves = [i for i, (_, move) in enumerate(self.moves) if move.kind == DRAW]
        #: Move indices of the other seats' Draws.
        self.other_draws = [i for i in self.draw_moves if self.moves[i][0] != seat]
        #: Per seat, its placements as (move index, tile).
        self.placed: Dict[int, List[Tuple[int, Tile]]] = {j: [] for j in range(p)}
        #: A Draw's move index -> the tile placed right after it by the same
        #: seat (publicly the drawn tile, docs/information.md 1).
        self.fixed: Dict[int, Tile] = {}
        for i, (mover, move) in enumerate(self.moves):
            if move.kind == PLACE:
                self.placed[mover].append((i, move.tile))
                if i > 0 and self.moves[i - 1][0] == mover and self.moves[i - 1][1].kind == DRAW:
                    self.fixed[i - 1] = move.tile
        seen = set(self.own_initial) | set(self.own_drawn.values())
        seen |= {t for j in range(p) for _, t in self.placed[j]}
        if self.centre is not None:
            seen.add(self.centre)
        #: The pool U: every tile the seat never saw.
        self.unseen = [t for t in tiles_of_set(rules.set) if t not in seen]

    def search_count(self, seat: int) -> int:
        """How many of ``seat``'s search draws sit in its hand after the set-up
        (the last search draw, the round's double, is the centre)."""
        return sum(1 for d in self.search_drawers[:-1] if d == seat)

    def build(
        self, initial: Dict[int, Sequence[Tile]], draw_tiles: Dict[int, Tile], yard_rest: Sequence[Tile]
    ) -> WorldDeal:
        """The world whose other seats got ``initial[j]`` (their hands right after
        the set-up, search draws last, in draw order), whose other seats' Draws
        took ``draw_tiles`` (by move index) and whose yard after every Draw so far
        is ``yard_rest``; the seat's own tiles are its own."""
        p = self.rules.players
        hands = [list(initial[j]) if j != self.seat else sorted(self.own_initial) for j in range(p)]
        setup: List[Tile] = []
        if self.search_drawers:
            own = iter(self.own_search)
            # Each other seat's search draws are the last of its initial tiles, in order.
            theirs = {j: iter(hands[j][len(hands[j]) - self.search_count(j) :]) for j in self.others}
            last = len(self.search_drawers) - 1
            for i, d in enumerate(self.search_drawers):
                if d == self.seat:
                    setup.append(next(own))
                elif i == last:
                    setup.append(self.centre)
                else:
                    setup.append(next(theirs[d]))
        drawn = {**self.own_drawn, **draw_tiles}
        return {
            "centre": self.centre,
            "starter": self.starter,
            "hands": hands,
            "yard": [drawn[i] for i in self.draw_moves] + list(yard_rest),
            "setup_draws": setup,
            "highest_double": self.highest_double,
        }

    def key_of(self, initial: Dict[int, Iterable[Tile]], draw_tiles: Dict[int, Tile]) -> Key:
        """The ``Key`` of a world given as in ``build``."""
        hands = []
        for j in self.others:
            held = set(initial[j]) | {draw_tiles[i] for i in self.other_draws if self.moves[i][0] == j}
            held -= {t for _, t in self.placed[j]}
            hands.append(tuple(sorted(t.index for t in held)))
        return tuple(hands), tuple(draw_tiles[i].index for i in self.other_draws)

    def key_of_world(self, world: Any) -> Key:
        """The ``Key`` of a world given as a ``Round`` (a determinization)."""
        history = world._history()
        hands = tuple(tuple(sorted(t.index for t in world.hand(j))) for j in self.others)
        return hands, tuple(history[i][2].index for i in self.other_draws)


def setup_fact_holds(know: Knowledge, hands: Sequence[Iterable[Tile]]) -> bool:
    """docs/information.md 1: under ``highest_double`` no hand was dealt a
    double above the centre (no double at all when there is no centre)."""
    if not know.highest_double:
        return True
    ceiling = -1 if know.centre is None else know.centre.index
    return not any(t.is_double and t.index > ceiling for h in hands for t in h)


def inconsistency(know: Knowledge, world: WorldDeal) -> Optional[str]:
    """Why ``world`` is not consistent with what ``know.seat`` knows, or
    ``None`` when it is (the oracle; see the module's docstring)."""
    if (world["centre"], world["starter"], world["highest_double"]) != (
        know.centre,
        know.starter,
        know.highest_double,
    ):
        return "the centre, the starter or the set-up's fact differs"
    hands = world["hands"]
    if [len(h) for h in hands] != know.hand_sizes:
        return "the hand sizes differ"
    if frozenset(hands[know.seat]) != know.own_initial:
        return "the seat's own hand differs"
    setup = world["setup_draws"]
    if len(setup) != len(know.search_drawers):
        return "the search's length differs"
    if setup and setup[-1] != know.centre:
        return "the search does not end with the round's double"
    if len(set(setup)) != len(setup):
        return "a search tile repeats"
    for i, (tile, drawer) in enumerate(zip(setup[:-1], know.search_drawers)):
        if tile not in hands[drawer]:
            return f"search draw {i} is not in its drawer's hand"
    if [t for t, d in zip(setup, know.search_drawers) if d == know.seat] != know.own_search:
        return "the seat's own search draws differ"
    try:
        replay = _ENGINE.Round.from_deal(
            know.rules, hands, world["yard"], world["centre"], world["starter"], know.round_index
        )
    except StateError as exc:
        return f"not a deal: {exc}"
    for i, (mover, move) in enumerate(know.moves):
        try:
            replay.push(move, player=mover)
        except IllegalMoveError as exc:
            return f"move {i} ({mover}: {move}) is illegal: {exc.reason}"
        if i in know.own_drawn and replay.drawn_tile != know.own_drawn[i]:
            return f"the seat's own draw at move {i} differs"
    # The set-up's fact and the round's state come last, so that a world the
    # moves allow is rejected for them alone (the tests count those).
    if not setup_fact_holds(know, hands):
        return "a hand holds a double above the centre"
    if replay.is_over != know.is_over:
        # Whether the round is over is public (docs/information.md 1): after a
        # move that leaves the yard at its reserve, a world where no seat can
        # place any more tile is blocked while the original is not.
        return "the world's round is over and the original's is not"
    return None


def consistent(know: Knowledge, world: WorldDeal) -> bool:
    """Whether ``world`` is consistent with what ``know.seat`` knows."""
    return inconsistency(know, world) is None


# ------------------------------------------------------------------ the rejection sampler


def propose(know: Knowledge, rng: random.Random) -> Tuple[WorldDeal, Key]:
    """One proposal of the baseline kind (docs/information.md 4), and its key.

    Each other seat's placed tiles, in placement order, go to a uniformly
    chosen free slot among those it had got before placing them (a placement
    right after its Draw: that Draw's slot); the rest of the unseen tiles are
    shuffled over the remaining slots and the yard. The number of choices at
    each step does not depend on the earlier ones, so a proposal is uniform
    over the worlds where every placed tile sat in a slot of its placer got
    before the placement."""
    slots: Dict[Any, Optional[Tile]] = {}  # ("init", j, k) or ("draw", i) -> tile
    for j in know.others:
        got: List[Any] = [("init", j, k) for k in range(know.hand_sizes[j])]
        for k in got:
            slots[k] = None
        for i, (mover, move) in enumerate(know.moves):
            if mover != j:
                continue
            if move.kind == DRAW:
                got.append(("draw", i))
                slots[("draw", i)] = None
            elif move.kind == PLACE:
                if i - 1 in know.fixed and know.moves[i - 1][0] == j:
                    slot: Any = ("draw", i - 1)
                else:
                    slot = rng.choice([s for s in got if slots[s] is None])
                slots[slot] = move.tile
    free = [s for s, t in slots.items() if t is None]
    rest = list(know.unseen)
    rng.shuffle(rest)
    for s, t in zip(free, rest):
        slots[s] = t
    yard_rest = rest[len(free) :]
    assert len(yard_rest) == know.yard_size, "the slot structure does not add up"
    initial = {j: [slots[("init", j, k)] for k in range(know.hand_sizes[j])] for j in know.others}
    draw_tiles = {i: slots[("draw", i)] for i in know.other_draws}
    return know.build(initial, draw_tiles, yard_rest), know.key_of(initial, draw_tiles)  # type: ignore[arg-type]


def rejection_sample(know: Knowledge, rng: random.Random, count: int, budget: int) -> Optional[List[Key]]:
    """``count`` keys of worlds sampled uniformly over the consistent ones, or
    ``None`` when the acceptance is too low to get them within ``budget``
    proposals (judged on a pilot of a tenth of the budget)."""
    keys: List[Key] = []
    pilot = max(20, budget // 10)
    for tries in range(1, budget + 1):
        world, key = propose(know, rng)
        if consistent(know, world):
            keys.append(key)
            if len(keys) == count:
                return keys
        if tries == pilot and len(keys) * budget < count * pilot:
            return None
    return None


# ------------------------------------------------------------------ brute force


def reason_kind(why: str) -> str:
    """The kind of an ``inconsistency`` reason: ``"illegal move"``, ``"over"``
    (the world's round is over), ``"double"`` (the set-up's fact), or the reason."""
    if why.startswith("move "):
        return "illegal move"
    if "is over" in why:
        return "over"
    if "double above" in why:
        return "double"
    return why


def enumerate_worlds(know: Knowledge, limit: int = 20000) -> Tuple[Dict[Key, WorldDeal], collections.Counter]:
    """Every consistent world up to the order of the yard beyond the drawn
    tiles and inside each seat's initial slots: one representative per
    ``Key`` (each key stands for the same number of worlds); and how many
    other candidates (worlds where each placed tile sat in a slot of its
    placer got before the placement) were rejected, by ``reason_kind``.
    Raises ``AssertionError`` past ``limit`` candidates (a position too big
    for brute force)."""
    free_draws = [i for i in know.other_draws if i not in know.fixed]
    placed_by = {j: [t for _, t in know.placed[j]] for j in know.others}
    worlds: Dict[Key, WorldDeal] = {}
    rejected: collections.Counter = collections.Counter()

    def draw_choices(i: int, used: set) -> List[Tile]:
        j = know.moves[i][0]
        later = [t for k, t in know.placed[j] if k > i and t not in know.fixed.values()]
        return [t for t in list(know.unseen) + later if t not in used]

    def assign_draws(n: int, draw_tiles: Dict[int, Tile]) -> Iterable[Dict[int, Tile]]:
        if n == len(free_draws):
            yield dict(draw_tiles)
            return
        i = free_draws[n]
        for t in draw_choices(i, set(draw_tiles.values())):
            draw_tiles[i] = t
            yield from assign_draws(n + 1, draw_tiles)
            del draw_tiles[i]

    for chosen in assign_draws(0, {}):
        draw_tiles = {**chosen, **{i: t for i, t in know.fixed.items() if know.moves[i][0] != know.seat}}
        in_draws = set(draw_tiles.values())
        # A placed tile not in one of its placer's Draw slots was in its initial slots.
        required = {j: [t for t in placed_by[j] if t not in in_draws] for j in know.others}
        pool = [t for t in know.unseen if t not in in_draws]
        for initial in _fill(know, required, pool, 0):
            assert len(worlds) + sum(rejected.values()) < limit, "the position is too big for brute force"
            taken = {t for h in initial.values() for t in h}
            world = know.build(initial, draw_tiles, [t for t in pool if t not in taken])
            why = inconsistency(know, world)
            if why is None:
                worlds[know.key_of(initial, draw_tiles)] = world
            else:
                rejected[reason_kind(why)] += 1
    return worlds, rejected


def _fill(
    know: Knowledge, required: Dict[int, List[Tile]], pool: List[Tile], n: int
) -> Iterable[Dict[int, List[Tile]]]:
    """Every way to complete the other seats' initial slots from ``pool``,
    from the ``n``-th other seat on."""
    if n == len(know.others):
        yield {}
        return
    j = know.others[n]
    room = know.hand_sizes[j] - len(required[j])
    if room < 0:
        return
    for extra in itertools.combinations(pool, room):
        left = [t for t in pool if t not in extra]
        for rest in _fill(know, required, left, n + 1):
            yield {j: required[j] + list(extra), **rest}


# ------------------------------------------------------------------ random positions

#: Every configuration of the information model: (game, options), sets 6 and 9, 2-4 players.
CONFIGS: List[Tuple[str, Dict[str, Any]]] = (
    [
        (game, {**options, "set": n, "players": p})
        for n in (6, 9)
        for p in (2, 3, 4)
        for game, options in [
            ("chickenfoot", {"rule_set": "trains"}),
            ("chickenfoot", {"rule_set": "cross"}),
            ("doubles", {}),
            ("block", {"lead": "winner"}),
            ("block", {"lead": "highest_double"}),
            ("mexican_train", {}),
            ("all_fives", {}),
            ("fives_and_threes", {"spinner": "first", "draw": "one"}),
        ]
    ]
    + [  # partnerships (docs/games/partnership.md P5): partners see each other's hands no more than opponents'
        ("block", {"teams": 2, "lead": "puerto_rico", "set": n, "players": 4}) for n in (6, 9)
    ]
    + [("block", {"teams": 2, "team_scoring": "fewer_pips", "set": 6, "players": 4})]
    + [("all_fives", {"teams": 2, "set": 6, "players": 4})]
)


def config_id(config: Tuple[str, Dict[str, Any]]) -> str:
    """A short test id for a configuration."""
    game, options = config
    extra = options.get("rule_set") or options.get("lead") or options.get("spinner") or ""
    extra += f"-teams{options['teams']}-{options.get('team_scoring', 'all_pips')}" if options.get("teams") else ""
    return f"{game}{'-' + extra if extra else ''}-d{options['set']}-p{options['players']}"


def random_game(dc: Any, config: Tuple[str, Dict[str, Any]], rng: random.Random) -> Any:
    """A round of ``config`` dealt from a random seed (a random round index)
    and played to its end by uniformly random legal moves."""
    game, options = config
    rules = dc.rules_from_dict({"game": game, **options})
    index = rng.randrange(rules.set + 1 if rules.rounds is not None else 4)
    round_ = dc.Round(rules, seed=rng.getrandbits(64), round_index=index)
    while not round_.is_over:
        round_.push(rng.choice(round_.legal_moves()))
    return round_


def positions(dc: Any, config: Tuple[str, Dict[str, Any]], rng: random.Random, count: int) -> List[Tuple[Any, int]]:
    """``count`` random positions of ``config`` before the end of a round,
    each with a random seat: a few per random game, at random move numbers."""
    found: List[Tuple[Any, int]] = []
    while len(found) < count:
        round_ = random_game(dc, config, rng)
        length = len(round_.move_stack)
        if length == 0:
            continue
        cuts = sorted({rng.randrange(length) for _ in range(min(4, count - len(found)))}, reverse=True)
        for cut in cuts:
            while len(round_.move_stack) > cut:
                round_.pop()
            found.append((round_.clone(), rng.randrange(round_.rules.players)))
    return found


# ------------------------------------------------------------------ statistics


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0 (the series below a + 1,
    Lentz's continued fraction above: Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_prefactor = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_prefactor) * h


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom."""
    return upper_gamma_regularized(df / 2, statistic / 2)


def uniform_chi2(observed: Dict[Key, int], support: Iterable[Key]) -> Tuple[float, int, float]:
    """Pearson's goodness of fit of ``observed`` counts to the uniform
    distribution over ``support``: (statistic, degrees of freedom, p-value).
    A key outside the support makes the p-value 0."""
    support = list(support)
    n = sum(observed.values())
    if any(k not in set(support) for k in observed):
        return math.inf, len(support) - 1, 0.0
    expected = n / len(support)
    statistic = sum((observed.get(k, 0) - expected) ** 2 / expected for k in support)
    df = len(support) - 1
    return statistic, df, (chi2_sf(statistic, df) if df > 0 else 1.0)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """The two-sided p-value of the pooled two-proportion z-test of k1/n1 against k2/n2."""
    pooled = (k1 + k2) / (n1 + n2)
    if pooled in (0.0, 1.0):
        return 1.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2))


# ------------------------------------------------------------------ inference (docs/information.md 5)


def oracle_log_weight(know: Knowledge, world: WorldDeal, policy: str, temperature: float = 1.0) -> Tuple[float, float]:
    """``(log L, log L - log B)`` of ``world`` as ``know.seat`` weighs it under
    the model ``policy`` (``"random"``, ``"softmax"`` or ``"learned"``),
    computed apart from both implementations' inference: the world's deal
    replayed through the oracle's engine, and at each other seat's move with
    a choice, the probability of the move among the distinct legal moves, a
    plain ratio of ``exp((score - best) / t)`` (no logarithmic form; the
    learned model's score is the network's logit, read from the reference's
    outputs); ``B`` bounds each Place's probability by one over the
    placements of its tile (the score models), or by 1 (the learned one)."""
    replay = _ENGINE.Round.from_deal(
        know.rules, world["hands"], world["yard"], world["centre"], world["starter"], know.round_index
    )
    log_l = log_excess = 0.0
    for mover, move in know.moves:
        if mover != know.seat:
            options = replay.legal_moves(distinct=True)
            if len(options) > 1:
                if policy == "random":
                    p = 1.0 / len(options)
                elif policy == "learned":
                    p = _learned_ratio(know.rules, replay, move, temperature)
                else:  # scores relative to the best, so that a low temperature cannot overflow
                    score = {m: know.rules.tile_score(m.tile) if m.kind == PLACE else 0 for m in options}
                    top = max(score.values())
                    weight = {m: math.exp((score[m] - top) / temperature) for m in options}
                    twin = next(m for m in options if m.kind == move.kind and m.tile == move.tile)
                    p = weight[twin] / sum(weight.values())
                same = sum(1 for m in options if move.kind == PLACE and m.kind == PLACE and m.tile == move.tile)
                if policy == "learned":
                    same = 1
                log_l += math.log(p)
                log_excess += math.log(p * max(same, 1))
        replay.push(move, player=mover)
    return log_l, log_excess


def _learned_ratio(rules: Any, position: Any, move: Any, temperature: float) -> float:
    """The learned model's probability of ``move`` in ``position`` (its seat
    to move), a plain ratio over the legal action ids of
    ``exp((logit - best) / (scale t))``."""
    net = reference_network_for(rules)  # the network's integers are the same in both engines
    outputs = net.outputs_of(position.observation_tensor(position.current_player))
    ids = position.legal_actions()
    best = max(int(outputs[a]) for a in ids)
    weight = {a: math.exp((int(outputs[a]) - best) / (net.logit_scale * temperature)) for a in ids}
    return weight[position.move_to_action(move)] / sum(weight.values())


def weighted_chi2(observed: Dict[Key, int], probability: Dict[Key, float]) -> Tuple[float, int, float]:
    """Pearson's goodness of fit of ``observed`` counts to ``probability``
    (over the keys of ``probability``): (statistic, degrees of freedom,
    p-value). Keys expected below 5 times are pooled, in order of
    probability, into cells expected at least 5 times each (a last short
    pool joins the cell before it), so that every cell keeps the test's
    approximation. A key outside the support makes the p-value 0."""
    n = sum(observed.values())
    if any(k not in probability for k in observed):
        return math.inf, len(probability) - 1, 0.0
    cells: List[Tuple[float, int]] = []
    pooled_expected, pooled_observed = 0.0, 0
    for key, p in sorted(probability.items(), key=lambda item: item[1], reverse=True):
        pooled_expected += n * p
        pooled_observed += observed.get(key, 0)
        if pooled_expected >= 5:
            cells.append((pooled_expected, pooled_observed))
            pooled_expected, pooled_observed = 0.0, 0
    if pooled_expected > 0:
        if cells:
            e, o = cells.pop()
            cells.append((e + pooled_expected, o + pooled_observed))
        else:
            cells.append((pooled_expected, pooled_observed))
    statistic = sum((o - e) ** 2 / e for e, o in cells)
    df = len(cells) - 1
    return statistic, df, (chi2_sf(statistic, df) if df > 0 else 1.0)
