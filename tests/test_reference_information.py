"""Issue 19, items 6 and 7: the information state's public facts, and
determinizing hand-built Block deals (docs/information.md 3, 4).

Item 6 (the reference against the spec): the set-up's fact
``highest_double`` and the round index are public, so they are in the
information state string (``;H<0|1>`` between ``;t`` and ``;d``), in its
hash, and in the tensor (after the centre: 1 float for ``highest_double``,
then the round index in 31 bits, least significant first). The expectations
are written out by hand for small hand-built positions.

The dealt hand sizes (``;n``, after ``;d``) and a finished round's points
(``;e``, after the moves) are public too: in the tensor they follow the
search draws, p floats each.

Item 7 (both implementations): in Block nobody ever draws, so a round that
goes on is not blocked whatever the number of tiles out of play; a
hand-built deal with shorter hands leaves more of them than
``rules.reserve`` (which counts a dealt round's). The reference used to
apply the fifth condition of docs/information.md 4 only when the yard was
down to ``rules.reserve``, and sampled blocked worlds there (an
``AssertionError``).
"""

from __future__ import annotations

import collections
import importlib
import random
from typing import Any, Dict, List

import numpy as np
import pytest
from dominocore.common import information
from dominocore.common.checks import MAX_ROUND_INDEX
from dominocore.common.tiles import Tile, tiles_of_set
from information_helpers import (
    Knowledge,
    enumerate_worlds,
    inconsistency,
    oracle_engine,
    parse_deal,
    two_proportion_p,
    uniform_chi2,
)

#: The significance threshold of the statistical tests (as tests/test_information.py).
ALPHA = 1e-6


def _rest(taken: List[str]) -> List[str]:
    """Every tile of the double-6 set but ``taken``, in index order."""
    return [str(t) for t in tiles_of_set(6) if str(t) not in taken]


def _fnv1a_64(text: str) -> int:
    """docs/information.md 3, written out again: FNV-1a 64 of the UTF-8 bytes."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & (2**64 - 1)
    return h


def _nonzero(tensor: np.ndarray) -> Dict[int, float]:
    """The tensor's entries that are not 0, by offset."""
    return {int(i): float(tensor[i]) for i in np.flatnonzero(tensor)}


def _view(round_: Any, seat: int) -> dict:
    data = round_.view(seat).to_dict()
    data.pop("round_id")  # a token per Round object
    return data


# ------------------------------------------------------------------ item 6: the information state's public facts

#: A double-6 deal for 2 players: the centre 6-6 led by seat 0, then seat 1
#: plays 3-6 on end 0. No hand holds a double, so ``highest_double`` may be
#: true or false of it (Block and Doubles alike).
HANDS = [["0-6", "1-2"], ["3-6", "4-5"]]
CENTRE = "6-6"

#: The information-state tensor of double-6 with 2 players (T = 28, p = 2),
#: by offset: viewer 0-1, starter 2-3, centre 4-32 (6-6, index 27: 31),
#: highest_double 33, round index bits 34-64, search draws 65-66, dealt hand
#: sizes 67-68, points 69-70, own dealt hand 71-98, own search draws 99-126,
#: then move blocks of 2 + 3 + 28 + 10 = 43 entries, the first at 127 (mover
#: 127-128, kind 129-131, tile 132-159, end id 160-169).
CENTRE_6_6, HIGHEST, ROUND_BITS, SEARCH = 31, 33, 34, 65
DEALT, POINTS, OWN_HAND, OWN_SEARCH, FIRST_MOVE = 67, 69, 71, 99, 127


def _small(dc: Any, game: str, highest_double: bool, round_index: int = 0) -> Any:
    rules = dc.Block(set=6, players=2) if game == "block" else dc.Doubles(set=6, players=2)
    round_ = dc.Round.from_deal(
        rules, HANDS, _rest(sum(HANDS, []) + [CENTRE]), CENTRE, 0, round_index, highest_double=highest_double
    )
    round_.push("3-6@0")
    return round_


@pytest.mark.parametrize("game", ["block", "doubles"])
def test_the_information_state_shows_the_highest_double_fact(ref, game):
    """Two deals that differ only in ``highest_double``: their views differ,
    and so do their strings (``H1`` against ``H0``), hashes and tensors."""
    shown, hidden = _small(ref, game, True), _small(ref, game, False)
    expected = {
        (True, 0): "r0;s0;c6-6;t0;H1;d0,0;n2,2;h1-2,0-6;x;m1:3-6@0",
        (True, 1): "r0;s1;c6-6;t0;H1;d0,0;n2,2;h4-5,3-6;x;m1:3-6@0",
        (False, 0): "r0;s0;c6-6;t0;H0;d0,0;n2,2;h1-2,0-6;x;m1:3-6@0",
        (False, 1): "r0;s1;c6-6;t0;H0;d0,0;n2,2;h4-5,3-6;x;m1:3-6@0",
    }
    for seat in range(2):
        assert _view(shown, seat) != _view(hidden, seat)
        for fact, round_ in [(True, shown), (False, hidden)]:
            text = expected[(fact, seat)]
            assert round_.view(seat).highest_double is fact
            assert round_.information_state(seat) == text
            assert round_.information_state_hash(seat) == _fnv1a_64(text) == information.fnv1a_64(text)
        assert shown.information_state_hash(seat) != hidden.information_state_hash(seat)
        assert not np.array_equal(shown.information_state_tensor(seat), hidden.information_state_tensor(seat))


@pytest.mark.parametrize("game", ["block", "doubles"])
def test_the_tensor_holds_the_highest_double_fact_after_the_centre(ref, game):
    """Every entry of seat 0's tensor, by hand: viewer 0, starter 0, centre
    6-6, highest_double, dealt hand sizes 2 and 2, own hand 1-2 (index 4)
    and 0-6 (index 21), and the move block of seat 1's 3-6 (index 24) on end
    0 (no end bit)."""
    common = {
        0: 1.0,  # viewer 0
        2: 1.0,  # starter 0
        CENTRE_6_6: 1.0,
        DEALT: 2.0,  # seat 0 was dealt 2 tiles
        DEALT + 1: 2.0,  # seat 1 too
        OWN_HAND + 4: 1.0,  # own dealt hand: 1-2
        OWN_HAND + 21: 1.0,  # own dealt hand: 0-6
        FIRST_MOVE + 1: 1.0,  # mover 1
        FIRST_MOVE + 2: 1.0,  # kind: place
        FIRST_MOVE + 5 + 24: 1.0,  # tile 3-6
    }
    assert _nonzero(_small(ref, game, True).information_state_tensor(0)) == {**common, HIGHEST: 1.0}
    assert _nonzero(_small(ref, game, False).information_state_tensor(0)) == common


def test_the_information_state_shows_a_block_deal_without_doubles(ref):
    """Block's ``highest_double`` lead with no double dealt: no centre (index
    T = 28 of the centre plane), seat 1 leads, and the fact (nobody was dealt
    a double) is public. Tile indices: 0-1 is 1, 2-3 is 8, 0-4 is 10, 5-6 is 26."""
    hands = [["0-1", "5-6"], ["2-3", "0-4"]]
    rules = ref.Block(set=6, players=2, lead="highest_double")
    for fact, flag in [(True, "1"), (False, "0")]:
        round_ = ref.Round.from_deal(rules, hands, _rest(sum(hands, [])), None, 1, highest_double=fact)
        assert round_.information_state(0) == f"r0;s0;c-;t1;H{flag};d0,0;n2,2;h0-1,5-6;x;m"
        assert round_.information_state(1) == f"r0;s1;c-;t1;H{flag};d0,0;n2,2;h2-3,0-4;x;m"
        public = {2 + 1: 1.0, 4 + 28: 1.0, DEALT: 2.0, DEALT + 1: 2.0, **({HIGHEST: 1.0} if fact else {})}
        assert _nonzero(round_.information_state_tensor(0)) == {**public, 0: 1.0, OWN_HAND + 1: 1.0, OWN_HAND + 26: 1.0}
        assert _nonzero(round_.information_state_tensor(1)) == {**public, 1: 1.0, OWN_HAND + 8: 1.0, OWN_HAND + 10: 1.0}


def test_the_search_counts_follow_the_round_index(ref):
    """A cross deal with a search (tests/test_information.py's): seat 0 drew
    0-1 (index 1) and 6-6 (index 27), seat 1 drew 2-3. ``H0`` (no
    highest-double fact outside Doubles and Block), the counts 2 and 1 after
    the 31 round index bits, the dealt hand sizes 7 and 7 (8 tiles each after
    the set-up, less the search draws still in hand: 0-1 for seat 0, whose
    6-6 is the centre, and 2-3 for seat 1), then the own hand and the own
    search order."""
    hands = [
        ["0-0", "1-1", "0-2", "1-2", "2-2", "0-4", "1-4", "0-1"],
        ["0-3", "1-3", "3-3", "2-4", "3-4", "4-4", "0-5", "2-3"],
    ]
    rules = ref.ChickenFoot(rule_set="cross", set=6, players=2, hand_size=7)
    round_ = ref.Round.from_deal(rules, hands, _rest(sum(hands, []) + ["6-6"]), "6-6", 0, 0, ["0-1", "2-3", "6-6"])
    assert round_.information_state(0) == "r0;s0;c6-6;t0;H0;d2,1;n7,7;h0-0,1-1,0-2,1-2,2-2,0-4,1-4;x0-1,6-6;m"
    dealt = {OWN_HAND + i: 1.0 for i in (0, 2, 3, 4, 5, 10, 11)}  # 0-0 1-1 0-2 1-2 2-2 0-4 1-4
    assert _nonzero(round_.information_state_tensor(0)) == {
        0: 1.0,  # viewer 0
        2: 1.0,  # starter 0
        CENTRE_6_6: 1.0,
        SEARCH: 2.0,
        SEARCH + 1: 1.0,
        DEALT: 7.0,
        DEALT + 1: 7.0,
        **dealt,
        OWN_SEARCH + 1: 1.0,  # 0-1, drawn first
        OWN_SEARCH + 27: 2.0,  # 6-6, drawn second
    }


def test_the_round_index_is_in_the_string_and_the_tensor(ref):
    """Doubles round 0 and round 5 of the same deal: the strings differ in
    ``r``, the tensors in the round index bits only (5 = bits 0 and 2); the
    largest round index sets all 31 bits."""
    rounds = {index: _small(ref, "doubles", True, index) for index in (0, 5, MAX_ROUND_INDEX)}
    assert rounds[0].information_state(1) == "r0;s1;c6-6;t0;H1;d0,0;n2,2;h4-5,3-6;x;m1:3-6@0"
    assert rounds[5].information_state(1) == "r5;s1;c6-6;t0;H1;d0,0;n2,2;h4-5,3-6;x;m1:3-6@0"
    assert rounds[MAX_ROUND_INDEX].information_state(1) == "r2147483647;s1;c6-6;t0;H1;d0,0;n2,2;h4-5,3-6;x;m1:3-6@0"
    for seat in range(2):
        zero = _nonzero(rounds[0].information_state_tensor(seat))
        assert not any(ROUND_BITS <= k < ROUND_BITS + 31 for k in zero)
        assert _nonzero(rounds[5].information_state_tensor(seat)) == {**zero, ROUND_BITS: 1.0, ROUND_BITS + 2: 1.0}
        every_bit = {ROUND_BITS + b: 1.0 for b in range(31)}
        assert _nonzero(rounds[MAX_ROUND_INDEX].information_state_tensor(seat)) == {**zero, **every_bit}


def test_the_dealt_hand_sizes_of_a_hand_built_short_deal(ref):
    """A Block deal with short, unequal hands (seat 0: 0-1 and 5-6; seat 1:
    2-3 alone): ``n2,1`` in both seats' strings, and 2, 1 in the dealt hand
    sizes block. Tile indices: 0-1 is 1, 5-6 is 26, 2-3 is 8; no centre (28)."""
    hands = [["0-1", "5-6"], ["2-3"]]
    round_ = ref.Round.from_deal(ref.Block(set=6, players=2), hands, _rest(sum(hands, [])), None, 0)
    assert round_.information_state(0) == "r0;s0;c-;t0;H0;d0,0;n2,1;h0-1,5-6;x;m"
    assert round_.information_state(1) == "r0;s1;c-;t0;H0;d0,0;n2,1;h2-3;x;m"
    public = {2: 1.0, 4 + 28: 1.0, DEALT: 2.0, DEALT + 1: 1.0}  # starter 0, no centre
    assert _nonzero(round_.information_state_tensor(0)) == {**public, 0: 1.0, OWN_HAND + 1: 1.0, OWN_HAND + 26: 1.0}
    assert _nonzero(round_.information_state_tensor(1)) == {**public, 1: 1.0, OWN_HAND + 8: 1.0}
    # the same deal with the hands swapped differs in n only among the public facts
    swapped = ref.Round.from_deal(ref.Block(set=6, players=2), hands[::-1], _rest(sum(hands, [])), None, 0)
    assert swapped.information_state(0) == "r0;s0;c-;t0;H0;d0,0;n1,2;h2-3;x;m"


def test_the_points_of_a_finished_round(ref):
    """Block, seat 0 dealt 0-1 alone, seat 1 2-3 and 4-5: seat 0 leads 0-1
    and goes out, scoring the pips left in the other hand (2+3+4+5 = 14), so
    ``;e14,0`` ends both strings and 14, 0 fill the points block; undoing the
    move takes it away again (absent while the round goes on)."""
    hands = [["0-1"], ["2-3", "4-5"]]
    round_ = ref.Round.from_deal(ref.Block(set=6, players=2), hands, _rest(sum(hands, [])), None, 0)
    before = {seat: (round_.information_state(seat), round_.information_state_tensor(seat)) for seat in range(2)}
    assert before[1][0] == "r0;s1;c-;t0;H0;d0,0;n1,2;h2-3,4-5;x;m"
    round_.push("0-1@0")
    assert round_.result.points == (14, 0)
    assert round_.information_state(0) == "r0;s0;c-;t0;H0;d0,0;n1,2;h0-1;x;m0:0-1@0;e14,0"
    text = "r0;s1;c-;t0;H0;d0,0;n1,2;h2-3,4-5;x;m0:0-1@0;e14,0"
    assert round_.information_state(1) == text
    assert round_.information_state_hash(1) == _fnv1a_64(text)
    assert _nonzero(round_.information_state_tensor(1)) == {
        1: 1.0,  # viewer 1
        2: 1.0,  # starter 0
        4 + 28: 1.0,  # no centre
        DEALT: 1.0,
        DEALT + 1: 2.0,
        POINTS: 14.0,  # seat 0's points; seat 1's are 0
        OWN_HAND + 8: 1.0,  # 2-3
        OWN_HAND + 19: 1.0,  # 4-5
        FIRST_MOVE: 1.0,  # mover 0
        FIRST_MOVE + 2: 1.0,  # kind: place
        FIRST_MOVE + 5 + 1: 1.0,  # tile 0-1, end 0 (no end bit)
    }
    round_.pop()
    for seat in range(2):
        assert round_.information_state(seat) == before[seat][0]
        assert np.array_equal(round_.information_state_tensor(seat), before[seat][1])


def test_the_tensor_size(ref):
    """docs/information.md 3's size: 5p + (T + 1) + 2T + 32 + L * (p + T +
    13), with L = T + 2(T - p) + 2p(T + 1)."""
    assert information.ROUND_INDEX_BITS == 31
    assert MAX_ROUND_INDEX < 2**information.ROUND_INDEX_BITS
    # double-6, 2 players: 10 + 29 + 56 + 32 + 196 * 43
    assert information.information_state_tensor_size(ref.Block(set=6, players=2)) == 8555
    assert _small(ref, "doubles", True).information_state_tensor_shape == (8555,)
    assert _small(ref, "block", True).information_state_tensor(1).shape == (8555,)
    # double-9, 4 players (T = 55, L = 55 + 102 + 448 = 605): 20 + 56 + 110 + 32 + 605 * 72
    assert information.information_state_tensor_size(ref.ChickenFoot(set=9, players=4)) == 43778


# ------------------------------------------------------------------ item 7: hand-built Block deals


def _block_position(dc: Any, case: Dict[str, Any]) -> Any:
    """The case's round: a hand-built Block deal on double-6 (the tiles not in
    a hand or the centre out of play, in index order), then its moves."""
    rules = dc.Block(set=6, players=len(case["hands"]), lead=case["lead"])
    hands = [h.split() for h in case["hands"]]
    taken = sum(hands, []) + ([case["centre"]] if case["centre"] else [])
    round_ = dc.Round.from_deal(
        rules, hands, _rest(taken), case["centre"], case["starter"], highest_double=case["highest_double"]
    )
    for move in case["moves"].split():
        round_.push(move)
    assert round_.yard_size > rules.reserve and not round_.is_over
    return round_


#: Positions where the old reference sampled a blocked world about half the
#: time (its ``AssertionError``). ``support``: with 2 players, the other
#: seat's possible hands (one a string), counted by hand.
BLOCK_CASES: Dict[str, Dict[str, Any]] = {
    # 22 tiles out of play, reserve 14. The open ends are 0 (end 1) and 4
    # (end 5); seat 0 holds 3-6, so for the round to go on seat 1's last tile
    # has a 0 or a 4: one of these 11 (0-1 and 2-4 are seen). The old
    # reference drew it from all 23 unseen tiles.
    "two players, one tile left": dict(
        hands=["0-1 2-2 3-6", "1-2 2-4 4-4"],
        lead="winner",
        centre=None,
        starter=0,
        highest_double=False,
        moves="0-1@0 1-2@2 2-2@3 2-4@4",
        seat=0,
        support=["0-0", "0-2", "0-3", "0-4", "0-5", "0-6", "1-4", "3-4", "4-4", "4-5", "4-6"],
    ),
    # The same after seat 0's pass (its own: it constrains no other hand).
    "two players, after the seat's pass": dict(
        hands=["0-1 2-2 3-6", "1-2 2-4 4-4"],
        lead="winner",
        centre=None,
        starter=0,
        highest_double=False,
        moves="0-1@0 1-2@2 2-2@3 2-4@4 pass",
        seat=0,
        support=["0-0", "0-2", "0-3", "0-4", "0-5", "0-6", "1-4", "3-4", "4-4", "4-5", "4-6"],
    ),
    # 3 players, 5-5 led by seat 0 as the highest double dealt (so no hand
    # holds 6-6), 21 tiles out of play against a reserve of 13 (hand size 5).
    # Seat 1's pass shows it held no 5 then; seat 0's own pass shows seat 0
    # nothing. 225 worlds (brute force).
    "three players, highest double": dict(
        hands=["0-2 2-6", "0-1 3-4", "0-5 3-5"],
        lead="highest_double",
        centre="5-5",
        starter=0,
        highest_double=True,
        moves="pass 3-5@1 pass 3-4@2",
        seat=0,
        support=None,
    ),
}


def _world_keys(know: Knowledge, sample, seeds: List[int], original: Any) -> List[Any]:
    """The keys of the worlds ``sample`` draws from ``seeds``, each checked:
    consistent (the oracle) and showing the seat exactly what the original does."""
    seat = know.seat
    keys = []
    for seed in seeds:
        world = sample(seed)
        why = inconsistency(know, parse_deal(world._deal_dict()))
        assert why is None, f"seed {seed}: {why}"
        assert world.move_stack == original.move_stack and not world.is_over
        assert _view(world, seat) == _view(original, seat), seed
        assert world.information_state(seat) == original.information_state(seat)
        assert np.array_equal(world.information_state_tensor(seat), original.information_state_tensor(seat))
        assert np.array_equal(world.observation_tensor(seat), original.observation_tensor(seat))
        keys.append(know.key_of_world(world))
    return keys


@pytest.mark.parametrize("name", list(BLOCK_CASES))
def test_hand_built_block_deals_are_determinized_uniformly(dc, name):
    """300 worlds of each position: no error, each consistent and looking the
    same to the seat, uniform over every consistent world (enumerated by
    brute force; where known by hand, exactly the hand-computed ones)."""
    case = BLOCK_CASES[name]
    round_, seat = _block_position(dc, case), case["seat"]
    know = Knowledge(round_, seat)
    worlds, _ = enumerate_worlds(know)
    if case["support"] is not None:  # 2 players: the other seat's hands, by hand
        by_hand = {((tuple(sorted(Tile.parse(t).index for t in hand.split())),), ()) for hand in case["support"]}
        assert set(worlds) == by_hand
    sampler = round_.determinizer(seat)
    keys = _world_keys(know, sampler.sample, list(range(300)), round_)
    assert set(keys) <= set(worlds)
    statistic, df, p = uniform_chi2(collections.Counter(keys), worlds)
    assert p > ALPHA, f"{len(worlds)} worlds: chi-square {statistic:.1f} on {df} df, p={p:.3g}"


def _both() -> Dict[str, Any]:
    """The reference and the core, if the core is built and selected
    (``DOMINOCORE_TEST_IMPLEMENTATIONS``); else the test is skipped."""
    from conftest import IMPLEMENTATIONS, _selected

    if "cpp" not in _selected() or "python" not in _selected():
        pytest.skip("needs both implementations")
    engine = oracle_engine()
    if engine.IMPLEMENTATION != "cpp":  # pragma: no cover - only without a build
        pytest.skip("the core is not built")
    return {name: importlib.import_module(IMPLEMENTATIONS[name]) for name in ("python", "cpp")}


@pytest.mark.parametrize("name", list(BLOCK_CASES))
def test_hand_built_block_deals_have_the_same_worlds_in_both(name):
    """The world distribution of the reference against the core's: P(tile t
    in seat j's hand) from 300 worlds each, a two-proportion z-test per
    (seat, tile), Bonferroni-corrected."""
    case = BLOCK_CASES[name]
    seat, samples = case["seat"], 300
    counts = {}
    for label, dc in _both().items():
        round_ = _block_position(dc, case)
        know = Knowledge(round_, seat)
        rng = random.Random(f"{name} {label}")
        seeds = [rng.getrandbits(64) for _ in range(samples)]
        keys = _world_keys(know, round_.determinizer(seat).sample, seeds, round_)
        counts[label] = [collections.Counter(t for hands, _ in keys for t in hands[c]) for c in range(len(know.others))]
    cells, worst = 0, (1.0, "")
    for column, j in enumerate(know.others):
        for tile in know.unseen:
            cells += 1
            ours, theirs = counts["python"][column][tile.index], counts["cpp"][column][tile.index]
            p = two_proportion_p(ours, samples, theirs, samples)
            worst = min(worst, (p, f"seat {j} tile {tile}: {ours} against {theirs}"))
    assert worst[0] * cells > ALPHA, worst[1]


def _shortened_block_rounds(dc: Any, rng: random.Random) -> List[Any]:
    """Hand-built Block rounds on double-6 (2 to 4 players, both leads) whose
    hands hold 2 to 4 tiles, so more tiles are out of play than
    ``rules.reserve``, played to the end by random legal moves."""
    found = []
    for players in (2, 3, 4):
        for lead in ("winner", "highest_double"):
            rules = dc.Block(set=6, players=players, lead=lead)
            while True:
                tiles = list(tiles_of_set(6))
                rng.shuffle(tiles)
                size = rng.randint(2, 4)
                hands = [tiles[s * size : (s + 1) * size] for s in range(players)]
                doubles = sorted((t for h in hands for t in h if t.is_double), key=lambda t: t.index)
                if lead == "winner" or not doubles:  # no double: no centre, the fact still holds
                    centre = None
                else:  # the highest double dealt, led by its holder
                    centre = doubles[-1]
                    holder = next(s for s, h in enumerate(hands) if centre in h)
                    hands[holder].remove(centre)
                rest = [t for t in tiles if t != centre and not any(t in h for h in hands)]
                starter = holder if centre is not None else rng.randrange(players)
                round_ = dc.Round.from_deal(
                    rules, hands, rest, centre, starter, highest_double=lead == "highest_double"
                )
                if not round_.is_over:
                    break
            assert round_.yard_size > rules.reserve
            while not round_.is_over:
                round_.push(rng.choice(round_.legal_moves()))
            found.append(round_)
    return found


def test_every_position_of_hand_built_block_deals_is_determinized(dc):
    """Every position and seat of hand-built Block rounds with more tiles out
    of play than the reserve: 10 worlds each, no error, each consistent and
    looking the same to the seat (the old reference raised an
    ``AssertionError`` on about one of these positions in ten)."""
    rng = random.Random(f"hand-built block {dc.IMPLEMENTATION}")
    positions = 0
    for played in _shortened_block_rounds(dc, rng):
        round_ = played.clone()
        while round_.move_stack:
            round_.pop()
            for seat in range(round_.rules.players):
                positions += 1
                sampler = round_.determinizer(seat)
                seeds = [rng.getrandbits(64) for _ in range(10)]
                _world_keys(Knowledge(round_, seat), sampler.sample, seeds, round_)
    assert positions >= 30


def test_a_determinizer_refuses_a_finished_round_and_a_bad_seat(ref):
    """The reference's ``Determinizer`` built directly checks what
    ``round.determinizer`` does: no ``AssertionError`` from a finished round."""
    from dominocore.reference.determinize import Determinizer

    round_ = ref.Round(ref.ChickenFoot(set=6, players=2), seed=3)
    rng = random.Random(3)
    while not round_.is_over:
        round_.push(rng.choice(round_.legal_moves()))
    with pytest.raises(ref.StateError, match="the round is over"):
        Determinizer(round_, 0)
    round_.pop()
    with pytest.raises(ref.RulesError, match="seat"):
        Determinizer(round_, 2)
    assert Determinizer(round_, 1).sample(0).move_stack == round_.move_stack
