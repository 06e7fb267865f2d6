"""Types that catch a user's mistakes (issue 20): ``mypy --strict`` over a
user's script that uses every public name (tests/typing/uses_the_api.py)
reports nothing and pins each type with ``assert_type``; over a script of
mistakes (tests/typing/rejected.py) it reports exactly the lines marked
``# E:``. mypy checks the source tree (``MYPYPATH``), so an editable install
is checked as it is."""

from __future__ import annotations

import ast
import pathlib
import re
import runpy

import dominocore
import pytest
from helpers import CORE_INSTALLED, SERVES_CORE

api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install '.[test]' brings it)")

ROOT = pathlib.Path(__file__).resolve().parent.parent
USES = ROOT / "tests" / "typing" / "uses_the_api.py"
REJECTED = ROOT / "tests" / "typing" / "rejected.py"


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory):
    """``{file name: {line: message}}`` of one ``mypy --strict`` run over both scripts."""
    cache = tmp_path_factory.mktemp("mypy-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MYPYPATH", str(ROOT / "python"))
        out, err, status = api.run(
            [
                "--strict",
                "--follow-imports=silent",
                "--cache-dir",
                str(cache),
                "--no-error-summary",
                str(USES),
                str(REJECTED),
            ]
        )
    assert status in (0, 1), f"mypy itself failed: {err}{out}"
    errors: dict = {USES.name: {}, REJECTED.name: {}}
    for line in out.splitlines():
        found = re.match(r"(.+?):(\d+): error: (.*)", line)
        if found:
            errors[pathlib.Path(found.group(1)).name].setdefault(int(found.group(2)), found.group(3))
    return errors


def test_a_script_over_every_public_name_type_checks_strictly(mypy_errors):
    assert mypy_errors[USES.name] == {}


def test_each_mistake_is_rejected_and_nothing_else(mypy_errors):
    marked = {i for i, line in enumerate(REJECTED.read_text().splitlines(), 1) if "# E:" in line}
    assert len(marked) >= 15
    rejected = set(mypy_errors[REJECTED.name])
    assert rejected == marked, {
        "accepted, though marked": sorted(marked - rejected),
        "rejected, not marked": {i: mypy_errors[REJECTED.name][i] for i in sorted(rejected - marked)},
    }


def test_the_script_uses_every_public_name():
    """A new public name must come with its typing here."""
    tree = ast.parse(USES.read_text())
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "dc"
    }
    missing = sorted(set(dominocore.__all__) - used)
    assert not missing, f"tests/typing/uses_the_api.py does not use {missing}"


@pytest.mark.skipif(not (CORE_INSTALLED and SERVES_CORE), reason="the script uses the compiled core's search bots")
def test_the_script_runs():
    runpy.run_path(str(USES), run_name="__main__")
