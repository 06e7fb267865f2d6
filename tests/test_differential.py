"""The compiled core against the reference, compared move for move.

For every game and rule set (with Block's two lead rules and Mexican Train's
options), set size (6, 9, 12, 15, 18) and allowed player count:
``ROUNDS[set]`` seeded rounds (a sixth of that for Mexican Train, whose
rounds are long), moves picked by a seeded random player, and
in every third round a random number of moves undone and another branch
taken; then ``MATCHES`` whole matches per rule set; then hand-built
deals in which several hands are empty at the set-up.

After every move the cheap observables are compared (``helpers.observe_step``:
the state's scalars, open ends, the mover's hand, the legal moves and action
ids), everything of ``helpers.observe`` every ``FULL_EVERY`` moves (at an
offset that moves from round to round), and the whole of it with the history
(layout, move stack), ``to_dict`` and the refusals of a fixed set of
submissions for every seat (``helpers.refusals``: reason codes and the words
of their messages; every 10th round under ``--large``) at the deal, before
every undo, after it, and at the end of every round. What each seat may know (its view, information
state and observation tensor, ``helpers.observe_information``) is compared for
every seat at those full comparisons, and after every move of ``INFO_ROUNDS``
rounds a configuration on double-6 and double-9 (2 rounds, and double-12
too, under ``--large``).

The default run is short; ``--large`` (``DOMINOCORE_LARGE=1``) plays 400
rounds a configuration and 100 matches a rule set with everything compared
after every move (the README's large run). ``DOMINOCORE_DIFF_ROUNDS``,
``DOMINOCORE_DIFF_MATCHES`` and ``DOMINOCORE_DIFF_FULL_EVERY`` override the
counts of either run.
"""

from __future__ import annotations

import itertools
import random

import dominocore.reference as ref
import pytest
from helpers import import_core, observe, observe_information, observe_step, refusals, scaled

native = import_core()

# Rounds per configuration by set size (a double-18 round costs some fifteen double-6 rounds).
DEFAULT_ROUNDS = {6: 120, 9: 40, 12: 25, 15: 16, 18: 12}
ROUNDS = {n: scaled(rounds, 400, "DOMINOCORE_DIFF_ROUNDS") for n, rounds in DEFAULT_ROUNDS.items()}
MATCHES = scaled(10, 100, "DOMINOCORE_DIFF_MATCHES")
#: The refusals' words are compared in every round of the default run, and in
#: every 10th of the large one (some 7 ms a comparison: the large run would
#: spend most of its time there).
WORDS_EVERY = scaled(1, 10)
FULL_EVERY = max(1, scaled(8, 1, "DOMINOCORE_DIFF_FULL_EVERY"))
#: Rounds a configuration in which what each seat may know is compared after
#: every move; the default run plays them on double-6 and double-9 only.
INFO_ROUNDS = scaled(1, 2, "DOMINOCORE_DIFF_INFO_ROUNDS")
INFO_SETS = (6, 9) if scaled(0, 1) == 0 else (6, 9, 12)


#: Every game and rule set, with the options the differential run varies: label -> (rules class, options).
GAMES = {
    "trains": ("ChickenFoot", {"rule_set": "trains"}),
    "cross": ("ChickenFoot", {"rule_set": "cross"}),
    "doubles": ("Doubles", {}),
    "block": ("Block", {}),
    "block-highest-double": ("Block", {"lead": "highest_double"}),
    # partnerships (docs/games/partnership.md): both scorings, and the Puerto Rico lead
    "block-teams": ("Block", {"teams": 2}),
    "block-teams-fewer-pips": ("Block", {"teams": 2, "team_scoring": "fewer_pips"}),
    "block-teams-puerto-rico": ("Block", {"teams": 2, "lead": "puerto_rico"}),
    "mexican_train": ("MexicanTrain", {}),
    "mexican_train-may-db50": ("MexicanTrain", {"drawn_tile": "may", "double_blank_50": True}),
    # scoring during play (docs/games/all_fives.md, fives_and_threes.md): each option, partnerships,
    # and low targets, so that rounds stop at the target in the middle of play
    "all_fives": ("AllFives", {}),
    "all_fives-one-draw-at-once": ("AllFives", {"draw": "one", "sides_open": "at_once", "reserve": 0}),
    "all_fives-plain-exact-target": ("AllFives", {"spinner": "none", "out_points": "exact", "target": 25}),
    "all_fives-teams-one": ("AllFives", {"teams": 2, "out_points": "one", "target": 40}),
    "all_fives-play-on": ("AllFives", {"target": 20, "end_in_play": False}),
    "fives_and_threes": ("FivesAndThrees", {}),
    "fives_and_threes-spinner-target": (
        "FivesAndThrees",
        {"spinner": "first", "out_points": "nearest_five", "target": 12},
    ),
    "fives_and_threes-teams-one-draw": ("FivesAndThrees", {"teams": 2, "draw": "one", "sides_open": "at_once"}),
}


#: How many times fewer rounds the game plays than the others (Mexican Train:
#: long rounds on many trains, about three rounds of the others each; six keeps
#: the large run within CI's time; All Fives and Fives and Threes: eight
#: configurations between them, a third of the rounds each).
COST = {"MexicanTrain": 6, "AllFives": 3, "FivesAndThrees": 3}


def rounds_for(label, n) -> int:
    return max(4, ROUNDS[n] // COST.get(GAMES[label][0], 1))


def make_rules(module, label, n, p):
    name, options = GAMES[label]
    return getattr(module, name)(players=p, set=n, **options)


def fits(label, n, p) -> bool:
    """Whether the game is defined for ``p`` players on double-``n``."""
    try:
        make_rules(ref, label, n, p)
    except ref.RulesError:
        return False
    return True


def configurations():
    for n in (6, 9, 12, 15, 18):
        for label in GAMES:
            for p in range(2, 9):
                if fits(label, n, p):
                    yield (label, n, p)


def compare_fully(a, b, where: str = "", words: bool = True) -> dict:
    """Everything observable, the history and the record, and (``words``) the
    refusals of a fixed set of submissions; return the reference's view."""
    seen = observe(a)
    assert seen == observe(b), where
    assert a.to_dict() == b.to_dict(), where
    assert observe_information(a) == observe_information(b), where
    if words:
        assert refusals(a) == refusals(b), where  # the same reasons in the same words
    return seen


def play_and_compare(a, b, rng: random.Random, branch: bool, offset: int = 0, words: bool = True) -> int:
    """Play both rounds move for move; return the number of moves compared
    (the refusals' words too where ``words``)."""
    compared = 0
    moves = compare_fully(a, b, "at the deal", words)["legal"]
    while not a.is_over:
        if branch and len(a.move_stack) > 4 and rng.random() < 0.05:
            compare_fully(a, b, "before an undo", words)
            for _ in range(rng.randint(1, min(6, len(a.move_stack)))):
                assert str(a.pop()) == str(b.pop())
            moves = compare_fully(a, b, "after an undo", words)["legal"]
            branch = rng.random() < 0.5
            continue
        move = moves[rng.randrange(len(moves))]
        seat = a.current_player
        a.push(move)
        b.push(str(move))
        compared += 1
        if (compared + offset) % FULL_EVERY == 0:
            seen = observe(a, history=False)
            assert seen == observe(b, history=False), f"after {move}"
        else:
            seen = observe_step(a, seat)
            assert seen == observe_step(b, seat), f"after {move}"
        moves = seen["legal"]
    compare_fully(a, b, "at the end", words)
    return compared


@pytest.mark.parametrize("rule_set,n,p", list(configurations()), ids=lambda x: str(x))
def test_rounds_agree_move_for_move(rule_set, n, p):
    ref_rules, core_rules = make_rules(ref, rule_set, n, p), make_rules(native, rule_set, n, p)
    rng = random.Random(f"{rule_set}-{n}-{p}")
    for i in range(rounds_for(rule_set, n)):
        seed = rng.getrandbits(64)
        k = i % (n + 1)  # Doubles and Block deals ignore it; Block's default leader is k mod p
        a = ref.Round(ref_rules, seed=seed, round_index=k)
        b = native.Round(core_rules, seed=seed, round_index=k)
        play_and_compare(a, b, rng, branch=i % 3 == 0, offset=i, words=i % WORDS_EVERY == 0)


@pytest.mark.parametrize("rule_set,n,p", [c for c in configurations() if c[1] in INFO_SETS], ids=lambda x: str(x))
def test_what_each_seat_knows_agrees_move_for_move(rule_set, n, p):
    """docs/information.md: after every move, for every seat, the view, the
    information state and the observation tensor of the two implementations
    are equal (bit for bit), and so are the information state tensors at the
    deal and at the end of the round."""
    ref_rules, core_rules = make_rules(ref, rule_set, n, p), make_rules(native, rule_set, n, p)
    rng = random.Random(f"information-{rule_set}-{n}-{p}")
    for i in range(INFO_ROUNDS):
        seed = rng.getrandbits(64)
        a = ref.Round(ref_rules, seed=seed, round_index=i % (n + 1))
        b = native.Round(core_rules, seed=seed, round_index=i % (n + 1))
        same_tensors(a, b, "at the deal")
        while not a.is_over:
            assert observe_information(a) == observe_information(b), f"after {a.move_stack[-1:]}"
            move = rng.choice(a.legal_moves())
            a.push(move)
            b.push(move)
        assert observe_information(a) == observe_information(b), "at the end"
        same_tensors(a, b, "at the end")


def same_tensors(a, b, where: str) -> None:
    for seat in range(a.rules.players):
        assert a.information_state_tensor(seat).tobytes() == b.information_state_tensor(seat).tobytes(), where


@pytest.mark.parametrize("rule_set", list(GAMES))
def test_whole_matches_agree(rule_set):
    rng = random.Random(rule_set)
    for i in range(MATCHES):
        n = (6, 9, 12)[i % 3]
        counts = [q for q in (2, 3, 4) if fits(rule_set, n, q)]  # partnerships: 4 players only
        p = counts[i % len(counts)]
        seed = rng.getrandbits(64)
        a = ref.Match(make_rules(ref, rule_set, n, p), seed=seed)
        b = native.Match(make_rules(native, rule_set, n, p), seed=seed)
        while not a.is_over:
            play_and_compare(a.new_round(), b.new_round(), rng, branch=False, offset=len(a.results))
        assert b.is_over
        assert a.totals == b.totals and a.winners == b.winners
        assert [tuple(r) for r in a.results] == [tuple(r) for r in b.results]


# --------------------------------------------------------------------------- empty hands at the set-up


def empty_hand_deals(rule_set, n, p):
    """Hand-built deals (docs/engine.md reading 11) with two or more empty hands:
    every set of two or more empty seats (all of them included) with every
    starter (up to 5 players; one random starter per set beyond), a random
    round (its double in the centre; any double in Doubles), the other tiles
    shuffled into the other hands (1 to 9 each) and the yard.
    Yields (empty seats, starter, round index, hands, yard, centre)."""
    rng = random.Random(f"empty-{rule_set}-{n}-{p}")
    tiles = [f"{a}-{b}" for b in range(n + 1) for a in range(b + 1)]
    for size in range(2, p + 1):
        for empty in itertools.combinations(range(p), size):
            for starter in range(p) if p <= 5 else [rng.randrange(p)]:
                k = rng.randrange(n + 1)
                centre = f"{n - k}-{n - k}"
                rest = [t for t in tiles if t != centre]
                rng.shuffle(rest)
                hands, top = [], 0
                for s in range(p):
                    take = 0 if s in empty else rng.randint(1, 9)
                    hands.append(rest[top : top + take])
                    top += take
                yield empty, starter, k if rule_set != "doubles" else 0, hands, rest[top:], centre


def expected_points(rules, hands, out_seat):
    """docs/rules.md 2.4 (what is left in each hand, 0-0 as 50 where on) and 3 (the
    out seat scores the pips of every other hand)."""
    pips = [sum(int(x) for t in h for x in t.split("-")) for h in hands]
    if rules.game == "doubles":
        return tuple(sum(pips) if s == out_seat else 0 for s in range(len(hands)))
    blank = 50 if rules.double_blank_50 else 0
    return tuple(pips[s] + (blank if "0-0" in hands[s] else 0) for s in range(len(hands)))


EMPTY_HAND_CONFIGURATIONS = [
    (rule_set, n, p)
    for rule_set in ("trains", "cross", "doubles")
    for n, p in ((6, 2), (6, 3), (9, 4), (12, 5), (15, 8))
    if not (rule_set == "doubles" and p > 4)
]


@pytest.mark.parametrize("rule_set,n,p", EMPTY_HAND_CONFIGURATIONS, ids=lambda x: str(x))
def test_several_empty_hands_at_the_set_up(rule_set, n, p):
    """The round is over at once: "out", for the LOWEST seat with an empty hand
    whoever the starter is (docs/engine.md reading 11), with the points of
    docs/rules.md; both implementations agree on that and on everything observable."""
    ref_rules, core_rules = make_rules(ref, rule_set, n, p), make_rules(native, rule_set, n, p)
    count = 0
    for empty, starter, k, hands, yard, centre in empty_hand_deals(rule_set, n, p):
        deal = dict(hands=hands, yard=yard, centre=centre, starter=starter, round_index=k)
        where = f"empty seats {empty}, starter {starter}, round {k}"
        a = ref.Round.from_deal(ref_rules, **deal)
        b = native.Round.from_deal(core_rules, **deal)
        points = expected_points(ref_rules, hands, min(empty))
        expected = ("out", min(empty), points, starter, 0, (0,) * p, points)  # no points of play
        assert tuple(a.result) == expected, where
        assert tuple(b.result) == expected, where
        assert a.current_player == b.current_player == -1, where
        assert a.legal_moves() == b.legal_moves() == [], where
        compare_fully(a, b, where)
        count += 1
    assert count == (2**p - 1 - p) * (p if p <= 5 else 1)  # every set of two or more seats
