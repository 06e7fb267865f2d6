"""The OpenSpiel model of dominocore's games, apart from pyspiel itself
(docs/ecosystem.md 1): the game parameters and player ranges, the rules an
id and parameters make, the utility range and game length, the chance model
of the deal (a shuffle drawn tile by tile) and its inverse, the tensor
planes and the observation text. ``dominocore.openspiel`` builds the
pyspiel classes on it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from .common.errors import RulesError, StateError
from .common.information import history_bound
from .common.rules import Rules
from .common.tiles import Tile
from .games import GAMES

#: Every game's OpenSpiel parameters with their defaults (its rules class's ``openspiel_parameters``).
GAME_PARAMETERS: Dict[str, Dict[str, Any]] = {game_id: dict(cls.openspiel_parameters) for game_id, cls in GAMES.items()}

#: The seats each game allows (docs/rules.md, the table of games).
PLAYER_RANGE: Dict[str, Tuple[int, int]] = {game_id: cls.player_range for game_id, cls in GAMES.items()}

_LONG_NAMES = {game_id: f"dominocore {cls.title}" for game_id, cls in GAMES.items()}

_NOT_RULES = ("round_index", "implementation")


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a dominocore game id: ``dominocore_<id>``."""
    return f"dominocore_{game_id}"


#: The OpenSpiel short name of every game id.
SHORT_NAMES: Dict[str, str] = {game_id: short_name(game_id) for game_id in GAMES}


def rules_of(game_id: str, params: Dict[str, Any]) -> Rules:
    """The rules object that OpenSpiel parameters ``params`` (as in
    ``GAME_PARAMETERS[game_id]``; missing ones take their defaults) stand
    for, by the game's ``Rules.from_openspiel``: ``hand_size=0`` and
    ``trains=0`` mean the rules' defaults. Bad values raise the rules' own
    ``RulesError``."""
    if game_id not in GAME_PARAMETERS:
        raise RulesError(f"game must be one of {sorted(GAME_PARAMETERS)}, got {game_id!r}")
    options = dict(GAME_PARAMETERS[game_id])
    unknown = sorted(set(params) - set(options))
    if unknown:
        raise RulesError(f"unknown parameter(s) for {short_name(game_id)}: {', '.join(unknown)}")
    options.update(params)
    for name in _NOT_RULES:
        options.pop(name, None)
    return GAMES[game_id].from_openspiel(options)


def utility_range(rules: Rules) -> Tuple[float, float]:
    """``(min, max)`` bounds of ``rules.round_margins`` over every round of ``rules``.

    With S the most points a round can hold, every seat's together
    (``rules.most_round_points``: the scores of every tile of the set, 0-0
    at 50 under ``double_blank_50``, as each tile counts once at most; more
    in the games that score during play). Costs (Chicken Foot, Mexican Train): a seat
    holding S loses at most S, a seat with no points while the others hold
    S between them wins at most S/(p-1). Scores (Doubles, Block): only the
    winner scores, at most S, so a margin lies in [-S/(p-1), S]. With k
    teams, p becomes k: a seat's margin is its team's."""
    s = float(rules.most_round_points)
    k = rules.sides  # with teams, a team's margin against the other teams' mean
    if rules.points_are_costs:
        return -s, s / (k - 1)
    return -s / (k - 1), s


def max_game_length(rules: Rules) -> int:
    """The most moves (decision nodes) a round of ``rules`` can have: the
    history bound L = T + 2(T - p) + 2p(T + 1) of docs/information.md 3 (the
    proof is in docs/ecosystem.md)."""
    return history_bound(rules)


def _deck(rules: Rules, round_index: int) -> List[int]:
    # The tiles the shuffle orders (by index): every tile, but for the
    # round's double where it is out of the deal (`trains`, Mexican Train's engine).
    tiles = list(range(rules.tile_count))
    if rules.centre_out_of_deal:
        tiles.remove(Tile(rules.round_double(round_index), rules.round_double(round_index)).index)
    return tiles


def chance_nodes_per_deal(rules: Rules, round_index: int = 0) -> int:
    """The chance nodes of one deal: the shuffled tiles but the last (which
    is forced), plus the starter in ``trains``. A Doubles deal without a
    double is dealt again (docs/rules.md 3), each time as many more."""
    return len(_deck(rules, round_index)) - 1 + (1 if rules.searches_starter else 0)


def _starter_odds(rules: Rules, round_index: int) -> List[Tuple[int, float]]:
    # `trains`: the seats from k mod p take tiles in turn from a uniform
    # shuffle of all T tiles until the round's double: its position is
    # uniform over 0..T-1 and the starter is (k + position) mod p.
    t, p = rules.tile_count, rules.players
    counts = [0] * p
    for position in range(t):
        counts[(round_index + position) % p] += 1
    return [(seat, n / t) for seat, n in enumerate(counts) if n]


def deal_from_shuffle(rules: Rules, round_index: int, outcomes: Sequence[int]) -> Optional[Dict[str, Any]]:
    """The set-up of docs/rules.md played on the chance outcomes of one deal:
    ``outcomes`` is the starter (``trains`` only) and then the shuffled tiles
    by index, top first (``_deck``'s tiles, all of them). Returns the keyword
    arguments of ``Round.from_deal`` (hands, yard, centre, starter,
    round_index, setup_draws, highest_double), or ``None`` for a Doubles deal
    that holds no double (dealt again)."""
    p, h = rules.players, rules.hand_size
    outcomes = list(outcomes)
    starter = outcomes.pop(0) if rules.searches_starter else round_index % p
    hands = [outcomes[s * h : (s + 1) * h] for s in range(p)]
    yard = outcomes[p * h :]
    centre: Optional[int] = None
    draws: List[int] = []
    highest = False
    if rules.centre_out_of_deal:
        n = rules.round_double(round_index)
        centre = Tile(n, n).index
    elif rules.searches_yard:  # the cross: deal, then find the double
        n = rules.round_double(round_index)
        centre = Tile(n, n).index
        holders = [s for s in range(p) if centre in hands[s]]
        if holders:
            starter = holders[0]
            hands[starter].remove(centre)
        else:
            for i, tile in enumerate(yard):
                seat = (round_index + i) % p
                draws.append(tile)
                if tile == centre:
                    starter = seat
                    yard = yard[i + 1 :]
                    break
                hands[seat].append(tile)
    elif rules.leads_highest_double:
        doubles = [t for hand in hands for t in hand if Tile.from_index(t).is_double]
        highest = True
        if doubles:
            centre = max(doubles)  # index order follows the double's number
            starter = next(s for s in range(p) if centre in hands[s])
            hands[starter].remove(centre)
        elif rules.redeals_without_double:
            return None
    return {
        "hands": [sorted(hand) for hand in hands],
        "yard": yard,
        "centre": centre,
        "starter": starter,
        "round_index": round_index,
        "setup_draws": draws,
        "highest_double": highest,
    }


def shuffle_of_deal(round_: Any) -> List[int]:
    """Chance outcomes that ``deal_from_shuffle`` reads as ``round_``'s deal
    (the starter in ``trains``, then the shuffled tiles by index, hands in
    index order): the inverse of the set-up. ``StateError`` when no shuffle
    gives this deal (a hand-built deal whose hands are not ``hand_size``
    long, say)."""
    rules, record = round_.rules, round_.to_dict()
    deal = record["deal"]
    hands = [[Tile.parse(t).index for t in hand] for hand in deal["hands"]]
    yard = [Tile.parse(t).index for t in deal["yard"]]
    draws = [Tile.parse(t).index for t in deal["setup_draws"]]
    centre = None if deal["centre"] is None else Tile.parse(deal["centre"]).index
    starter, k, p = deal["starter"], record["round_index"], rules.players
    if draws:  # the cross's search: each tile back from its drawer's hand to the yard
        for i, tile in enumerate(draws[:-1]):
            hands[(k + i) % p].remove(tile)
        yard = draws + yard
    elif centre is not None and not rules.centre_out_of_deal:
        hands[starter] = sorted(hands[starter] + [centre])
    outcomes = ([starter] if rules.searches_starter else []) + [t for hand in hands for t in hand] + yard
    try:
        again = deal_from_shuffle(rules, k, outcomes)
    except (ValueError, IndexError):  # pragma: no cover - defensive
        again = None
    if again is None or again != _deal_arguments(rules, record):
        raise StateError("this deal cannot come from the set-up's shuffle (docs/rules.md 1.6)")
    return outcomes


def _deal_arguments(rules: Rules, record: Dict[str, Any]) -> Dict[str, Any]:
    deal = record["deal"]
    return {
        "hands": [sorted(Tile.parse(t).index for t in hand) for hand in deal["hands"]],
        "yard": [Tile.parse(t).index for t in deal["yard"]],
        "centre": None if deal["centre"] is None else Tile.parse(deal["centre"]).index,
        "starter": deal["starter"],
        "round_index": record["round_index"],
        "setup_draws": [Tile.parse(t).index for t in deal["setup_draws"]],
        "highest_double": deal["highest_double"],
    }


def information_state_planes(rules: Rules) -> List[Tuple[str, Tuple[int, ...]]]:
    """The named planes of ``information_state_tensor`` (docs/information.md
    3), in order, with their shapes: the round index in 31 bits, least
    significant first; the points are zeros while the round goes on; the
    match totals carried in only in the games that score during play; the
    moves are L blocks of p + 3 + T + 10."""
    t, p = rules.tile_count, rules.players
    carried: List[Tuple[str, Tuple[int, ...]]] = [("carried", (p,))] if rules.scores_in_play else []
    return [
        ("seat", (p,)),
        ("starter", (p,)),
        ("centre", (t + 1,)),
        ("highest_double", (1,)),
        ("round_index", (31,)),
        ("search_draws", (p,)),
        ("dealt_hand_sizes", (p,)),
        ("points", (p,)),
        *carried,
        ("own_dealt_hand", (t,)),
        ("own_search_draws", (t,)),
        ("moves", (history_bound(rules), p + 3 + t + 10)),
    ]


def observation_text(view: Any) -> str:
    """A one-line text of what a ``PlayerView`` observes now: the viewer, the
    seat to move, the own hand, the open ends (with their trains in Mexican
    Train), any obligation, the hand sizes, the yard, the markers, the own
    drawn tile and the result. It holds nothing the view does not."""
    ends = []
    for end, train in zip(view.open_ends, view.trains):
        number = "*" if end.number is None else str(end.number)
        ends.append(f"{end.id}:{number}" + ("" if train is None else f"/t{train}"))
    parts = [
        f"seat {view.seat}",
        f"to move {view.current_player}",
        "hand " + " ".join(str(t) for t in view.hand),
        "ends " + " ".join(ends),
    ]
    if view.pending_ends:
        parts.append(f"pending {view.obligation} " + " ".join(str(e) for e in view.pending_ends))
    parts.append("hands " + ",".join(str(n) for n in view.hand_sizes))
    parts.append(f"yard {view.yard_size}")
    if any(view.markers):
        parts.append("markers " + ",".join(str(s) for s, on in enumerate(view.markers) if on))
    if view.drawing:
        parts.append("drawing" + ("" if view.drawn_tile is None else f" {view.drawn_tile}"))
    if view.rules.scores_in_play:  # the points of play so far, and the match totals carried in
        parts.append("play " + ",".join(str(x) for x in view.play_points))
        if any(view.carried):
            parts.append("carried " + ",".join(str(x) for x in view.carried))
    if view.result is not None:
        reason, points = view.result[0], view.result[2]
        parts.append(f"over ({reason}): points " + ",".join(str(x) for x in points))
    return "; ".join(parts)


def _dealing_text(rules: Rules, seat: int, round_index: int) -> str:
    # What a seat knows while the deal is being shuffled: nothing yet.
    return f"r{round_index};s{seat};dealing"
