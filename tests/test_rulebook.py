"""The project's rule book says what the seed rule book says, and what the engine does.

``docs/rules.md`` (with ``docs/games/*.md``) is the normative rule book of the
product. For the seed games (Chicken Foot ``trains`` and ``cross``, Doubles) it
must state the same figures as the seed rule book, ``RULES.md``, which lives
outside the repository: found through ``DOMINOCORE_SHARED_RULES`` or at
``../shared/RULES.md`` beside the repository, and those comparisons skip when it
is absent (a plain clone has none). Both files are parsed by their numbered
headings ("## 1.6 ...", "### 2.6 ..."), since the section numbers are the same in
both while the wording is not.

The rest never skips: the generator's test vectors, hand sizes, reserves and
action-space sizes stated in ``docs/`` are what both implementations produce,
the README's links to the docs are absolute links to existing files and
headings, and nothing that ships cites the seed rule book.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
from fractions import Fraction
from typing import Callable, Dict, List, Optional, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REPOSITORY = "https://github.com/dominocore/dominocore"
BLOB = REPOSITORY + "/blob/main/"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
NUMBERED = re.compile(r"^(\d+(?:\.\d+)?|[A-Z]\d+)\.?\s")


# --------------------------------------------------------------------------- parsing


def _flat(text: str) -> str:
    """``text`` on one line, bold markers removed (the two books differ in both)."""
    return " ".join(text.replace("**", "").split())


class Book:
    """A markdown rule book cut at its numbered headings: ``sections["2.6"]`` is
    the text under "## 2.6 ..." (or "### 2.6 ...") up to the next heading."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        self.preamble_lines: List[str] = []
        self.sections: Dict[str, List[str]] = {}
        current: Optional[List[str]] = self.preamble_lines
        for line in path.read_text(encoding="utf-8").splitlines():
            heading = HEADING.match(line)
            if heading:
                number = NUMBERED.match(heading.group(2))
                if number:
                    current = self.sections.setdefault(number.group(1), [])
                elif self.sections:
                    current = None  # an unnumbered heading after the numbered ones

            elif current is not None:
                current.append(line)

    def __repr__(self) -> str:
        return f"Book({self.path})"

    def section(self, number: str) -> str:
        assert number in self.sections, f"{self.path} has no section {number}"
        return "\n".join(self.sections[number])

    def bullets(self, number: str) -> List[str]:
        """The top-level bullets of a section, each flattened to one line."""
        items: List[List[str]] = []
        inside = False
        for line in self.sections.get(number, []):
            if line.startswith("- "):
                items.append([line[2:]])
                inside = True
            elif inside and line.startswith(" ") and line.strip():
                items[-1].append(line)  # continued, or a nested list
            else:
                inside = False
        return [_flat(" ".join(item)) for item in items]

    def bullet(self, number: str, pattern: str) -> str:
        """The first bullet of section ``number`` matching the regex ``pattern``
        (leading markup such as a backtick is ignored)."""
        for item in self.bullets(number):
            if re.search(pattern, re.sub(r"^\W+", "", item), flags=re.I):
                return item
        raise AssertionError(f"{self.path} section {number}: no bullet matches {pattern!r}")

    def table(self) -> List[List[str]]:
        """The rows (cells) of the first table before section 1, header and rule left out."""
        rows = [line for line in self.preamble_lines if line.startswith("|")]
        return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _search(pattern: str, text: str, what: str, group: int = 1) -> str:
    match = re.search(pattern, text)
    assert match, f"{what}: {pattern!r} not found in {text!r}"
    return match.group(group)


def _code(text: str) -> List[str]:
    """The inline code spans of ``text``, whitespace normalised."""
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)]


def _players(listing: str) -> List[int]:
    """``"3 or 4"``, ``"2 to 4"``, ``"2"`` -> the player counts."""
    numbers = [int(n) for n in re.findall(r"\d+", listing)]
    if " to " in listing:
        return list(range(numbers[0], numbers[-1] + 1))
    return numbers


def hand_table(text: str) -> Dict[int, int]:
    """A hand-size table stated either as "2p 21, 3p 14" / "2 players 21, ..." or
    as "8 with 2 players, 6 with 3 or 4" / "15 tiles each with 2 to 4 players"."""
    table = {int(p): int(h) for p, h in re.findall(r"\b(\d+)\s*(?:p|players?)\s+(\d+)\b", text)}
    if table:
        return table
    for h, listing in re.findall(
        r"\b(\d+)(?: tiles?)?(?: each)? with (\d+(?:\s*(?:,|or|and|to)\s*\d+\b(?! (?:tiles? )?(?:each )?with))*)", text
    ):
        for p in _players(listing):
            table[p] = int(h)
    return table


def hand_size_bullet(book: Book, number: str) -> Tuple[int, Dict[int, int], str]:
    """Section ``number``'s hand sizes: (the set they are stated for, the
    table by players, the formula for other sets)."""
    text = book.bullet(number, r"^Hand size")
    stated_for = int(_search(r"double-(\d+)", text, f"{book} {number} hand size set"))
    formula = next((span for span in _code(text) if span.startswith("floor(")), "")
    return stated_for, hand_table(text), formula


def reserve(book: Book, number: str) -> Dict[str, int]:
    """Section ``number``'s yard reserve: ``{"2": 2, "3+": 1}`` per player count,
    or ``{"any": n}`` when it does not depend on the players."""
    rest = _search(r"Yard reserve\W*(.*)", _flat(book.section(number)), f"{book} {number} reserve")[:120]
    pairs = re.findall(r"\b(\d+) tiles? with (\d+)( or more)?", rest)
    if pairs:
        return {players + ("+" if more else ""): int(n) for n, players, more in pairs}
    return {"any": int(_search(r"(\d+)", rest, f"{book} {number} reserve"))}


def drawn_tile(book: Book, number: str) -> str:
    return _search(r'drawn_tile = "(\w+)"', book.section(number), f"{book} {number} drawn_tile")


def seed_games(book: Book) -> Dict[Tuple[str, ...], Dict[str, object]]:
    """The opening table: per (game id, rule set), the origin text, the default
    set, the allowed sets and the player range."""
    games: Dict[Tuple[str, ...], Dict[str, object]] = {}
    for cells in book.table():
        key = tuple(re.findall(r"`(\w+)`", cells[0]))
        row = " | ".join(cells)
        set_cell = next(cell for cell in cells if "double-" in cell)
        origin = re.search(r"(?<!\d)(\d{3})(?!\d)", row)
        games[key] = {
            "origin text": origin.group(1) if origin else None,
            "default set": int(_search(r"double-(\d+)", set_cell, f"{book} {key} set")),
            "allowed sets": tuple(int(n) for n in re.findall(r"(\d+)\.\.(\d+)", set_cell)[0]),
            "players": tuple(int(n) for n in re.findall(r"(\d+)\s*(?:-|to)\s*(\d+)", cells[-1])[0]),
        }
    return games


def tile_counts(book: Book) -> Dict[int, int]:
    """Section 1.1's tile counts T by N: "28, 55, ... for N = 6, 9, ..." or
    "28 for double-6, 55 for double-9, ..."."""
    text = _flat(book.section("1.1"))
    listed = re.search(r"((?:\d+, )+\d+) for N = ((?:\d+, )+\d+)", text)
    if listed:
        counts = [int(n) for n in listed.group(1).split(", ")]
        sets = [int(n) for n in listed.group(2).split(", ")]
        return dict(zip(sets, counts))
    return {int(n): int(t) for t, n in re.findall(r"\b(\d+) for double-(\d+)", text)}


def tile_indices(book: Book) -> Dict[str, int]:
    """Section 1.1's example indices: "0-0 is 0" or "0-0 has index 0"."""
    text = _flat(book.section("1.1"))
    return {tile: int(i) for tile, i in re.findall(r"\b(\d+-\d+) (?:is|has)(?: index)? (\d+)\b", text)}


def generator_vectors(book: Book) -> Dict[int, List[int]]:
    """Section 1.6's test vectors: the first outputs by seed."""
    text = book.bullet("1.6", r"^Test vectors")
    found = re.findall(r"seed(?:ed with)? (\d+)\D*?((?:0x[0-9a-fA-F]{16}[`,\s]*)+)", text, flags=re.I)
    return {int(seed): [int(h, 16) for h in re.findall(r"0x[0-9a-fA-F]{16}", hexes)] for seed, hexes in found}


def shuffle_vector(book: Book) -> Tuple[int, int, List[int]]:
    """Section 1.6's shuffle vector: (number of indices, seed, the shuffled order)."""
    text = book.bullet("1.6", r"^Test vectors")
    n = int(_search(r"the (\d+) indices", text, f"{book} shuffle vector size"))
    seed = int(_search(r"seed(?:-| |ed with )(\d+) (?:generator|that)", text, f"{book} shuffle vector seed"))
    order = [int(i) for i in _search(r"`((?:\d+ ){5,}\d+)`", text, f"{book} shuffle vector").split()]
    return n, seed, order


def generator_constants(book: Book) -> Dict[str, object]:
    """Section 1.6's definition of SplitMix64, ``below``, ``shuffle``, the random
    player's seed and the seeds of batches."""
    return {
        "next() constants": [int(h, 16) for h in re.findall(r"0x[0-9A-Fa-f]+", book.bullet("1.6", r"^Generator"))],
        "next() shifts": [int(n) for n in re.findall(r">> (\d+)", book.bullet("1.6", r"^Generator"))],
        "below(n)": [span for span in _code(book.bullet("1.6", r"^below")) if span.startswith("t =")],
        "shuffle": [span for span in _code(book.bullet("1.6", r"^shuffle")) if "below" in span],
        "random play seed": re.findall(r"seed XOR 0x[0-9A-Fa-f]+", book.bullet("1.6", r"^Random play")),
        "seeds in batches": _code(book.bullet("1.6", r"^Seeds in batches")),
    }


def action_ids(book: Book) -> Dict[str, str]:
    """Section 1.8's action ids, as the formulas written there."""
    text = _flat(book.section("1.8"))
    what = f"{book} 1.8"
    return {
        "low half": _search(r"low(?:er)? half[^`]*?`([^`]+)`", text, what),
        "high half": _search(r"high(?:er)? half[^`]*?`([^`]+)`", text, what),
        "double": _search(r"double (?:always )?uses `([^`]+)`", text, what),
        "Draw": _search(r"`Draw` (?:is|has id) `([^`]+)`", text, what),
        "Pass": _search(r"`Pass` (?:is|has id) `([^`]+)`", text, what),
        "space": _search(r"(\d\*T \+ \d+) ids", text, what),
    }


def seed_figures(book: Book) -> Dict[str, object]:
    """Every figure of the seed games that both rule books state, by name."""
    figures: Dict[str, object] = {}
    for key, row in seed_games(book).items():
        for name, value in row.items():
            figures[f"game {'/'.join(key)}: {name}"] = value
    figures["1.1 tile count T by set N"] = tile_counts(book)
    figures["1.1 index formula"] = [s for s in _code(book.section("1.1")) if s.startswith("index(")]
    figures["1.1 example indices"] = tile_indices(book)
    figures["1.1 double_blank_50 value"] = int(
        _search(r"\b(\d+) (?:instead of|rather than) 0\b", _flat(book.section("1.1")), f"{book} 1.1")
    )
    for name, value in generator_constants(book).items():
        figures[f"1.6 {name}"] = value
    figures["1.6 test vectors"] = generator_vectors(book)
    figures["1.6 shuffle vector"] = shuffle_vector(book)
    for name, value in action_ids(book).items():
        figures[f"1.8 action id: {name}"] = value
    figures["2.1 rounds in a match"] = _search(r"(N\s*\+\s*1) rounds", _flat(book.section("2.1")), f"{book} 2.1")
    figures["2.3 toes of a chicken foot"] = _search(r"(\w+) toes", _flat(book.section("2.3")), f"{book} 2.3")
    # 2.6 trains
    stated_for, table, formula = hand_size_bullet(book, "2.6")
    figures["2.6 trains: hand sizes stated for double-"] = stated_for
    figures["2.6 trains: hand size by players"] = table
    figures["2.6 trains: hand size formula"] = formula
    figures["2.6 trains: yard reserve"] = reserve(book, "2.6")
    slots = book.bullet("2.6", r"^Slots")
    figures["2.6 trains: most trains"] = _search(r"min\((\d+), N\)", slots, f"{book} 2.6 slots")
    figures["2.6 trains: default trains"] = _search(r"default (\w+)", slots, f"{book} 2.6 slots")
    figures["2.6 trains: drawn_tile"] = drawn_tile(book, "2.6")
    # 2.7 cross
    figures["2.7 cross: hand size"] = int(
        _search(r"(\d+)", book.bullet("2.7", r"^Hand size")[len("Hand size") :], f"{book} 2.7")
    )
    figures["2.7 cross: slots"] = int(_search(r"S = (\d+)", book.bullet("2.7", r"^Slots"), f"{book} 2.7 slots"))
    figures["2.7 cross: yard reserve"] = reserve(book, "2.7")
    figures["2.7 cross: drawn_tile"] = drawn_tile(book, "2.7")
    # 3 doubles
    stated_for, table, formula = hand_size_bullet(book, "3")
    figures["3 doubles: hand sizes stated for double-"] = stated_for
    figures["3 doubles: hand size by players"] = table
    figures["3 doubles: hand size formula"] = formula
    figures["3 doubles: yard reserve"] = reserve(book, "3")
    figures["3 doubles: drawn_tile"] = drawn_tile(book, "3")
    spinners = book.bullet("3", r"^Spinners")
    figures["3 doubles: open ends of the start double"] = int(
        _search(r"(\d+) open ends of its number", spinners, f"{book} 3 spinners")
    )
    figures["3 doubles: open ends of a spinner"] = int(
        _search(r"(\d+) (?:open )?ends of number d", spinners, f"{book} 3 spinners")
    )
    figures["3 doubles: default target"] = int(
        _search(r"default (\d+)", book.bullet("3", r"^(?:The )?match\b"), f"{book} 3 match")
    )
    return figures


def _evaluate(formula: str, **names: int) -> int:
    """A hand-size formula as the docs write it (``floor(h * (T - 1) / 90)``),
    evaluated exactly; only ``floor``, + - * /, integers and ``names``."""
    operators: Dict[type, Callable[[Fraction, Fraction], Fraction]] = {
        ast.Add: lambda a, b: a + b,
        ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b,
    }

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return Fraction(node.value)
        if isinstance(node, ast.Name):
            return Fraction(names[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in operators:
            return operators[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "floor":
            return Fraction(walk(node.args[0]).__floor__())
        raise AssertionError(f"unexpected {ast.dump(node)} in the formula {formula!r}")

    value = walk(ast.parse(formula.replace("table[p]", "h"), mode="eval"))
    assert value.denominator == 1
    return int(value)


# --------------------------------------------------------------------------- the two books


OURS = Book(DOCS / "rules.md")


def _shared_rules() -> Book:
    """The seed rule book, or a skip saying where it was looked for."""
    env = os.environ.get("DOMINOCORE_SHARED_RULES")
    if env:
        path = pathlib.Path(env)
        assert path.is_file(), f"DOMINOCORE_SHARED_RULES={env} names no file"
        return Book(path)
    path = ROOT.parent / "shared" / "RULES.md"
    if not path.is_file():
        pytest.skip(
            f"the seed rule book is not here ({path} is absent and DOMINOCORE_SHARED_RULES is unset): "
            "docs/rules.md cannot be compared with it"
        )
    return Book(path)


@pytest.fixture(scope="module")
def seed_book() -> Book:
    return _shared_rules()


def test_every_seed_section_has_its_counterpart(seed_book):
    """The section numbers of RULES.md are those of docs/rules.md (citations use them)."""
    missing = sorted(set(seed_book.sections) - set(OURS.sections))
    assert not missing, f"docs/rules.md lacks the sections {missing} of {seed_book.path}"


def test_the_seed_games_are_the_same(seed_book):
    seed, ours = seed_games(seed_book), seed_games(OURS)
    assert seed, f"no game table in {seed_book.path}"
    for key, row in seed.items():
        assert key in ours, f"docs/rules.md's opening table has no row for {'/'.join(key)}"
        assert ours[key] == row, f"{'/'.join(key)}: docs/rules.md says {ours[key]}, {seed_book.path} says {row}"


SEED_FIGURES = [
    "1.1 tile count T by set N",
    "1.1 index formula",
    "1.1 example indices",
    "1.1 double_blank_50 value",
    "1.6 next() constants",
    "1.6 next() shifts",
    "1.6 below(n)",
    "1.6 shuffle",
    "1.6 random play seed",
    "1.6 seeds in batches",
    "1.6 test vectors",
    "1.6 shuffle vector",
    "1.8 action id: low half",
    "1.8 action id: high half",
    "1.8 action id: double",
    "1.8 action id: Draw",
    "1.8 action id: Pass",
    "1.8 action id: space",
    "2.1 rounds in a match",
    "2.3 toes of a chicken foot",
    "2.6 trains: hand sizes stated for double-",
    "2.6 trains: hand size by players",
    "2.6 trains: hand size formula",
    "2.6 trains: yard reserve",
    "2.6 trains: most trains",
    "2.6 trains: default trains",
    "2.6 trains: drawn_tile",
    "2.7 cross: hand size",
    "2.7 cross: slots",
    "2.7 cross: yard reserve",
    "2.7 cross: drawn_tile",
    "3 doubles: hand sizes stated for double-",
    "3 doubles: hand size by players",
    "3 doubles: hand size formula",
    "3 doubles: yard reserve",
    "3 doubles: drawn_tile",
    "3 doubles: open ends of the start double",
    "3 doubles: open ends of a spinner",
    "3 doubles: default target",
]


@pytest.fixture(scope="module")
def both_figures(seed_book):
    return seed_figures(seed_book), seed_figures(OURS)


@pytest.mark.parametrize("name", SEED_FIGURES)
def test_the_rule_books_state_the_same_figure(both_figures, seed_book, name):
    seed, ours = both_figures
    assert seed[name] not in (None, "", [], {}), f"{seed_book.path}: {name} not found"
    assert ours[name] == seed[name], f"{name}: docs/rules.md says {ours[name]!r}, {seed_book.path} says {seed[name]!r}"


def test_every_figure_is_compared():
    assert set(SEED_FIGURES) == {name for name in seed_figures(OURS) if not name.startswith("game ")}


# --------------------------------------------------------------------------- the docs against the engine


def test_generator_vectors_are_what_the_generator_gives(dc):
    vectors = generator_vectors(OURS)
    assert sorted(vectors) == [0, 42], f"docs/rules.md 1.6 states vectors for the seeds {sorted(vectors)}"
    for seed, expected in vectors.items():
        generator = dc.SplitMix64(seed)
        got = [generator.next() for _ in expected]
        assert got == expected, (
            f"seed {seed}: docs/rules.md 1.6 says {list(map(hex, expected))}, got {list(map(hex, got))}"
        )
    n, seed, expected_order = shuffle_vector(OURS)
    order = list(range(n))
    dc.SplitMix64(seed).shuffle(order)
    assert order == expected_order, f"shuffling 0..{n - 1} with seed {seed}: docs/rules.md 1.6 says {expected_order}"


def _game_page(name: str) -> Book:
    return Book(DOCS / "games" / name)


# (rules factory, the book and section stating its hand sizes, the players it allows)
HAND_SIZES = {
    "trains": (lambda dc, **kw: dc.ChickenFoot(rule_set="trains", **kw), "rules.md", "2.6", range(2, 9)),
    "doubles": (lambda dc, **kw: dc.Doubles(**kw), "rules.md", "3", range(2, 5)),
    "block": (lambda dc, **kw: dc.Block(**kw), "block.md", "B1", range(2, 5)),
    "mexican_train": (lambda dc, **kw: dc.MexicanTrain(**kw), "mexican_train.md", "M1", range(2, 9)),
}


@pytest.mark.parametrize("game", sorted(HAND_SIZES))
def test_hand_sizes_are_what_the_rules_deal(dc, game):
    """The table of hand sizes, and the formula for other sets, for every set and player count."""
    make, page, number, players = HAND_SIZES[game]
    book = OURS if page == "rules.md" else _game_page(page)
    stated_for, table, formula = hand_size_bullet(book, number)
    assert sorted(table) == list(players), f"{page} {number}: the hand sizes cover {sorted(table)} players"
    assert formula, f"{page} {number}: no formula for other sets"
    wrong = []
    for p in players:
        for n in range(6, 19):
            if game == "trains" and p > n:
                continue  # too few trains for the players (2.6)
            t = (n + 1) * (n + 2) // 2
            says = table[p] if n == stated_for else _evaluate(formula, h=table[p], T=t)
            gives = make(dc, players=p, set=n).hand_size
            if says != gives:
                wrong.append(f"double-{n}, {p} players: {says} != {gives}")
    assert not wrong, f"{page} {number} ({formula} off double-{stated_for}) says (left), the rules give (right): " + (
        "; ".join(wrong)
    )


def test_seed_figures_are_what_the_rules_say(dc):
    """docs/rules.md's tile counts, reserves, slots, drawing rules, the cross's
    hand size, the Doubles target and the action-space sizes (with M7's) against
    the rules objects."""
    figures = seed_figures(OURS)
    stated: Dict[str, object] = {}
    given: Dict[str, object] = {}

    def check(name: str, says: object, gives: object) -> None:
        stated[name], given[name] = says, gives

    for n, t in figures["1.1 tile count T by set N"].items():
        check(f"rules.md 1.1: tiles in double-{n}", t, dc.ChickenFoot(set=n).tile_count)
    reserves = figures["2.6 trains: yard reserve"]
    for p in range(2, 9):
        trains = dc.ChickenFoot(players=p)
        check(f"rules.md 2.6: reserve, {p} players", reserves[str(p) if p == 2 else "3+"], trains.reserve)
        check(f"rules.md 2.6: default trains, {p} players", p, trains.slots)
        check(f"rules.md 2.6: drawn_tile, {p} players", figures["2.6 trains: drawn_tile"], trains.drawn_tile)
        # the most trains the rules accept: that many is taken, one more is refused
        most = int(str(figures["2.6 trains: most trains"]))
        check(f"rules.md 2.6: most trains, {p} players", most, dc.ChickenFoot(players=p, set=18, trains=most).slots)
        with pytest.raises(dc.RulesError):
            dc.ChickenFoot(players=p, set=18, trains=most + 1)
        cross = dc.ChickenFoot(players=p, rule_set="cross", set=18)
        check(f"rules.md 2.7: hand size, {p} players", figures["2.7 cross: hand size"], cross.hand_size)
        check(f"rules.md 2.7: slots, {p} players", figures["2.7 cross: slots"], cross.slots)
        check(f"rules.md 2.7: reserve, {p} players", figures["2.7 cross: yard reserve"], {"any": cross.reserve})
        check(f"rules.md 2.7: drawn_tile, {p} players", figures["2.7 cross: drawn_tile"], cross.drawn_tile)
    doubles = dc.Doubles()
    check("rules.md 3: reserve", figures["3 doubles: yard reserve"], {"any": doubles.reserve})
    check("rules.md 3: drawn_tile", figures["3 doubles: drawn_tile"], doubles.drawn_tile)
    check("rules.md 3: default target", figures["3 doubles: default target"], doubles.target)
    sizes = re.findall(r"\b(\d+) for double-(\d+)\b", _flat(OURS.section("1.8")))
    assert sizes, "docs/rules.md 1.8 gives no example size of the action space"
    for size, n in sizes:
        check(f"rules.md 1.8: actions on double-{n}", int(size), dc.ChickenFoot(set=int(n)).num_actions)
    m7 = _flat(_game_page("mexican_train.md").section("M7"))
    found = re.search(r"`num_actions`\W*(\d+) for (\d+) players on double-(\d+)", m7)
    assert found, "mexican_train.md M7 gives no example size of the action space"
    size, p, n = (int(x) for x in found.groups())
    check(
        f"mexican_train.md M7: actions, {p} players on double-{n}", size, dc.MexicanTrain(players=p, set=n).num_actions
    )
    wrong = {name: (stated[name], given[name]) for name in stated if stated[name] != given[name]}
    assert not wrong, "the docs state (left) what the rules objects do not give (right): " + "; ".join(
        f"{name}: {says!r} != {gives!r}" for name, (says, gives) in wrong.items()
    )


# --------------------------------------------------------------------------- what ships


def github_anchors(path: pathlib.Path) -> set:
    """The anchors GitHub gives the headings of a markdown file."""
    anchors: set = set()
    seen: Dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(2).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_readme_links_work_on_a_package_index():
    """Links in the README are absolute (a package index page has no docs/ beside
    it) and those into the repository name a file and heading that exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r"<(https?://[^>]+)>", readme)
    assert targets
    relative = [t for t in targets if not re.match(r"https?://", t)]
    assert not relative, f"relative links in README.md: {relative}"
    for target in targets:
        if not target.startswith(BLOB):
            continue
        path, _, anchor = target[len(BLOB) :].partition("#")
        assert (ROOT / path).is_file(), f"README.md links {target}: {path} is not in the repository"
        if anchor:
            assert anchor in github_anchors(ROOT / path), f"README.md links {target}: no such heading in {path}"
    assert REPOSITORY in readme


def test_nothing_that_ships_cites_the_seed_rule_book():
    """Users never have ../shared: the product cites docs/rules.md instead."""
    shipped = [ROOT / "README.md", ROOT / "pyproject.toml"]
    shipped += sorted(DOCS.rglob("*.md")) + sorted((ROOT / "python").rglob("*.py"))
    shipped += sorted(p for p in (ROOT / "cpp").rglob("*") if p.is_file())
    for path in shipped:
        text = path.read_text(encoding="utf-8", errors="replace")
        for needle in ("RULES.md", "../shared", "shared/RULES", "shared/seeds"):
            assert needle not in text, f"{path.relative_to(ROOT)} cites {needle}"
