"""The games OpenSpiel also ships, played against OpenSpiel's own: Block
against ``python_block_dominoes`` (docs/games/block.md B7).

For 2 players on double-6 with the defaults, one round of ``block`` is
OpenSpiel's game: the same legal placements by (tile, number), the same
leader (seat 0) and the same outcome. This test plays seeded random games in
OpenSpiel, deals the same hands to dominocore (``Round.from_deal``) and
replays every move there, comparing after every move the legal placements as
sets of (tile, number), who is to move, and at the end the returns:
OpenSpiel's zero-sum return of a seat is its round score here minus its
opponent's. OpenSpiel skips a seat that cannot place; dominocore makes it
``Pass`` first.

``open_spiel`` is an optional test dependency (``pip install open_spiel``);
without it the test is skipped. ``DOMINOCORE_OPENSPIEL_GAMES`` sets the
number of games (default 1,000; 20,000 under ``--large``).
"""

from __future__ import annotations

import functools
import random

import pytest
from helpers import scaled

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is an optional test dependency (pip install open_spiel) for the Block comparison"
)
block_dominoes = pytest.importorskip(
    "open_spiel.python.games.block_dominoes", reason="this open_spiel has no python_block_dominoes"
)

GAMES = scaled(1000, 20000, "DOMINOCORE_OPENSPIEL_GAMES")
HAND = 7


def os_tile(tile):
    """OpenSpiel's tile: a sorted pair of floats."""
    return (float(tile[0]), float(tile[1]))


def os_key(action):
    """An OpenSpiel action as (tile "a-b", number): None for the lead."""
    a = block_dominoes._ACTIONS[action]
    low, high = (int(x) for x in a.tile)
    return (f"{low}-{high}", None if a.edge is None else int(a.edge))


def our_keys(r):
    """Our legal placements as (tile "a-b", number of the end): None for the lead end."""
    numbers = {e.id: e.number for e in r.open_ends}
    return {(str(m.tile), numbers[m.end]) for m in r.legal_moves() if m.is_place}


MASK = (1 << 64) - 1


class SplitMix64:
    """docs/rules.md 1.6, written out here so that the OpenSpiel side needs
    nothing from dominocore."""

    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        t = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= t:
                return x % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def test_local_generator_matches_the_rule_book():
    g = SplitMix64(0)
    assert [g.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    items = list(range(28))
    SplitMix64(7).shuffle(items)
    assert items == [
        int(x) for x in "17 6 26 13 20 19 2 27 21 11 16 7 18 15 4 14 8 1 9 5 25 12 0 10 3 22 24 23".split()
    ]


def tile_of(index):
    """Tile index (docs/rules.md 1.1) -> (low, high)."""
    high = 0
    while (high + 1) * (high + 2) // 2 <= index:
        high += 1
    return (index - high * (high + 1) // 2, high)


def deal_of(seed):
    """A 2-player double-6 deal (B1): one SplitMix64 shuffle of the indices; hands
    at positions 0..6 and 7..13; the rest out of play in deck order."""
    deck = list(range(28))
    SplitMix64(seed).shuffle(deck)
    tiles = [tile_of(i) for i in deck]
    return [tiles[:HAND], tiles[HAND : 2 * HAND]], tiles[2 * HAND :]


def text(tile):
    return f"{tile[0]}-{tile[1]}"


@functools.lru_cache(maxsize=None)
def openspiel_games(count):
    """Play ``count`` seeded random games in OpenSpiel alone: for each, the deal,
    every decision (player, legal keys, chosen key) and the returns."""
    game = pyspiel.load_game("python_block_dominoes")
    games = []
    for seed in range(count):
        hands, yard = deal_of(seed)
        state = game.new_initial_state()
        for tile in hands[0] + hands[1]:  # hand 0 takes the first 7 chance outcomes
            assert state.is_chance_node()
            state.apply_action(block_dominoes._DECK.index(os_tile(tile)))
        rng = random.Random(seed)
        steps = []
        while not state.is_terminal():
            player = state.current_player()
            actions = state.legal_actions()
            keys = {os_key(a): a for a in actions}
            assert len(keys) == len(actions)
            chosen = sorted(keys)[rng.randrange(len(keys))]
            steps.append((player, frozenset(keys), chosen))
            state.apply_action(keys[chosen])
        games.append((seed, hands, yard, steps, tuple(int(x) for x in state.returns())))
    return games


def test_block_matches_openspiel(dc):
    rules = dc.Block(players=2)
    assert rules.hand_size == HAND
    blocked = passes = outs = 0
    for seed, hands, yard, steps, returns in openspiel_games(GAMES):
        r = dc.Round.from_deal(
            rules, hands=[[text(t) for t in h] for h in hands], yard=[text(t) for t in yard], centre=None, starter=0
        )
        assert r.current_player == 0  # B7: the same leader
        for i, (player, keys, chosen) in enumerate(steps):
            where = f"seed {seed}, decision {i}, moves {[str(m) for m in r.move_stack]}"
            assert not r.is_over, where
            if r.current_player != player:
                # OpenSpiel skipped our seat: it must have nothing but Pass.
                assert [str(m) for m in r.legal_moves()] == ["pass"], where
                r.push("pass")
                passes += 1
            assert r.current_player == player, where
            assert our_keys(r) == set(keys), where
            tile, number = chosen
            move = next(
                m
                for m in r.legal_moves(distinct=True)
                if m.is_place and str(m.tile) == tile and {e.id: e.number for e in r.open_ends}[m.end] == number
            )
            r.push(move)
        # OpenSpiel is terminal. A seat that cannot place may still be to move
        # here only if the round is over: never a pending Pass at the end.
        assert r.is_over, f"seed {seed}: OpenSpiel ended, dominocore goes on with {r.current_player} to move"
        res = r.result
        if res.reason == "blocked":
            blocked += 1
        else:
            outs += 1
        points = tuple(res.points)
        assert (points[0] - points[1], points[1] - points[0]) == returns, f"seed {seed}: {res}"
    # The sample covers both endings and skipped seats.
    assert blocked > 0 and outs > 0 and passes > 0


# ------------------------------------------------ OpenSpiel's python_team_dominoes (docs/games/partnership.md P6)

TEAM_GAMES = scaled(1000, 20000, "DOMINOCORE_OPENSPIEL_GAMES")


def team_module():
    return pytest.importorskip(
        "open_spiel.python.games.team_dominoes", reason="this open_spiel has no python_team_dominoes"
    )


def team_key(module, action):
    """A team_dominoes action as (tile "a-b", number): None for the lead."""
    a = module._ACTIONS[action]
    low, high = (int(x) for x in a.tile)
    return (f"{low}-{high}", None if a.edge is None else int(a.edge))


@functools.lru_cache(maxsize=None)
def openspiel_team_games(count):
    """``count`` seeded random games of python_team_dominoes: the hands, every
    decision (player, legal keys, chosen key) and the returns. Hands come from
    our shuffle (SplitMix64, seat s takes positions s*7..s*7+6); OpenSpiel
    deals tile by tile to seats 0, 1, 2, 3 in turn, so the chance outcomes
    are fed in that order."""
    module = team_module()
    game = pyspiel.load_game("python_team_dominoes")
    games = []
    for seed in range(count):
        deck = list(range(28))
        SplitMix64(seed).shuffle(deck)
        hands = [[tile_of(i) for i in deck[s * HAND : (s + 1) * HAND]] for s in range(4)]
        state = game.new_initial_state()
        for k in range(HAND):
            for seat in range(4):
                assert state.is_chance_node()
                state.apply_action(module._DECK.index(os_tile(hands[seat][k])))
        rng = random.Random(seed)
        steps = []
        while not state.is_terminal():
            player = state.current_player()
            actions = state.legal_actions()
            keys = {team_key(module, a): a for a in actions}
            assert len(keys) == len(actions)
            chosen = sorted(keys)[rng.randrange(len(keys))]
            steps.append((player, frozenset(keys), chosen))
            state.apply_action(keys[chosen])
        games.append((seed, hands, steps, tuple(int(x) for x in state.returns())))
    return games


def test_team_block_matches_openspiel_team_dominoes(dc):
    """P6: Block(players=4, set=6, hand_size=7, teams=2, team_scoring="fewer_pips")
    is python_team_dominoes: the same seat to move (ours passes where
    OpenSpiel skips), the same legal placements by (tile, number) after every
    move, and returns equal to the team margins."""
    rules = dc.Block(players=4, set=6, hand_size=7, teams=2, team_scoring="fewer_pips")
    endings = {"out": 0, "blocked": 0, "tie": 0, "out_but_lost": 0}
    passes = 0
    for seed, hands, steps, returns in openspiel_team_games(TEAM_GAMES):
        r = dc.Round.from_deal(rules, hands=[[text(t) for t in h] for h in hands], yard=[], centre=None, starter=0)
        for i, (player, keys, chosen) in enumerate(steps):
            where = f"seed {seed}, decision {i}, moves {[str(m) for m in r.move_stack]}"
            while not r.is_over and r.current_player != player:
                assert [str(m) for m in r.legal_moves()] == ["pass"], where  # a seat OpenSpiel skipped
                r.push("pass")
                passes += 1
            assert r.current_player == player, where
            assert our_keys(r) == set(keys), where
            tile, number = chosen
            numbers = {e.id: e.number for e in r.open_ends}
            r.push(
                next(
                    m
                    for m in r.legal_moves(distinct=True)
                    if m.is_place and str(m.tile) == tile and numbers[m.end] == number
                )
            )
        assert r.is_over, f"seed {seed}: OpenSpiel ended, dominocore goes on"
        res = r.result
        margins = tuple(int(x) for x in rules.round_margins(res.points))
        assert margins == returns, f"seed {seed}: {res}, OpenSpiel {returns}"
        endings[res.reason] += 1
        if returns == (0, 0, 0, 0):
            endings["tie"] += 1
        elif res.reason == "out" and returns[res.out_seat] < 0:
            endings["out_but_lost"] += 1  # P3: going out does not by itself win under fewer_pips
    # the sample covers every ending the rules distinguish, and skipped seats
    assert min(endings.values()) > 0 and passes > 0, (endings, passes)
