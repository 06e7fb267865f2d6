"""The shape of the package (docs/architecture.md): no import cycles, no
import placed inside a function (but the optional extras, loaded when
asked for), and modules of bounded size. The layers themselves are
import-linter's contracts in pyproject.toml (``lint-imports``, run by
pre-commit in CI); this checks what those contracts do not.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

import pytest
from helpers import needs_core

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, "python")
CPP = os.path.join(ROOT, "cpp")

#: Most lines of a Python module of the package, and of a C++ file (tests aside).
PYTHON_LIMIT = 600
CPP_LIMIT = 700

#: Imports allowed inside a function: optional extras, loaded when a feature asks for them.
OPTIONAL_EXTRAS = {
    "ray", "pyarrow", "pyarrow.parquet", "pyspiel", "open_spiel", "pettingzoo", "gymnasium",
    "torch", "matplotlib", "matplotlib.pyplot",  # the [train] extra (docs/learning.md)
    "uvicorn", "dominocore.serve",  # the [web] extra, and the server built on it (docs/serve.md)
}  # fmt: skip
#: ... and the console script's import of the command line, inside main() on purpose:
#: a package that fails to import (a bad DOMINOCORE_IMPLEMENTATION) is then one line.
ENTRY_POINT = ("_dominocore_cli/__init__.py", "dominocore.cli")


def python_files():
    for folder, _, names in os.walk(PYTHON):
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.join(folder, name)


def test_no_import_cycles():
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (the lint extra)")
    graph = grimp.build_graph("dominocore", "_dominocore_cli", exclude_type_checking_imports=True)
    # The one import of the compiled extension (native/codec.py): a binary the
    # graph cannot see, so it shows as an import of the package itself.
    graph.remove_import(importer="dominocore.native.codec", imported="dominocore")
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if graph.chain_exists(importer=imported, imported=module):
                cycles.append(f"{module} -> {imported} -> ... -> {module}")
    assert cycles == []


def test_no_import_inside_a_function():
    found = []
    for path in python_files():
        tree = ast.parse(open(path, encoding="utf-8").read())
        top = {id(node) for node in tree.body}
        for node in tree.body:  # module-level `if TYPE_CHECKING:` and `try:` blocks are top level too
            if isinstance(node, (ast.If, ast.Try)):
                top.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                where = os.path.relpath(path, PYTHON)
                if all(n in OPTIONAL_EXTRAS for n in names) or (where, names[0]) == ENTRY_POINT:
                    continue
                found.append(f"{where}:{node.lineno} imports {names} inside a function")
    assert found == []


def test_the_services_import_no_engine_code():
    """Records, tournaments and the renderers sit above both engines: they never
    import the reference (not even for type checkers), so the compiled side can
    borrow nothing of the oracle's engine code."""
    found = []
    for name in ("record.py", "tournaments.py", "tournament_result.py", "text.py", "svg.py", "svg_layout.py"):
        tree = ast.parse(open(os.path.join(PYTHON, "dominocore", name), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n == "reference" or ".reference" in n or n.startswith("reference") for n in names):
                found.append(f"{name}:{node.lineno}")
    assert found == []


def line_count(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def test_python_modules_stay_small():
    big = {os.path.relpath(p, PYTHON): line_count(p) for p in python_files() if line_count(p) > PYTHON_LIMIT}
    assert big == {}


def test_cpp_files_stay_small():
    big = {}
    for folder, _, names in os.walk(CPP):
        if os.path.relpath(folder, CPP).split(os.sep)[0] == "tests":
            continue
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith((".cpp", ".hpp")) and line_count(path) > CPP_LIMIT:
                big[os.path.relpath(path, CPP)] = line_count(path)
    assert big == {}


@pytest.mark.skipif(sys.platform == "win32", reason="lint-imports is run by CI's pre-commit on Linux")
def test_the_layer_contracts_hold():
    pytest.importorskip("importlinter", reason="import-linter is in the lint extra")
    script = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run([script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]


# ------------------------------------------------------- every game in one place

#: Game ids: the one list of games (dominocore.games).
GAME_IDS = ("chickenfoot", "doubles", "block", "mexican_train", "all_fives", "fives_and_threes")
#: The files of a game: the same for every game ({game}: its id).
GAME_FILES = (
    "docs/games/{game}.md",
    "cpp/include/dominocore/games/{game}.hpp",
    "cpp/src/games/{game}.cpp",
    "python/dominocore/games/{game}.py",
    "python/dominocore/reference/games/{game}.py",
    "tests/test_scenarios_{game}.py",
)
#: The test data of a configuration (a game, or each rule set of a game that has them).
CONFIGURATION_DATA = (
    "tests/data/golden_{name}_",
    "tests/data/records/{name}_match.json",
    "tests/data/records/{name}_round.json",
)
#: The folders of the games (the registries included), where naming a game is the point.
GAME_FOLDERS = ("python/dominocore/games/", "python/dominocore/reference/games/", "cpp/include/dominocore/games/",
                "cpp/src/games/")  # fmt: skip


def tracked_files():
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return done.stdout.split()


def test_the_game_list_is_the_registry():
    import dominocore as dc
    from dominocore.games import GAME_CLASSES, GAMES

    assert tuple(GAMES) == GAME_IDS
    assert all(getattr(dc, cls.__name__) is cls for cls in GAME_CLASSES)
    # the reference's hooks are registered under the same ids, and no others
    assert tuple(dc.reference.games.GAMES) == GAME_IDS
    assert sorted(dc.rules_from_dict({"game": g}).game for g in GAME_IDS) == sorted(GAME_IDS)


#: Files named by a learned network's key (docs/learning.md 1: "chickenfoot-trains-d9-p4"): the
#: shipped weights and their training logs, data for a configuration rather than a game's code.
LEARNED_NETWORK_FILES = ("python/dominocore/weights/", "bench/results/learning/")


def test_every_game_has_the_same_files_and_no_others():
    from dominocore.games import GAMES

    files = [f for f in tracked_files() if not f.startswith(LEARNED_NETWORK_FILES)]
    for game, cls in GAMES.items():
        configurations = cls.rule_sets() or (game,)
        expected = {pattern.format(game=game) for pattern in GAME_FILES}
        data = [p.format(name=name) for name in configurations for p in CONFIGURATION_DATA]
        named = {
            f
            for f in files
            if game in os.path.basename(f) or any(f"/{c}_" in f or f"_{c}_" in f for c in configurations)
        }
        assert expected <= set(files), f"{game} lacks {sorted(expected - set(files))}"
        assert all(any(f.startswith(d) for f in files) for d in data), f"{game} lacks test data"
        others = sorted(f for f in named - expected if not any(f.startswith(d) for d in data))
        assert others == [], f"{game} has files outside the checklist (docs/adding-a-game.md): {others}"


GAME_RULES_CLASSES = ("ChickenFoot", "Doubles", "Block", "MexicanTrain", "AllFives", "FivesAndThrees")


def _game_names_in(path: str):
    """Where the Python module at ``path`` names a game: a game id as a
    string (docstrings aside), a comparison of ``.game`` or ``.rule_set``
    with a name (comparing two objects' games is no game's business),
    or a game's rules class in ``isinstance``."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAME_IDS and id(node) not in docstrings:
            yield node.lineno, f"the game id {node.value!r}"
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = any(isinstance(s, ast.Attribute) and s.attr in ("game", "rule_set") for s in sides)
            if named and any(isinstance(s, (ast.Constant, ast.Tuple, ast.List, ast.Set)) for s in sides):
                yield node.lineno, "a comparison of .game or .rule_set with a name"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if any(isinstance(n, ast.Name) and n.id in GAME_RULES_CLASSES for n in ast.walk(node)):
                yield node.lineno, "isinstance with a game's rules class"


def test_shared_python_code_names_no_game():
    found = []
    for path in python_files():
        where = os.path.relpath(path, ROOT).replace(os.sep, "/")
        if not where.startswith(GAME_FOLDERS):
            found += [f"{where}:{line}: {what}" for line, what in _game_names_in(path)]
    assert found == []


def test_the_game_name_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    code = 'if rules.rule_set != "cross" or rules.game == y.game or isinstance(r, Block):\n    y = "block"\n'
    bad.write_text('"""doubles in a docstring is fine."""\n' + code)
    assert sorted(what for _, what in _game_names_in(str(bad))) == [
        "a comparison of .game or .rule_set with a name", "isinstance with a game's rules class", "the game id 'block'",
    ]  # fmt: skip


def test_shared_cpp_code_names_no_game():
    found = []
    for folder, _, names in os.walk(CPP):
        where = os.path.relpath(folder, ROOT).replace(os.sep, "/") + "/"
        if where.startswith(GAME_FOLDERS) or where.startswith("cpp/tests/"):
            continue
        for name in names:
            if name.endswith((".cpp", ".hpp")):
                for number, text in enumerate(open(os.path.join(folder, name), encoding="utf-8"), 1):
                    if re.search(r"\b(Game|RuleSet)::[A-Z]\w*", text):
                        found.append(f"{where}{name}:{number}")
    assert found == []


@needs_core  # the searches are the compiled core's: a pure-Python install has none
def test_search_policy_names_are_the_searches():
    from dominocore.common.policies import SEARCH_POLICY_NAMES
    from dominocore.search import SEARCH_POLICIES

    assert tuple(SEARCH_POLICIES) == SEARCH_POLICY_NAMES
