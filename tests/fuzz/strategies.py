"""Hypothesis strategies for the fuzzers: configurations, seeds, garbage values, move texts."""

from __future__ import annotations

import decimal
import fractions
import random

import numpy as np
from contract import Index
from hypothesis import strategies as st

#: (game, options): small and large sets, every rule set, odd hand sizes.
CONFIGS = {
    "trains": [
        ("chickenfoot", dict(players=4, set=9, rule_set="trains")),
        ("chickenfoot", dict(players=2, set=6, rule_set="trains", trains=3)),
        ("chickenfoot", dict(players=2, set=6, rule_set="trains", hand_size=1)),
        ("chickenfoot", dict(players=8, set=18, rule_set="trains", double_blank_50=True)),
        ("chickenfoot", dict(players=3, set=12, rule_set="trains", trains=5, hand_size=20)),
    ],
    "cross": [
        ("chickenfoot", dict(players=3, set=9, rule_set="cross")),
        ("chickenfoot", dict(players=2, set=6, rule_set="cross", hand_size=1)),
        ("chickenfoot", dict(players=2, set=6, rule_set="cross", hand_size=14)),
        ("chickenfoot", dict(players=5, set=15, rule_set="cross")),
        ("chickenfoot", dict(players=8, set=18, rule_set="cross", hand_size=23)),
    ],
    "doubles": [
        ("doubles", dict(players=2, set=6)),
        ("doubles", dict(players=2, set=6, hand_size=13, target=1)),
        ("doubles", dict(players=4, set=12)),
        ("doubles", dict(players=3, set=18, hand_size=2)),
        ("doubles", dict(players=4, set=9, hand_size=1)),
    ],
    "block": [
        ("block", dict(players=2, set=6)),
        ("block", dict(players=4, set=6, lead="highest_double")),
        ("block", dict(players=3, set=12, hand_size=1, target=1)),
        ("block", dict(players=4, set=6, hand_size=7, teams=2, team_scoring="fewer_pips")),
        ("block", dict(players=4, set=9, hand_size=10, teams=2, lead="puerto_rico", target=30)),
        ("block", dict(players=2, set=18, hand_size=95)),
    ],
    "mexican_train": [
        ("mexican_train", dict(players=4, set=12)),
        ("mexican_train", dict(players=2, set=6, hand_size=1)),
        ("mexican_train", dict(players=8, set=9, drawn_tile="may", double_blank_50=True)),
        ("mexican_train", dict(players=3, set=18, hand_size=63)),
    ],
    "fives": [
        ("all_fives", dict(players=2, set=6)),
        ("all_fives", dict(players=4, set=9, teams=2, sides_open="at_once", target=40)),
        ("all_fives", dict(players=3, set=12, hand_size=1, reserve=0, draw="one", target=1)),
        ("fives_and_threes", dict(players=2, set=6)),
        ("fives_and_threes", dict(players=4, set=6, teams=2, spinner="first", end_in_play=False, target=5)),
        ("fives_and_threes", dict(players=2, set=18, hand_size=95, reserve=0)),
    ],
}
ALL_CONFIGS = [c for family in CONFIGS.values() for c in family]


def make_rules(dc, config):
    """``config``'s rules object in implementation ``dc``."""
    game, options = config
    return dc.rules_from_dict({"game": game, **options})


def played_round(dc, rules, seed: int, moves: int):
    """A round of ``dc`` dealt with ``seed`` (its round index ``seed`` modulo
    the rounds of a match, where rounds have an index) after ``moves`` moves of
    a ``random.Random(seed)`` player, or to its end."""
    index = seed % (rules.set + 1) if rules.rounds is not None else 0
    r = dc.Round(rules, seed=seed, round_index=index)
    rng = random.Random(seed)
    for _ in range(moves):
        if r.is_over:
            break
        r.push(rng.choice(r.legal_moves()))
    return r


SPECIAL_INTS = [
    0, 1, -1, 2, 3, 4, 5, 8, 9, 18, 19, 255, 256, 4095, 4096, 2**15, 2**31 - 1, 2**31, 2**32, 2**40, 2**40 + 1,
    2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, -(2**64), 10**30, -(10**30),
]  # fmt: skip


class Huge:
    """Stands for ``sign * 10**5000`` (with ``sign=0``, the text of 5,000
    ones; with ``sign=2``, the list ``[10**5000]``) in hypothesis' draws,
    whose printing would fail on the int itself (repr() of a 5,001-digit int
    raises ValueError since Python 3.11) and drown the report in digits for
    the text; ``real()`` makes the value at call time."""

    def __init__(self, sign: int = 1) -> None:
        self.sign = sign

    def __repr__(self) -> str:
        return f"Huge({self.sign})"


def real(value):
    """The value a drawn ``value`` stands for (see ``Huge``)."""
    if isinstance(value, Huge):
        if value.sign == 2:
            return [10**5000]
        return "1" * 5000 if value.sign == 0 else value.sign * 10**5000
    return value


seeds = st.one_of(st.integers(0, 2**64 - 1), st.sampled_from([0, 1, 2**63, 2**64 - 1]))


def numpy_int(value: int, pick: int = 0):
    """``value`` as a numpy integer of a type that holds it (or the int itself)."""
    types = [np.int64, np.int32, np.uint64, np.int16, np.uint8, np.intp]
    fitting = [t for t in types if np.iinfo(t).min <= value <= np.iinfo(t).max]
    return fitting[pick % len(fitting)](value) if fitting else value


def int_forms(value: int):
    """Strategy: ``value`` as an int, a numpy integer, a 0-d numpy array or an ``__index__`` object."""
    return st.sampled_from(
        [
            value,
            numpy_int(value, 0),
            numpy_int(value, 1),
            numpy_int(value, 2),
            Index(value),
            np.array(numpy_int(value)) if isinstance(numpy_int(value), np.integer) else value,
        ]
    )


def not_integers():
    """Values that are not integers in the contract's sense (bools, floats, strings, ...)."""
    return st.one_of(
        st.booleans(),
        st.sampled_from([np.bool_(True), np.bool_(False)]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([2.0, 0.0, -0.0, 1e300, np.float64(3.0), np.float32(1.0)]),
        st.integers(-5, 300).map(str),
        st.text(max_size=6),
        st.sampled_from(
            [
                None,
                b"1",
                bytearray(b"2"),
                [1],
                (2,),
                {3},
                {"a": 1},
                object(),
                complex(1, 0),
                fractions.Fraction(2, 1),
                decimal.Decimal(3),
                "²",
                "\uff11",
                Huge(0),
                Huge(2),
                np.array([1, 2]),
                range(3),
                Ellipsis,
                NotImplemented,
                type,
            ]
        ),  # fmt: skip
    )


def integers_any():
    """Every kind of integer, in and far out of any range (``Huge`` stands for 10**5000: see ``real``)."""
    return st.one_of(
        st.integers(-10, 300).flatmap(int_forms),
        st.integers().flatmap(int_forms),
        st.sampled_from(SPECIAL_INTS).flatmap(int_forms),
        st.sampled_from([Huge(1), Huge(-1)]),
    )


def garbage():
    """Anything at all that an integer argument might be handed."""
    return st.one_of(integers_any(), not_integers())


# ------------------------------------------------------------------ move texts

UNICODE_DIGITS = ["²", "³", "¹", "\uff10", "\uff19", "\u0663", "\u0966", "\u07c0", "\u2460", "\U0001d7ce", "\u00bd"]
ODD_BLANKS = ["\n", "\r", "\x0b", "\x0c", "\u00a0", "\u2003", "\u3000", "\u200b", "\ufeff", "\x00", "\u202e"]
SEPARATORS = ["-", "\u2013", "\u2014", "\u2212", "\u2010", "_", "~", "", "--", "@", "\uff0d", ":"]
ATS = ["@", "\uff20", "@@", "", " at ", "#", "-"]


def legal_text_forms(text: str):
    """Strategy: ``text`` (a move's str()) rewritten in ways the grammar accepts:
    blanks (spaces, tabs) around each token, leading zeros within the digit
    limits, halves swapped, ASCII case of the words."""

    @st.composite
    def build(draw):
        blank = st.text(alphabet=" \t", max_size=3)
        if "@" not in text:
            word = "".join(c.upper() if draw(st.booleans()) else c for c in text)
            return draw(blank) + word + draw(blank)
        tile, end = text.split("@")
        a, b = tile.split("-")
        if draw(st.booleans()):
            a, b = b, a
        a = a.zfill(draw(st.integers(len(a), 2)))
        b = b.zfill(draw(st.integers(len(b), 2)))
        end = end.zfill(draw(st.integers(len(end), 4)))
        parts = [a, "-", b, "@", end]
        return draw(blank) + "".join(p + draw(blank) for p in parts)

    return build()


@st.composite
def move_texts(draw, tiles_max: int = 18):
    """Move texts, well formed or not: valid texts with any numbers, and
    near-misses (unicode digits, odd blanks and separators, long numbers)."""
    a = draw(st.integers(0, 25))
    b = draw(st.integers(0, 25))
    end = draw(st.one_of(st.integers(0, 40), st.integers(0, 5000), st.sampled_from([4095, 4096, 10**4, 99999])))
    base = draw(
        st.sampled_from(
            [
                f"{a}-{b}@{end}",
                "draw",
                "pass",
                f"{a}-{b}",
                f"@{end}",
                f"{a}@{end}",
                f"-{a}-{b}@{end}",
                f"{a}-{b}@-{end}",
                f"{a}-{b}@+{end}",
                f"{a}-{b}@{end}@{end}",
                f"{a}-{b}-{a}@{end}",
                f"0{a:02d}-{b}@{end}",
                f"{a}-{b}@0{end:04d}",
                f"{a}-{b}@1111111111111",
                f"{a}-{b}@{end}{end}{end}{end}",
                f"999-{b}@{end}",
                f"{a}.0-{b}@{end}",
                f"{a}-{b}@{end}.0",
                f"{a}-{b}@1_0",
                f"{a}-{b}@0x1f",
                "draw pass",
                "dr aw",
                "drawx",
                "",
                " ",
            ]
        )
    )
    text = base
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.integers(0, 6))
        pos = draw(st.integers(0, len(text)))
        if op == 0:
            text = text[:pos] + draw(st.sampled_from(UNICODE_DIGITS)) + text[pos:]
        elif op == 1:
            text = text[:pos] + draw(st.sampled_from(ODD_BLANKS + [" ", "\t"])) + text[pos:]
        elif op == 2:
            text = text.replace("-", draw(st.sampled_from(SEPARATORS)), 1)
        elif op == 3:
            text = text.replace("@", draw(st.sampled_from(ATS)), 1)
        elif op == 4:
            text = "".join(c.upper() if draw(st.booleans()) else c for c in text)
        elif op == 5:
            text = text[:pos]
        else:
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = draw(st.sampled_from(digits))
                text = text[:i] + draw(st.sampled_from(UNICODE_DIGITS)) + text[i + 1 :]
    return text


def any_text():
    return st.one_of(move_texts(), st.text(max_size=12), st.text(alphabet="0123456789-@ \tdrawpsDRAWPS", max_size=12))
