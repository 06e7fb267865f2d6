"""Partnership Block against the ``dominoes`` package (PyPI ``dominoes`` 6.1,
Puerto Rico rules; docs/games/partnership.md P6).

``Block(players=4, set=6, hand_size=7, teams=2, target=200,
lead="puerto_rico")`` is the package's game and series. Each comparison
deals the package the hands of a dominocore match (the package shuffles with
Python's ``random``, so its hand maker is replaced by one that returns ours),
plays seeded random common moves in both, and checks after every move the
seat to move, the valid moves as sets of (tile, number of the end), the
passes, the ``Result`` of every game, every game's starter, and the series
scores to 200.

``dominoes`` is an optional test dependency (in the ``test`` extra); without
it the tests are skipped. ``DOMINOCORE_DOMINOES_SERIES`` sets the number of
series (default 40; 400 under ``--large``).
"""

from __future__ import annotations

import random

import pytest
from helpers import scaled

dominoes = pytest.importorskip("dominoes", reason="the dominoes package is an optional test dependency")

SERIES = scaled(40, 400, "DOMINOCORE_DOMINOES_SERIES")
TARGET = 200


def package_hands(round_):
    """The package's hands for ``round_``'s deal (the set-up's led double back in its holder's hand)."""
    deal = round_.to_dict()["deal"]
    hands = [list(hand) for hand in deal["hands"]]
    if deal["centre"] is not None:
        hands[deal["starter"]].append(deal["centre"])
    return [dominoes.Hand([dominoes.Domino(*map(int, t.split("-"))) for t in hand]) for hand in hands]


def package_keys(game):
    """The package's valid moves as (tile "a-b", number of the end taken)."""
    if not game.board:
        return {(f"{min(d.first, d.second)}-{max(d.first, d.second)}", None) for d, _ in game.valid_moves}
    ends = {True: game.board.left_end(), False: game.board.right_end()}
    return {(f"{min(d.first, d.second)}-{max(d.first, d.second)}", ends[left]) for d, left in game.valid_moves}


def our_keys(r):
    numbers = {e.id: e.number for e in r.open_ends}
    return {(str(m.tile), numbers[m.end]) for m in r.legal_moves() if m.is_place}


def play_game(r, game, rng, where):
    """Play one game in both with the same random choices; return the number of passes."""
    passes = 0
    while game.result is None:
        while r.current_player != game.turn:
            assert [str(m) for m in r.legal_moves()] == ["pass"], where  # the package records a pass (None)
            r.push("pass")
            passes += 1
        assert our_keys(r) == package_keys(game), f"{where}, moves {[str(m) for m in r.move_stack]}"
        d, left = sorted(game.valid_moves, key=lambda move: (str(move[0]), move[1]))[
            rng.randrange(len(game.valid_moves))
        ]
        number = None if not game.board else (game.board.left_end() if left else game.board.right_end())
        tile = f"{min(d.first, d.second)}-{max(d.first, d.second)}"
        numbers = {e.id: e.number for e in r.open_ends}
        r.push(next(m for m in r.legal_moves() if m.is_place and str(m.tile) == tile and numbers[m.end] == number))
        game.make_move(d, left)
    assert r.is_over, where
    return passes


def package_points(rules, result):
    """Our round points as the package's ``Result.points``: + for team {0, 2}, - for {1, 3}."""
    return result.points[0] - result.points[1]


def test_series_match_the_dominoes_package(dc, monkeypatch):
    rules = dc.Block(players=4, set=6, hand_size=7, teams=2, target=TARGET, lead="puerto_rico")
    seen = {"out": 0, "blocked": 0, "tie": 0, "blocker_lost": 0, "games": 0, "passes": 0}
    deals = []  # the hands the package deals next: ours
    monkeypatch.setattr(dominoes.game, "_randomized_hands", lambda: deals.pop(0))
    for seed in range(SERIES):
        match = dc.Match(rules, seed=seed)
        r = match.new_round()
        deals.append(package_hands(r))
        series = dominoes.Series(target_score=TARGET, starting_domino=dominoes.Domino(6, 6))
        rng = random.Random(seed)
        k = 0
        while True:
            game = series.games[-1]
            where = f"seed {seed}, game {k}"
            # the package played the 6-6 for its holder in the first game, as our set-up does
            assert game.starting_player == r.starter, where
            if k == 0:
                assert str(r.centre) == "6-6" and r.to_dict()["deal"]["highest_double"], where
            seen["passes"] += play_game(r, game, rng, where)
            assert package_points(rules, r.result) == game.result.points, f"{where}: {r.result} vs {game.result}"
            seen["games"] += 1
            seen["tie" if game.result.points == 0 else r.result.reason] += 1
            if (
                r.result.reason == "blocked"
                and game.result.points
                and (game.result.points > 0) != (game.result.player % 2 == 0)
            ):
                seen["blocker_lost"] += 1
            if match.is_over:
                break
            r = match.new_round()
            deals.append(package_hands(r))
            assert series.next_game() is not None, where
            k += 1
        assert series.next_game() is None and series.is_over()  # the package's series ends with ours
        assert [match.totals[0], match.totals[1]] == series.scores, seed
    # the sample covers every case of the lead rule (P4) and passes
    assert min(seen.values()) > 0, seen


def test_one_game_from_a_chosen_leader(dc, monkeypatch):
    """A later game of a series: the chosen seat leads any tile (no double is placed)."""
    rules = dc.Block(players=4, set=6, hand_size=7, teams=2, target=TARGET, lead="puerto_rico")
    deck = [f"{a}-{b}" for b in range(7) for a in range(b + 1)]
    random.Random(5).shuffle(deck)
    hands = [sorted(deck[s * 7 : (s + 1) * 7]) for s in range(4)]
    r = dc.Round.from_deal(rules, hands=hands, yard=[], centre=None, starter=2)
    game = dominoes.Game(
        dominoes.Board(),
        [dominoes.Hand([dominoes.Domino(*map(int, t.split("-"))) for t in h]) for h in hands],
        [],
        2,
        tuple((d, True) for d in [dominoes.Domino(*map(int, t.split("-"))) for t in hands[2]]),
        2,
        None,
    )
    assert our_keys(r) == package_keys(game)
    play_game(r, game, random.Random(1), "chosen leader")
    assert package_points(rules, r.result) == game.result.points
