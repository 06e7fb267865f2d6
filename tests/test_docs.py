"""The documentation runs as written: every docstring example and the README tour."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest
from helpers import public_modules

#: Every module of the package (tests/test_api_surface.py also type-checks
#: their examples); the bridges to optional packages where those are installed.
MODULES = sorted(module.__name__ for module in public_modules())
README = pathlib.Path(__file__).parent.parent / "README.md"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, verbose=False, report=True)
    assert failures == 0


def test_readme_tour_runs_as_written():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for code in blocks:
            exec(compile(code, str(README), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "2 9-9 [0, 1, 2, 3]"
    assert lines[2].startswith("must_place - ") and "seat 2" in lines[2]


def test_readme_tour_runs_as_written_in_the_reference():
    """The tour under ``DOMINOCORE_IMPLEMENTATION=python`` (a new process: the
    variable is read at import), printing what it prints with the core. The
    tour is sized to take seconds there too (it took minutes once, silently)."""
    script = (
        "import contextlib, io, pathlib, re\n"
        f"text = pathlib.Path({str(README)!r}).read_text()\n"
        "for code in re.findall(r'```python\\n(.*?)```', text, flags=re.S):\n"
        "    exec(compile(code, 'README.md', 'exec'), {})\n"
        "import dominocore\n"
        "print('served by', dominocore.Round.__module__)\n"
    )
    env = {**os.environ, "DOMINOCORE_IMPLEMENTATION": "python"}
    python = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert python.returncode == 0, python.stderr
    lines = python.stdout.splitlines()
    assert lines[-1] == "served by dominocore.reference.round"
    env["DOMINOCORE_IMPLEMENTATION"] = "cpp"
    core = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    if core.returncode == 0:  # the same printout, but for who served it (absent in a pure-Python install)
        assert lines[:-1] == core.stdout.splitlines()[:-1]


ROOT = README.parent
CITATION = re.compile(r"docs/((?:games/)?[\w-]+\.md) ((?:\d+(?:\.\d+)?|[A-Z]\d+))\b")


def _sections(page: pathlib.Path) -> dict:
    """A page's numbered headings, and its numbered list items (engine.md's
    readings are cited by number): number -> text."""
    headings, items = {}, {}
    for line in page.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{1,6}\s+((?:\d+(?:\.\d+)?|[A-Z]\d+))\.?\s+(.*)", line)
        item = re.match(r"(\d+)\.\s+(.*)", line)
        if heading:
            headings[heading.group(1)] = heading.group(2)
        elif item:
            items.setdefault(item.group(1), item.group(2))
    return {**items, **headings}


def test_every_section_cited_exists():
    """Every "docs/PAGE.md N" in the code, the benchmarks and the docs names a
    numbered section that exists (a renumbering leaves no stale citation)."""
    shipped = [*ROOT.joinpath("python").rglob("*.py"), *ROOT.joinpath("bench").rglob("*.py")]
    shipped += [*ROOT.joinpath("cpp").rglob("*.[ch]pp"), *ROOT.joinpath("docs").rglob("*.md"), README]
    stale = []
    for path in shipped:
        for page, number in CITATION.findall(path.read_text(encoding="utf-8", errors="replace")):
            target = ROOT / "docs" / page
            if not target.is_file() or number not in _sections(target):
                stale.append(f"{path.relative_to(ROOT)}: docs/{page} {number}")
    assert not stale, stale


def test_the_experiments_help_cites_the_experiments_section():
    """bench/tournament.py --help cited docs/tournaments.md 6 (Ray), not 7."""
    text = (ROOT / "bench" / "tournament.py").read_text(encoding="utf-8")
    (number,) = re.findall(r"docs/tournaments\.md (\d+)", text.splitlines()[0])  # the help's description
    assert "bench/tournament.py" in _sections(ROOT / "docs" / "tournaments.md")[number]
