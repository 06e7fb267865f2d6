"""Hypothesis state machine: the reference and the compiled core side by side.

One round of each implementation, dealt alike, takes the same random calls:
legal moves (as objects, texts in every accepted spelling, with the mover
named), illegal and malformed moves and texts, pops (at the deal too),
clones, copies, pickles and record round trips (carrying on with the copy),
action ids legal and not (ints, numpy ints, huge, negative, bools, floats,
strings ...), ``is_legal`` on garbage, ``player=`` garbage, seats, bots.

Every call must do what docs/validation.md says (only the documented errors;
a rejected call changes nothing), the two implementations must do the same
thing (same error class, same ``reason``), and after every step every
observable of the two rounds must be equal (``helpers.observe``) and the set
conserved. Default: a few dozen short runs a family; ``--large``: thousands.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from contract import (
    REASONS,
    Violation,
    as_index,
    expect_error,
    expect_same,
    malformed_move,
    move_fields,
    outcome,
    parse_move_text,
    require,
    short,
)
from helpers import all_tiles_in_play, observe, scaled, set_tiles
from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import (
    CONFIGS,
    Huge,
    any_text,
    garbage,
    int_forms,
    integers_any,
    legal_text_forms,
    make_rules,
    real,
    seeds,
)

try:
    import dominocore.native as core
    import dominocore.reference as ref
except ImportError as exc:  # pragma: no cover - the core is being rebuilt, or missing
    pytest.skip(f"the stateful fuzzer needs both implementations: {exc}", allow_module_level=True)

EXAMPLES = scaled(20, 1000, "DOMINOCORE_FUZZ_STATEFUL_EXAMPLES")
STEPS = scaled(25, 60, "DOMINOCORE_FUZZ_STATEFUL_STEPS")
LARGE = EXAMPLES > 100
SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    print_blob=True,
    # the short run stops at the first failure (shrinking several takes minutes); the long one reports them all
    report_multiple_bugs=LARGE,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=list(HealthCheck),
)
IMPLS = (("reference", ref), ("core", core))


class RoundPair(RuleBasedStateMachine):
    """A reference round and a core round that must stay identical."""

    configs = [c for family in CONFIGS.values() for c in family]

    def __init__(self) -> None:
        super().__init__()
        self.rounds = {}  # "reference"/"core" -> Round
        self.left_behind = []  # (rounds, observations) of rounds a copy replaced

    # ------------------------------------------------------------ set-up

    @initialize(data=st.data())
    def deal(self, data):
        config = data.draw(st.sampled_from(self.configs), label="config")
        rules = make_rules(ref, config)
        if data.draw(st.integers(0, 3), label="hand-built") == 0 and self._hand_built(config, data):
            return
        seed = data.draw(seeds, label="seed")
        if rules.rounds is not None:  # a start double per round: the index picks it
            index = data.draw(st.integers(0, rules.set), label="round_index")
        else:
            index = data.draw(st.one_of(st.just(0), st.integers(0, 2**31 - 1)), label="round_index")
        for name, dc in IMPLS:
            self.rounds[name] = dc.Round(make_rules(dc, config), seed=seed, round_index=index)
        note(f"Round({rules!r}, seed={seed}, round_index={index})")

    def _hand_built(self, config, data) -> bool:
        """A deal from ``from_deal``: any permutation of the set, any hand sizes."""
        rules = make_rules(ref, config)
        tiles = set_tiles(ref, rules)
        if rules.rounds is not None:
            index = data.draw(st.integers(0, rules.set), label="round_index")
            d = rules.set - index
        else:
            index = 0
            d = data.draw(st.integers(-1, rules.set), label="centre")  # -1: none (Block's lead by a move)
        centre = f"{d}-{d}" if d >= 0 else None
        rest = data.draw(st.permutations([t for t in tiles if t != centre]), label="tiles")
        hands = []
        for _ in range(rules.players):
            size = data.draw(st.integers(0, min(len(rest), rules.hand_size + 3)), label="hand size")
            hands.append(rest[:size])
            rest = rest[size:]
        starter = data.draw(st.integers(0, rules.players - 1), label="starter")
        outs = {}
        for name, dc in IMPLS:
            outs[name] = outcome(dc.Round.from_deal, make_rules(dc, config), hands, rest, centre, starter, index)
        call = f"Round.from_deal({rules!r}, hands={hands}, yard={rest}, centre={centre!r}, starter={starter})"
        expect_same(outs["reference"], outs["core"], call)
        if not outs["reference"].ok:
            expect_error(outs["reference"], (ref.StateError,), call)
            return False
        self.rounds = {name: out.value for name, out in outs.items()}
        note(call)
        return True

    # ------------------------------------------------------------ helpers

    def observe_all(self):
        return {name: observe(r) for name, r in self.rounds.items()}

    def both(self, call: str, fn, *args, **kwargs):
        """Run ``fn(round, ...)`` on both rounds; the outcomes must agree."""
        before = self.observe_all()
        outs = {name: outcome(fn, r, *args, **kwargs) for name, r in self.rounds.items()}
        expect_same(outs["reference"], outs["core"], call)
        if not outs["reference"].ok:
            error = outs["reference"]
            require(
                error.error is not ref.IllegalMoveError or error.reason in REASONS,
                f"{call}: undocumented reason {error.reason!r}",
            )
            after = self.observe_all()
            for name in after:
                require(after[name] == before[name], f"{call} raised {outs[name]!r} but changed the {name} round")
        return outs

    @property
    def any_round(self):
        return self.rounds["reference"]

    def not_over(self):
        return not self.any_round.is_over

    # ------------------------------------------------------------ legal moves

    @precondition(not_over)
    @rule(data=st.data())
    def push_legal(self, data):
        moves = self.any_round.legal_moves()
        move = data.draw(st.sampled_from(moves), label="move")
        form = data.draw(st.sampled_from(["move", "text", "spelled", "player", "numpy player"]), label="form")
        player = None
        arg = move
        if form == "text":
            arg = str(move)
        elif form == "spelled":
            arg = data.draw(legal_text_forms(str(move)), label="text")
        elif form in ("player", "numpy player"):
            player = self.any_round.current_player
            if form == "numpy player":
                player = data.draw(int_forms(player), label="player")
        call = f"push({arg!r}, player={short(player)})"
        outs = self.both(call, lambda r: r.push(arg, player=player))
        for name, out in outs.items():
            require(out.ok, f"{call} (legal) raised {out!r} in the {name}")

    @precondition(not_over)
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 60))
    def play_on(self, seed, count):
        """Several legal moves at once (reaches the end of rounds)."""
        import random

        rng = random.Random(seed)
        for _ in range(count):
            if self.any_round.is_over:
                break
            moves = {name: r.legal_moves() for name, r in self.rounds.items()}
            require(moves["reference"] == moves["core"], f"legal moves differ: {moves}")
            move = rng.choice(moves["reference"])
            for r in self.rounds.values():
                r.push(move)

    @precondition(not_over)
    @rule(data=st.data())
    def apply_legal_action(self, data):
        actions = self.any_round.legal_actions()
        action = data.draw(st.sampled_from(actions).flatmap(int_forms), label="action")
        move = self.both(f"action_to_move({action!r})", lambda r: r.action_to_move(action))
        for name, out in move.items():
            require(out.ok, f"action_to_move({action!r}) of a legal id raised {out!r} in the {name}")
        require(move["reference"].value == move["core"].value, f"action_to_move({action!r}) differs: {move}")
        outs = self.both(f"apply_action({action!r})", lambda r: r.apply_action(action))
        for name, out in outs.items():
            require(out.ok, f"apply_action({action!r}) of a legal id raised {out!r} in the {name}")
        require(self.any_round.move_stack[-1] == move["reference"].value, "apply_action played another move")

    @rule(policy=st.sampled_from(["random", "greedy"]), seed=st.integers(0, 2**64 - 1))
    def bot_move(self, policy, seed):
        over = self.any_round.is_over
        outs = {}
        for name, dc in IMPLS:
            bot = dc.RandomPlayer(seed) if policy == "random" else dc.GreedyPlayer()
            outs[name] = outcome(bot.choose, self.rounds[name])
        call = f"{policy} bot .choose()"
        expect_same(outs["reference"], outs["core"], call)
        if over:
            expect_error(outs["reference"], (ref.StateError,), call + " in a finished round")
            return
        require(outs["reference"].ok, f"{call} raised {outs['reference']!r}")
        require(outs["reference"].value == outs["core"].value, f"{call} differs: {outs}")
        move = outs["reference"].value
        for r in self.rounds.values():
            r.push(move)

    # ------------------------------------------------------------ illegal and malformed moves

    @rule(data=st.data())
    def push_candidate(self, data):
        """Any move value at all: a Move of any tile and end, a text, garbage."""
        kind = data.draw(st.integers(0, 3), label="candidate kind")
        if kind == 0:
            t = data.draw(st.integers(0, 189), label="tile index")
            end = data.draw(st.one_of(st.integers(0, 30), st.integers(0, 4095)), label="end")
            candidate = ref.Move.place(ref.Tile.from_index(t), end)
        elif kind == 1:
            candidate = data.draw(st.sampled_from([ref.Move.draw(), ref.Move.pass_()]), label="move")
        elif kind == 2:
            candidate = data.draw(any_text(), label="text")
        else:
            candidate = real(data.draw(garbage(), label="value"))
        self._try_push(candidate)

    @rule(data=st.data())
    def push_near_miss(self, data):
        """A legal move's text, spoilt (unicode digits, odd blanks, ...)."""
        moves = self.any_round.legal_moves() or [ref.Move.draw()]
        text = str(data.draw(st.sampled_from(moves), label="move"))
        pos = data.draw(st.integers(0, len(text)), label="pos")
        junk = real(
            data.draw(st.sampled_from(["²", "\uff10", "\u0663", "\n", "\u00a0", "\x00", "0" * 5, "-", "@", Huge(0)]))
        )
        self._try_push(text[:pos] + junk + text[pos:])

    def _try_push(self, candidate):
        call = f"push({short(candidate)})"
        legal = {name: outcome(r.is_legal, candidate) for name, r in self.rounds.items()}
        for name, out in legal.items():
            require(out.ok and isinstance(out.value, bool), f"is_legal({short(candidate)}) gave {out!r} ({name})")
        require(legal["reference"].value == legal["core"].value, f"is_legal({short(candidate)}) differs: {legal}")
        if isinstance(candidate, str):
            expected = parse_move_text(candidate)
        elif isinstance(candidate, ref.Move):
            expected = move_fields(candidate)
        else:
            expected = None
        action = self.both(f"move_to_action({short(candidate)})", lambda r: r.move_to_action(candidate))
        if not action["reference"].ok:
            expect_error(action["reference"], (ref.ParseError, ref.IllegalMoveError), "move_to_action")
        outs = self.both(call, lambda r: r.push(candidate))
        out = outs["reference"]
        if expected is None:
            expect_error(out, (ref.ParseError,), call + " (malformed by the grammar)")
        elif not out.ok:
            expect_error(out, (ref.IllegalMoveError,), call + " (well formed)")
        require(out.ok == legal["reference"].value, f"is_legal said {legal['reference'].value} but {call} -> {out!r}")
        require(action["reference"].ok == out.ok, f"move_to_action {action['reference']!r} but {call} -> {out!r}")
        if out.ok:
            played = self.any_round.move_stack[-1]
            require(move_fields(played) == expected, f"{call} played {played}")

    @rule(data=st.data())
    def construct_move(self, data):
        """``Move(kind, tile, end)`` with any fields: ParseError, or a well-formed Move."""
        kind = data.draw(st.one_of(st.sampled_from(["place", "draw", "pass", "PLACE", "jump", ""]), garbage()))
        tile = data.draw(
            st.one_of(
                st.none(),
                st.integers(0, 189).map(ref.Tile.from_index),
                st.tuples(integers_any(), integers_any()),
                st.sampled_from(["2-9", "9-2", "19-1", "x", 5, 10**30]),
                garbage(),
            )
        )
        end = real(data.draw(st.one_of(st.none(), integers_any(), garbage())))
        kind, tile = real(kind), tuple(map(real, tile)) if type(tile) is tuple else real(tile)
        for name, dc in IMPLS:
            call = f"{name} Move({short(kind)}, {short(tile)}, {short(end)})"
            out = outcome(dc.Move, kind, tile, end)
            if not out.ok:
                expect_error(out, (ref.ParseError,), call)
                continue
            problem = malformed_move(out.value)
            require(problem is None, f"{call} built a malformed move ({problem})")
            self._try_push(out.value)

    @rule(data=st.data())
    def push_with_player(self, data):
        moves = self.any_round.legal_moves() or [ref.Move.draw()]
        move = data.draw(st.sampled_from(moves), label="move")
        player = real(data.draw(st.one_of(garbage(), st.integers(0, 8)), label="player"))
        call = f"push({move}, player={short(player)})"
        legal = {name: outcome(r.is_legal, move, player=player) for name, r in self.rounds.items()}
        seat = as_index(player)
        players = self.any_round.rules.players
        over = self.any_round.is_over
        outs = self.both(call, lambda r: r.push(move, player=player))
        out = outs["reference"]
        if player is None:
            pass  # no player named: an ordinary push (the push rules check those)
        elif seat is None or not 0 <= seat < players:
            expect_error(out, (ref.RulesError,), call + " (not a seat)")
        elif over:
            require(out.reason == "round_over", f"{call} in a finished round -> {out!r}")
        elif not out.ok:
            expect_error(out, (ref.IllegalMoveError,), call)
            require(out.reason == "not_your_turn", f"{call} -> {out!r}; the mover is not seat {seat}")
        for name, lg in legal.items():
            require(
                lg.ok and isinstance(lg.value, bool), f"is_legal({move}, player={short(player)}) -> {lg!r} ({name})"
            )
            require(lg.value == outs[name].ok, f"is_legal -> {lg.value} but {call} -> {outs[name]!r} ({name})")

    @rule(player=garbage(), data=st.data())
    def is_legal_garbage(self, player, data):
        player = real(player)
        move = real(
            data.draw(st.one_of(garbage(), any_text(), st.sampled_from(self.any_round.legal_moves() or [None])))
        )
        for name, r in self.rounds.items():
            for kwargs in ({}, {"player": player}):
                out = outcome(r.is_legal, move, **kwargs)
                require(
                    out.ok and isinstance(out.value, bool),
                    f"is_legal({short(move)}, {short(kwargs)}) -> {out!r} ({name})",
                )
                if out.value:  # then push must succeed too (on a copy)
                    twin = r.clone()
                    pushed = outcome(twin.push, move, **kwargs)
                    require(
                        pushed.ok, f"is_legal({short(move)}, {short(kwargs)}) is True but push -> {pushed!r} ({name})"
                    )

    @rule(value=garbage())
    def apply_garbage_action(self, value):
        value = real(value)
        actions = self.any_round.legal_actions()
        number = as_index(value)
        legal = number is not None and number in actions
        for method in ("action_to_move", "apply_action"):
            call = f"{method}({short(value)})"
            outs = self.both(call, lambda r, m=method: getattr(r, m)(value))
            out = outs["reference"]
            if legal:
                require(out.ok, f"{call} of legal id {number} -> {out!r}")
            else:
                expect_error(out, (ref.IllegalMoveError,), call)
                require(out.reason == "illegal_action", f"{call} -> {out!r}; wants reason illegal_action")

    @rule(value=garbage())
    def seat_queries(self, value):
        value = real(value)
        seat = as_index(value)
        valid = seat is not None and 0 <= seat < self.any_round.rules.players
        for method in ("hand", "pips"):
            call = f"{method}({short(value)})"
            outs = self.both(call, lambda r, m=method: getattr(r, m)(value))
            if valid:
                require(outs["reference"].ok, f"{call} -> {outs['reference']!r}")
                require(outs["reference"].value == outs["core"].value, f"{call} differs: {outs}")
            else:
                expect_error(outs["reference"], (ref.RulesError,), call)

    # ------------------------------------------------------------ undo

    @rule()
    def pop(self):
        at_deal = not self.any_round.move_stack
        last = None if at_deal else self.any_round.move_stack[-1]
        outs = self.both("pop()", lambda r: r.pop())
        if at_deal:
            expect_error(outs["reference"], (ref.IllegalMoveError,), "pop() at the deal")
            require(outs["reference"].reason == "no_move", f"pop() at the deal -> {outs['reference']!r}")
        else:
            for name, out in outs.items():
                require(out.ok and out.value == last, f"pop() -> {out!r} ({name}), last move {last}")

    @rule(extra=st.integers(0, 2))
    def pop_to_deal(self, extra):
        while self.any_round.move_stack:
            self.pop()
        for _ in range(extra):
            self.pop()

    # ------------------------------------------------------------ copies

    @rule(how=st.sampled_from(["clone", "copy", "deepcopy", "pickle", "dict", "json"]), carry_on=st.booleans())
    def copy_round(self, how, carry_on):
        copiers = {
            "clone": lambda r: r.clone(),
            "copy": copy.copy,
            "deepcopy": copy.deepcopy,
            "pickle": lambda r: pickle.loads(pickle.dumps(r)),
            "dict": lambda r: type(r).from_dict(r.to_dict()),
            "json": lambda r: type(r).from_dict(json.loads(json.dumps(r.to_dict()))),
        }
        before = self.observe_all()
        twins = {}
        for name, r in self.rounds.items():
            out = outcome(copiers[how], r)
            require(out.ok, f"{how} of the {name} round raised {out!r}")
            twin = out.value
            require(type(twin) is type(r), f"{how} of the {name} round is a {type(twin).__name__}")
            require(twin is not r, f"{how} returned the same {name} round")
            require(observe(twin) == before[name], f"{how} of the {name} round differs from it")
            twins[name] = twin
        if carry_on:
            self.left_behind = (self.left_behind + [(self.rounds, before)])[-2:]
            self.rounds = twins

    # ------------------------------------------------------------ invariants

    @invariant()
    def the_two_agree(self):
        if not self.rounds:
            return
        seen = self.observe_all()
        if seen["reference"] != seen["core"]:
            diff = {
                k: (seen["reference"][k], seen["core"][k])
                for k in seen["core"]
                if seen["reference"][k] != seen["core"][k]
            }
            raise Violation(f"the rounds differ: {short(diff, 2000)}")
        records = {name: r.to_dict() for name, r in self.rounds.items()}
        require(records["reference"] == records["core"], "to_dict() differs")
        tiles = sorted(set_tiles(ref, self.any_round.rules))
        for name, r in self.rounds.items():
            require(sorted(all_tiles_in_play(r)) == tiles, f"the {name} round does not conserve the set")
            require(isinstance(repr(r), str) and isinstance(str(r), str), "repr/str")
        for name in ("reference", "core"):
            r = self.rounds[name]
            require(r.num_actions == r.rules.num_actions, "num_actions")
            require([i for i, x in enumerate(r.legal_action_mask()) if x] == seen[name]["actions"], "mask")
        pips = [[r.pips(s) for s in range(r.rules.players)] for r in self.rounds.values()]
        require(pips[0] == pips[1], f"pips differ: {pips}")

    @invariant()
    def copies_left_behind_are_untouched(self):
        for rounds, before in self.left_behind:
            for name, r in rounds.items():
                require(observe(r) == before[name], f"a {name} round changed after its copy was played on")


def family_machine(family: str):
    """The machine restricted to one family of configurations (one test each, so xdist spreads them)."""
    return type(f"RoundPair_{family}", (RoundPair,), {"configs": CONFIGS[family]})


TestTrains = family_machine("trains").TestCase
TestTrains.settings = SETTINGS
TestCross = family_machine("cross").TestCase
TestCross.settings = SETTINGS
TestDoubles = family_machine("doubles").TestCase
TestDoubles.settings = SETTINGS
TestBlock = family_machine("block").TestCase
TestBlock.settings = SETTINGS
TestMexicanTrain = family_machine("mexican_train").TestCase
TestMexicanTrain.settings = SETTINGS
TestFives = family_machine("fives").TestCase
TestFives.settings = SETTINGS
