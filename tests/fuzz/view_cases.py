"""Mutation cases of player views and their check, for test_view_mutations.py.

A case is a view record (``PlayerView.to_dict()`` of a round of either
implementation, every game, mid-round and finished) mutated by
``ViewMutator(seed)``, and is rebuilt from its seed alone:

    python tests/fuzz/view_cases.py SEED      # run the check, print the violation (or "ok")
    python tests/fuzz/view_cases.py SEED -v   # and print the mutated record

The contract (docs/validation.md, "Views"): ``PlayerView.from_dict`` gives a
view or raises ``StateError``; an accepted view round-trips, renders as text
and SVG, and, when it is its seat's turn, the searches return one of its
legal moves (or raise ``StateError``); nothing else is ever raised, and the
interpreter never dies.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import sys
from typing import Any, Dict, Tuple

from contract import Violation, expect_error, implementations, outcome, require, short
from mutate import Mutator
from strategies import ALL_CONFIGS, make_rules, played_round

#: Moves into a round at which its views are taken (400: most rounds end first).
DEPTHS = (0, 5, 20, 400)


@functools.lru_cache(maxsize=None)
def base_views() -> Tuple[Dict[str, Any], ...]:
    """A fixed pool of view records: every configuration of the fuzzers,
    rounds of the core and of the reference (alternately), at the deal, in
    play and (most of the 400-move ones) finished; the view of the seat to
    move (the searches' input) and of another seat."""
    ref, core = implementations()
    out = []
    for i, config in enumerate(ALL_CONFIGS):
        for j, depth in enumerate(DEPTHS):
            dc = core if (i + j) % 2 == 0 else ref
            rules = make_rules(dc, config)
            r = played_round(dc, rules, 1000 * i + j, depth)
            mover = r.current_player if r.current_player >= 0 else 0
            for seat in sorted({mover, (mover + 1) % rules.players}):
                out.append(json.loads(json.dumps(r.view(seat).to_dict())))
    return tuple(out)


class ViewMutator(Mutator):
    """``Mutator``'s generic mutations of JSON data, plus mutations that know
    a view record's shape: the issue's cases (negative round indices with
    search counts, huge counts and sizes, seats and sizes of the wrong kind,
    markers of the wrong length), sizes moved between seats, the yard and the
    layout, history entries retargeted, dropped, swapped or made up, public
    fields (ends, obligation, locks, legal moves, the result, the turn)
    nudged to other well-formed values."""

    def _structured(self, rec: dict) -> bool:
        r = self.rng
        if "history" not in rec or "hand_sizes" not in rec:
            return False
        op = r.randrange(16)
        history = rec.get("history")
        sizes = rec.get("hand_sizes")
        counts = rec.get("setup_draws")
        p = len(sizes) if isinstance(sizes, list) else 2
        if op == 0:  # the crash: a negative round index with search draws
            rec["round_index"] = r.choice([-3, -1, -(2**31), 2**31 - 1, 19, 2**40])
            rec["setup_draws"] = [r.choice([1, 0, 2]) for _ in range(p)]
        elif op == 1 and isinstance(counts, list) and counts:  # huge or shifted search counts
            i = r.randrange(len(counts))
            counts[i] = r.choice([10**6, 2**31, 2**40, 2**63, -1, 1, counts[i] + 1, 3_000_000])
        elif op == 2 and isinstance(sizes, list) and sizes:  # a hand size of any size
            i = r.randrange(len(sizes))
            sizes[i] = r.choice([-5, -1, 0, 2**40, 3_000_000, 2**31, 2**63, 10**30, sizes[i] + 1, sizes[i] - 1])
        elif op == 3 and isinstance(sizes, list) and len(sizes) > 1:  # a tile from one hand to another (sums kept)
            i, j = r.sample(range(len(sizes)), 2)
            if isinstance(sizes[i], int) and isinstance(sizes[j], int):
                sizes[i] -= 1
                sizes[j] += 1
        elif op == 4 and isinstance(sizes, list) and sizes and isinstance(rec.get("yard_size"), int):
            i = r.randrange(len(sizes))  # a tile between a hand and the yard (sums kept)
            d = r.choice([-1, 1, rec["yard_size"]])  # the whole yard: a hand that passed may not hold it
            if isinstance(sizes[i], int):
                sizes[i] += d
                rec["yard_size"] -= d
        elif op == 5:  # the seat, of any kind
            rec["seat"] = r.choice([99, -1, 1.7, True, "0", None, p, 2**64, (rec.get("seat") or 0) + 1])
        elif op == 6:
            rec["hand_sizes"] = r.choice(["abc", [], None, {}, [0] * (p + 1), tuple(sizes or ())])
        elif op == 7:
            rec["markers"] = r.choice(
                [[], [True] * (p + 1), [0] * p, [None] * p, [not m for m in rec.get("markers") or []]]
            )
        elif op == 8 and isinstance(history, list) and history:  # a placement retargeted to another end
            i = r.randrange(len(history))
            entry = history[i]
            if isinstance(entry, list) and len(entry) == 4 and isinstance(entry[1], str) and "@" in entry[1]:
                entry[1] = entry[1].split("@")[0] + "@" + str(r.choice([0, 1, 2, 3, 4, 7, 40, 4095, r.randrange(60)]))
            elif isinstance(entry, list) and len(entry) == 4:
                entry[1] = r.choice(
                    ["draw", "pass", "0-0@0", "1-2@0", f"{r.randrange(19)}-{r.randrange(19)}@{r.randrange(40)}"]
                )
        elif op == 9 and isinstance(history, list) and history:  # an entry dropped, swapped or its mover changed
            i = r.randrange(len(history))
            choice = r.randrange(3)
            if choice == 0:
                del history[i]
                if isinstance(rec.get("move_number"), int):
                    rec["move_number"] -= r.choice([0, 1])
            elif choice == 1:
                j = r.randrange(len(history))
                history[i], history[j] = history[j], history[i]
            elif isinstance(history[i], list) and history[i]:
                history[i][0] = r.choice([0, 1, p - 1, p, -1])
        elif op == 10 and isinstance(history, list):  # made-up moves at the end
            for _ in range(r.randrange(1, 3)):
                seat = rec.get("current_player") if r.random() < 0.7 else r.randrange(max(p, 1))
                move = r.choice(["draw", "pass", f"{r.randrange(19)}-{r.randrange(19)}@{r.randrange(20)}"])
                drawn = r.choice([None, None, "0-0", "1-2"]) if move == "draw" else None
                history.append([seat, move, drawn, r.choice([0, 0, 5, 10])])
            if isinstance(rec.get("move_number"), int) and r.random() < 0.8:
                rec["move_number"] = len(history)
        elif op == 11 and isinstance(rec.get("open_ends"), list) and rec["open_ends"]:
            end = r.choice(rec["open_ends"])
            if isinstance(end, list) and len(end) == 3:
                k = r.randrange(3)
                end[k] = r.choice([None, 0, 1, 6, 9, 18, 19, -1, 4096]) if k else r.choice([0, 1, 50, 4095, 4096, -1])
        elif op == 12:  # the obligation, the locks, the pending ends
            field = r.choice(["obligation", "unlocked", "pending_ends"])
            rec[field] = r.choice(
                {
                    "obligation": [None, "start", "foot", "double", "Start", 1],
                    "unlocked": [[], [0], list(range(19)), [3, 1], [0, 0]],
                    "pending_ends": [[], [0], [0, 1, 2, 3], [99]],
                }[field]
            )
        elif op == 13:  # the viewer's choices
            field = r.choice(["legal_moves", "legal_actions"])
            value = rec.get(field)
            if isinstance(value, list) and value and r.random() < 0.5:
                del value[r.randrange(len(value))]
            else:
                rec[field] = r.choice([["draw"], ["pass"], [0], [], ["1-2@0"]])
        elif op == 14:  # the result and the turn
            if rec.get("result") is None:
                reason, out_seat = r.choice(["out", "blocked"]), r.choice([-1, 0])
                starter, moves = rec.get("starter"), rec.get("move_number")
                rec["result"] = {
                    "reason": reason,
                    "out_seat": out_seat,
                    "points": [0] * p,
                    "starter": starter,
                    "moves": moves,
                }
                if r.random() < 0.7:
                    rec["current_player"] = -1
            elif isinstance(rec["result"], dict) and rec["result"]:
                key = r.choice(list(rec["result"]))
                rec["result"][key] = self._changed(rec["result"][key])
        else:  # the drawn tile, the centre, the starter, own search draws
            field = r.choice(["drawn_tile", "drawing", "centre", "starter", "own_setup_draws", "current_player"])
            value = rec.get(field)
            rec[field] = self._changed(value) if value is not None else r.choice(["0-0", "6-6", True, 0])
        return True


def view_case(seed: int) -> Tuple[str, Any]:
    """(description, mutated view record) of case ``seed``."""
    views = base_views()
    rng = random.Random(seed)
    k = rng.randrange(len(views))
    return f"ViewMutator({seed}).record(base_views()[{k}])", ViewMutator(seed).record(views[k])


@functools.lru_cache(maxsize=None)
def _bots():
    import dominocore as dc

    return (
        dc.ISMCTSPlayer(iterations=20, seed=3),
        dc.PIMCPlayer(iterations=20, determinizations=2, seed=3),
    )


def check_view(record: Any, what: str = "PlayerView.from_dict", seed: int = 0) -> str:
    """The contract of a view record: ``StateError``, or a view that
    round-trips, renders and searches (only ``StateError`` besides).
    Returns "rejected", "accepted" or "searched"."""
    import dominocore as dc
    import dominocore.svg
    import dominocore.text

    ref, _core = implementations()
    try:
        mine = copy.deepcopy(record)
    except Exception:  # noqa: BLE001 - an object deepcopy cannot copy: share it
        mine = record
    out = outcome(dc.PlayerView.from_dict, mine)
    if not out.ok:
        expect_error(out, (ref.StateError,), what)
        return "rejected"
    view = out.value
    data = view.to_dict()
    dumped = outcome(json.dumps, data)
    require(dumped.ok and json.loads(dumped.value) == data, f"{what}: the accepted view's to_dict() is not JSON data")
    again = outcome(dc.PlayerView.from_dict, data)
    require(again.ok and again.value == view, f"{what}: the accepted view does not round-trip: {again!r}")
    for name, render in (("text", dominocore.text.render), ("svg", dominocore.svg.render)):
        for seat in (None, view.seat):
            shown = outcome(render, view, seat)
            require(shown.ok and isinstance(shown.value, str), f"{what}: {name}.render(view, {seat}) gave {shown!r}")
    if view.result is not None or view.current_player != view.seat:
        return "accepted"
    bot = _bots()[seed % 2]
    found = outcome(bot.search, view)
    if not found.ok:
        expect_error(found, (ref.StateError,), f"{what}: {type(bot).__name__}.search")
        return "accepted"
    move = found.value["move"]
    require(move in view.legal_moves(), f"{what}: the search chose {short(move)}, not a legal move of the view")
    return "searched"


def _main() -> None:  # pragma: no cover - a debugging aid
    seed = int(sys.argv[1])
    what, record = view_case(seed)
    if "-v" in sys.argv:
        from contract import safe_repr

        print(what)
        print(safe_repr(record))
    try:
        print(check_view(record, what, seed))
    except Violation as exc:
        print(f"VIOLATION: {exc}")
        sys.exit(1)


if __name__ == "__main__":
    _main()
