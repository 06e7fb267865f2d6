"""A seeded mutator of round records, move texts and pickles.

``Mutator(seed)`` is deterministic: the same seed gives the same mutations,
so a finding is reproduced by its seed alone (``python tests/fuzz/mutate.py
SEED`` prints the mutated record, text and pickle of that seed).

- ``record(rec)``: a deep copy of a ``Round.to_dict()`` record with 1-3
  mutations: keys dropped, added, renamed or made non-strings; values
  swapped for other types (huge, negative, bool, float, None, numpy ints,
  non-ASCII digit strings, nested odd objects); tiles duplicated, moved
  between hands and yard, dropped; move lists truncated, reordered, their
  texts corrupted.
- ``text(s)``: a move or tile text with unicode digits (``²``, fullwidth,
  Arabic-Indic ...), 5,000-digit numbers, blanks of every kind, case
  changes, odd separators, leading zeros, truncation.
- ``pickle_bytes(b)``: byte flips, insertions, deletions and splices of a
  pickle (see ``test_mutations.safe_loads`` for which ones get loaded).
"""

from __future__ import annotations

import copy
import random
from typing import Any, List, Tuple

import numpy as np

UNICODE_DIGITS = ["²", "³", "¹", "\uff10", "\uff11", "\uff19", "\u0663", "\u0966", "\u07c0", "\u2460", "\U0001d7ce"]
BLANKS = [" ", "\t", "  ", "\n", "\r", "\x0b", "\x0c", "\u00a0", "\u2003", "\u3000", "\u200b", "\ufeff", "\x00"]
SEPARATORS = ["\u2013", "\u2014", "\u2212", "\u2010", "_", "~", " ", "", "--", "\uff0d", "=", "/"]
ATS = ["\uff20", "@@", "", " at ", "#", "@ @", "\u0040\u0301"]
KEYS = {
    "record": ["rules", "round_index", "deal", "moves"],
    "deal": ["centre", "starter", "hands", "yard"],
    "rules": ["game", "rule_set", "set", "players", "hand_size", "trains", "double_blank_50", "target"],
}
ODD_KEYS: List[Any] = [
    "", "Rules", "rules ", "r\u00fcles", "extra", "__class__", "max_rounds", "seed", "drawn_tile",
    1, 0, None, True, 2.5, (1, 2), b"rules", "\ud800",
]  # fmt: skip
GAMES = ["chickenfoot", "doubles", "ChickenFoot", "DOUBLES", "chicken foot", "mexican", "", "trains", "cross"]


class Mutator:
    """Seeded mutations of records, texts and pickles."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ------------------------------------------------------------ odd values

    def odd_int(self) -> Any:
        r = self.rng
        return r.choice(
            [
                -1, -2, 2**31, 2**31 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), 10**30, -(10**30),
                10**5000, 4095, 4096, 190, 189, 19, 18, 9, 8, 0, 1, 2, 3, 100, 1000, 10**6, 10**6 + 1,
                r.randrange(-50, 50), r.randrange(0, 2**70),
            ]
        )  # fmt: skip

    def odd_value(self, depth: int = 0) -> Any:
        """Anything a JSON record is not supposed to hold, and some that it is."""
        r = self.rng
        choice = r.randrange(24)
        if choice == 0:
            return self.odd_int()
        if choice == 1:
            return r.choice([True, False])
        if choice == 2:
            return r.choice([0.0, -0.0, 1.0, 2.0, 9.0, 1.5, float("nan"), float("inf"), -float("inf"), 1e308])
        if choice == 3:
            return None
        if choice == 4:
            number = self.odd_int()
            return "1" * 5000 if number == 10**5000 else str(number)
        if choice == 5:
            return r.choice(UNICODE_DIGITS) + r.choice(["", "1", "-3"])
        if choice == 6:
            return r.choice([np.int64(r.randrange(-3, 20)), np.uint8(3), np.int32(2), np.bool_(True), np.float64(2.0)])
        if choice == 7:
            return []
        if choice == 8:
            return {}
        if choice == 9:
            return r.choice(["", " ", "9-9", "0-0", "18-18", "19-19", "draw", "pass", "x", "\x00", "\ud800", "9-9@0"])
        if choice == 10:
            return "".join(r.choice("0123456789-@ ") for _ in range(r.randrange(1, 8)))
        if choice == 11:
            return self.nested(r.randrange(2, 60))
        if choice == 12:
            loop: List[Any] = []
            loop.append(loop)
            return loop
        if choice == 13:
            return r.choice([b"9-9", bytearray(b"1"), (1, 2), {1, 2}, frozenset(), range(3), complex(1, 1), [10**5000]])
        if choice == 14:
            return r.choice([object(), Ellipsis, NotImplemented, int, len, type("Odd", (), {})()])
        if choice == 15:
            return "1" * r.choice([5000, 4301, 300])
        if choice == 16:
            from dominocore.reference import Move, Tile

            return r.choice([Tile(2, 9), Tile(9, 9), Tile(0, 0), Move.draw(), Move.pass_(), Move.place("9-9", 0)])
        if choice == 17:
            return {r.choice(ODD_KEYS): self.odd_value(depth + 1) if depth < 2 else 1}
        if choice == 18:
            return [self.odd_value(depth + 1) if depth < 2 else 1 for _ in range(r.randrange(1, 4))]
        if choice == 19:
            return r.randrange(0, 190)  # a tile index
        if choice == 20:
            return [r.randrange(0, 19), r.randrange(0, 19)]  # a tile as a pair
        if choice == 21:
            return np.array([1, 2])
        if choice == 22:
            return self.text(r.choice(["9-9", "2-9@0", "draw", "5-6"]))
        return "\u0663-\u0663"

    def nested(self, depth: int) -> Any:
        value: Any = "9-9"
        for _ in range(depth):
            value = [value] if self.rng.random() < 0.7 else {"hands": value}
        return value

    # ------------------------------------------------------------ records

    def record(self, rec: Any, rounds: int = 0) -> Any:
        """A mutated deep copy of ``rec`` (1 to 3 mutations, or ``rounds``)."""
        rec = copy.deepcopy(rec)
        for _ in range(rounds or self.rng.choice([1, 1, 1, 2, 2, 3])):
            try:
                rec = self._mutate_once(rec)
            except (OverflowError, ValueError, TypeError, RecursionError):
                pass  # a mutation that cannot apply to this value (deterministic all the same)
        return rec

    def _locations(self, value: Any, path: Tuple = ()) -> List[Tuple]:
        """Every (container, key, path) inside ``value`` (dicts and lists, not too deep)."""
        out: List[Tuple] = []
        if len(path) > 6:
            return out
        if isinstance(value, dict):
            for k in list(value):
                out.append((value, k, path + (k,)))
                out += self._locations(value[k], path + (k,))
        elif isinstance(value, list):
            for i in range(len(value)):
                out.append((value, i, path + (i,)))
                out += self._locations(value[i], path + (i,))
        return out

    def _mutate_once(self, rec: Any) -> Any:
        r = self.rng
        if not isinstance(rec, (dict, list)) or r.random() < 0.01:
            return r.choice([self.odd_value(), [rec], {"record": rec}, rec])
        special = r.random()
        if special < 0.35 and isinstance(rec, dict):
            done = self._structured(rec)
            if done:
                return rec
        locations = self._locations(rec)
        if not locations:
            return self.odd_value()
        container, key, _ = r.choice(locations)
        op = r.randrange(12)
        if isinstance(container, dict):
            if op == 0:
                del container[key]
            elif op == 1:  # rename
                value = container.pop(key)
                container[self._renamed(key)] = value
            elif op == 2:
                container[r.choice(ODD_KEYS + sum(KEYS.values(), []))] = self.odd_value()
            else:
                container[key] = self._changed(container[key])
        else:
            if op == 0:
                del container[key]
            elif op == 1:
                container.insert(r.randrange(len(container) + 1), container[key])  # duplicate
            elif op == 2:
                container.insert(r.randrange(len(container) + 1), self.odd_value())
            elif op == 3 and len(container) > 1:
                j = r.randrange(len(container))
                container[key], container[j] = container[j], container[key]
            elif op == 4:
                del container[key:]  # truncate
            else:
                container[key] = self._changed(container[key])
        return rec

    def _renamed(self, key: Any) -> Any:
        r = self.rng
        if not isinstance(key, str):
            return r.choice(ODD_KEYS)
        return r.choice(
            [key.upper(), key.title(), key + " ", " " + key, key[:-1], key + "s", key.replace("_", "-"), key[::-1]]
            + [1, None, (key,), key.encode()]
        )

    def _changed(self, value: Any) -> Any:
        """A value near ``value``: the same type slightly wrong, or another type."""
        r = self.rng
        if r.random() < 0.3:
            return self.odd_value()
        if isinstance(value, bool):
            return r.choice([not value, int(value), str(value).lower(), None, float(value)])
        if isinstance(value, int) and abs(value) > 2**256:
            return r.choice([0, -1, 1, value, -value, None, 2**64])
        if isinstance(value, int):
            return r.choice(
                [value + 1, value - 1, -value - 1, value + 2**64, value - 2**64, float(value), str(value)[:4000],
                 np.int64(value), value * 10**30, True, None, 10**5000, value ^ 1, value + 19]
            )  # fmt: skip
        if isinstance(value, str):
            if value in GAMES or value in ("trains", "cross"):
                return r.choice(GAMES + ["trains", "cross", value.upper(), value + " ", None])
            return r.choice([self.text(value), self.text(value), value.upper(), value[::-1], value * 2, [value]])
        if isinstance(value, list):
            return r.choice([tuple(value), value[::-1], value + value, value[: len(value) // 2], [value], {}, None])
        if isinstance(value, dict):
            return r.choice([list(value.items()), list(value), {**value, **{1: 2}}, None, [value]])
        return self.odd_value()

    def _structured(self, rec: dict) -> bool:
        """Mutations that know the record's shape (tiles between hands and yard, the moves)."""
        r = self.rng
        deal = rec.get("deal")
        moves = rec.get("moves")
        if not isinstance(deal, dict):
            return False
        hands, yard = deal.get("hands"), deal.get("yard")
        if not isinstance(hands, list) or not isinstance(yard, list) or not all(isinstance(h, list) for h in hands):
            return False
        pools = [h for h in hands] + [yard]
        op = r.randrange(10)
        if op == 0:  # move a tile between pools (still a valid set: unequal hand sizes)
            src = r.choice([p for p in pools if p] or [yard])
            if src:
                r.choice(pools).insert(0, src.pop(r.randrange(len(src))))
        elif op == 1:  # duplicate a tile into another pool
            src = r.choice([p for p in pools if p] or [yard])
            if src:
                r.choice(pools).append(r.choice(src))
        elif op == 2:  # the centre into a hand as well, or swapped for a hand tile
            if hands and r.random() < 0.5:
                r.choice(hands).append(deal.get("centre"))
            elif any(hands):
                hand = r.choice([h for h in hands if h])
                i = r.randrange(len(hand))
                hand[i], deal["centre"] = deal.get("centre"), hand[i]
        elif op == 3:  # another seat count
            if r.random() < 0.5 and hands:
                yard.extend(hands.pop())
            else:
                hands.append([])
        elif op == 4 and isinstance(moves, list):  # a prefix of the moves (valid)
            del moves[r.randrange(len(moves) + 1) :]
        elif op == 5 and isinstance(moves, list) and moves:  # drop or swap a move
            i = r.randrange(len(moves))
            if r.random() < 0.5:
                del moves[i]
            else:
                j = r.randrange(len(moves))
                moves[i], moves[j] = moves[j], moves[i]
        elif op == 6 and isinstance(moves, list):  # extra moves at the end
            for _ in range(r.randrange(1, 4)):
                made_up = f"{r.randrange(19)}-{r.randrange(19)}@{r.randrange(40)}"
                moves.append(r.choice(["draw", "pass", "0-0@0", "9-9@0", made_up]))
        elif op == 7 and isinstance(moves, list) and moves:  # one move text corrupted
            i = r.randrange(len(moves))
            moves[i] = self.text(moves[i]) if isinstance(moves[i], str) else self.odd_value()
        elif op == 8:  # a tile written another way (valid or not)
            src = r.choice([p for p in pools if p] or [yard])
            if src:
                i = r.randrange(len(src))
                t = src[i]
                if isinstance(t, str) and "-" in t:
                    a, b = t.split("-", 1)
                    src[i] = r.choice([f"{b}-{a}", f" {a} - {b} ", f"0{a}-{b}", f"{a}-{b}-", self.text(t), [a, b]])
        else:  # starter / round_index nudged
            field = r.choice(["starter", "round_index"])
            holder = deal if field == "starter" else rec
            if field in holder:
                holder[field] = self._changed(holder[field])
        return True

    # ------------------------------------------------------------ texts

    def text(self, text: Any, rounds: int = 0) -> Any:
        """A mutated move (or tile) text."""
        if not isinstance(text, str):
            return text
        for _ in range(rounds or self.rng.choice([1, 1, 2, 3])):
            text = self._text_once(text)
        return text

    def _text_once(self, text: str) -> str:
        r = self.rng
        pos = r.randrange(len(text) + 1)
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        op = r.randrange(16)
        if op == 0 and digits:  # a digit replaced by a unicode digit
            i = r.choice(digits)
            return text[:i] + r.choice(UNICODE_DIGITS) + text[i + 1 :]
        if op == 1:
            return text[:pos] + r.choice(UNICODE_DIGITS) + text[pos:]
        if op == 2 and digits:  # a huge number
            i = r.choice(digits)
            return text[:i] + "1" * r.choice([3, 4, 5, 4300, 5000]) + text[i + 1 :]
        if op == 3:
            return text[:pos] + r.choice(BLANKS) + text[pos:]
        if op == 4:
            return "".join(c.upper() if r.random() < 0.5 else c.lower() for c in text)
        if op == 5:
            return text.replace("-", r.choice(SEPARATORS), 1)
        if op == 6:
            return text.replace("@", r.choice(ATS), 1)
        if op == 7 and digits:  # leading zeros (valid within 2 and 4 digits, not beyond)
            i = r.choice(digits)
            return text[:i] + "0" * r.randrange(1, 4) + text[i:]
        if op == 8:
            return text[:pos]
        if op == 9:
            return text[pos:]
        if op == 10:
            return text + r.choice(["", "@0", "-1", "@", "-", text])
        if op == 11:
            return r.choice(["+", "-", "0x", "\u200b", "\u202e", "\u0301"]) + text
        if op == 12 and digits:
            i = r.choice(digits)
            return text[:i] + r.choice(["-1", "+1", "1.0", "1e3", "1_0", "0b1", " 1"]) + text[i + 1 :]
        if op == 13:  # the blanks the grammar allows, anywhere
            return text[:pos] + r.choice([" ", "\t", " \t "]) + text[pos:]
        if op == 14:
            return r.choice(["draw", "pass", "DRAW", "Pass", " draw ", "dr\u0430w", "p\u0430ss", "\u212aill"])
        return text.replace(r.choice(text) if text else "x", "", 1)

    # ------------------------------------------------------------ pickles

    def pickle_bytes(self, blob: bytes) -> bytes:
        """Byte-level mutations of a pickle: most inside the payload of one
        opcode (a string, an int: the pickle stays readable and carries
        another value), the rest anywhere."""
        r = self.rng
        roll = r.random()
        if roll < 0.1:
            return self._pickle_stop_early(blob)
        if roll < 0.75:
            return self._pickle_payload(blob)
        data = bytearray(blob)
        for _ in range(r.choice([1, 1, 2, 3])):
            if not data:
                break
            i = r.randrange(len(data))
            op = r.randrange(7)
            if op == 0:
                data[i] ^= 1 << r.randrange(8)
            elif op == 1:
                data[i] = r.randrange(256)
            elif op == 2:
                data[i] = r.choice([0, 1, 0x7F, 0x80, 0xFF, ord("9"), ord("-"), ord("@")])
            elif op == 3:
                del data[i : i + r.randrange(1, 4)]
            elif op == 4:
                data[i:i] = bytes(r.randrange(256) for _ in range(r.randrange(1, 4)))
            elif op == 5:
                j = r.randrange(len(data))
                data[i:i] = data[j : j + r.randrange(1, 16)]
            else:
                data[i] = (data[i] + r.choice([-1, 1])) % 256
        return bytes(data)

    def _pickle_stop_early(self, blob: bytes) -> bytes:
        """The pickle cut at an opcode and ended there with STOP: it loads
        whatever is on top of the stack (a class, a method, an argument tuple)."""
        import pickletools

        try:
            starts = [pos for _, _, pos in pickletools.genops(blob)]
        except Exception:  # noqa: BLE001
            return blob
        # half the time in the first opcodes, where the reduce is being built
        cuts = starts[1:12] if self.rng.random() < 0.5 else starts[1:]
        return blob[: self.rng.choice(cuts or [len(blob)])] + b"."

    def _pickle_payload(self, blob: bytes) -> bytes:
        import pickletools

        r = self.rng
        try:
            ops = list(pickletools.genops(blob))
        except Exception:  # noqa: BLE001
            return blob
        spans = []
        for k, (op, arg, pos) in enumerate(ops[:-1]):
            if arg is None or op.name in ("PROTO", "FRAME", "MEMOIZE") or "PUT" in op.name or "GET" in op.name:
                continue
            end = ops[k + 1][2]
            prefix = {"SHORT_BINUNICODE": 1, "BINUNICODE": 4, "SHORT_BINBYTES": 1, "BINUNICODE8": 8, "LONG1": 1}
            start = pos + 1 + prefix.get(op.name, 0)
            if start < end:
                spans.append((op.name, start, end))
        if not spans:
            return blob
        data = bytearray(blob)
        for _ in range(r.choice([1, 1, 2])):
            name, start, end = r.choice(spans)
            i = r.randrange(start, end)
            if name in ("BININT1", "BININT2", "BININT", "LONG1") or r.random() < 0.3:
                data[i] = r.choice(
                    [0, 1, 2, 0x7F, 0x80, 0xFF, r.randrange(256), (data[i] + 1) % 256, (data[i] - 1) % 256]
                )
            else:
                data[i] = ord(r.choice("0123456789-@ \t xdrawpsDP")) if r.random() < 0.8 else r.randrange(0x20, 0x7F)
        return bytes(data)


def _main() -> None:  # pragma: no cover - a debugging aid
    import pickle
    import pprint
    import sys

    from dominocore.reference import ChickenFoot, Round

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    r = Round(ChickenFoot(players=2, set=6), seed=seed)
    for _ in range(5):
        r.push(r.legal_moves()[0])
    m = Mutator(seed)
    pprint.pprint(m.record(r.to_dict()))
    print(repr(m.text("2-9@0")))
    print(m.pickle_bytes(pickle.dumps(r)))


if __name__ == "__main__":
    _main()
