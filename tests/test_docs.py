"""The documentation runs as written: every docstring example and the README tour."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import pathlib
import re

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
