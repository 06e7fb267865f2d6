"""The shape of the package (docs/architecture.md): no import cycles, no
import placed inside a function (but the optional extras, loaded when
asked for), and modules of bounded size. The layers themselves are
import-linter's contracts in pyproject.toml (``lint-imports``, run by
pre-commit in CI); this checks what those contracts do not.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, "python")
CPP = os.path.join(ROOT, "cpp")

#: Most lines of a Python module of the package, and of a C++ file (tests aside).
PYTHON_LIMIT = 600
CPP_LIMIT = 700

#: Imports allowed inside a function: optional extras, loaded when a feature asks for them.
OPTIONAL_EXTRAS = {"ray", "pyarrow", "pyarrow.parquet", "pyspiel", "open_spiel", "pettingzoo", "gymnasium"}
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
