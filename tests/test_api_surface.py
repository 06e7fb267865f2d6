"""The public surface as a user and a type checker see it: what ``dir`` lists,
signatures and docstrings, reprs, and mypy ``--strict`` on the README tour and
on every docstring example."""

from __future__ import annotations

import doctest
import inspect
import pathlib
import re
import subprocess
import sys
import textwrap

import dominocore as dc
import pytest
from helpers import public_modules

ROOT = pathlib.Path(__file__).parent.parent
IMPLEMENTATIONS = [pytest.param(dc, id="served"), pytest.param(dc.reference, id="reference")]


def test_dir_lists_only_public_names():
    names = dir(dc)
    assert names == sorted(dc.__all__)
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
    for n in names:
        assert hasattr(dc, n)


def public_callables(module):
    """(qualified name, object) for each public callable of ``module``'s
    ``__all__`` and each public method of its public classes, except what
    exceptions inherit from ``BaseException``."""
    for name in module.__all__:
        obj = getattr(module, name)
        if not callable(obj):
            continue
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue
        yield name, obj
        if inspect.isclass(obj):
            for attr in dir(obj):
                member = getattr(obj, attr, None)
                if not attr.startswith("_") and callable(member) and not inspect.isclass(member):
                    yield f"{name}.{attr}", member


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
def test_every_public_callable_has_a_signature_and_a_docstring(module):
    missing_signature, missing_doc = [], []
    for name, obj in public_callables(module):
        try:
            inspect.signature(obj)
        except (TypeError, ValueError):
            missing_signature.append(name)
        if not inspect.getdoc(obj):
            missing_doc.append(name)
    assert missing_signature == []
    assert missing_doc == []


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
def test_the_generator_has_real_signatures(module):
    rng = module.SplitMix64(5)

    def parameters(f):
        return [(p.name, p.default) for p in inspect.signature(f).parameters.values()]

    assert parameters(module.SplitMix64) == [("seed", 0)]
    assert parameters(rng.below) == [("n", inspect.Parameter.empty)]
    assert parameters(rng.next) == []
    assert inspect.getdoc(rng.next) == "The next 64-bit output."


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
def test_bots_and_generators_have_useful_reprs(module):
    rules = module.ChickenFoot(players=4)
    rng = module.SplitMix64(3)
    assert repr(rng) == "SplitMix64(state=0x0000000000000003)"
    rng.next()
    assert repr(rng) == f"SplitMix64(state={rng.state:#018x})"
    assert repr(module.GreedyPlayer()) == "<GreedyPlayer>"
    bot = module.RandomPlayer(seed=1)
    assert re.fullmatch(r"<RandomPlayer SplitMix64\(state=0x[0-9a-f]{16}\)>", repr(bot))
    r = module.Round(rules, seed=7)
    sampler = r.determinizer(2)
    assert repr(sampler) == f"<Determinizer seat=2 {rules!r}>"
    # a bot's or a sampler's repr names no tile
    assert not re.search(r"\d+-\d+", repr(bot) + repr(sampler))


def docstring_examples():
    """Every docstring example of the package as Python files, one a module:
    each docstring's examples are the body of a function of their own (their
    names do not clash with another's), after an import of the module's
    globals that they use, as doctest runs them."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    seen, files = set(), {}
    for module in public_modules():
        bodies, used = [], set()
        for test in finder.find(module):
            if not test.examples or test.name in seen:
                continue
            seen.add(test.name)
            source = "".join(example.source for example in test.examples)
            used |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source)) & set(test.globs)
            bodies.append(f"def example_{len(bodies)}() -> None:  # {test.name}\n{textwrap.indent(source, '    ')}")
        if bodies:
            names = sorted(n for n in used if not n.startswith("__"))
            # a module's globals are not all re-exported: mypy --strict would say so
            header = f"from {module.__name__} import {', '.join(names)}  # type: ignore[attr-defined,unused-ignore]\n"
            files[module.__name__] = (header if names else "") + "\n\n".join(bodies) + "\n"
    return files


def test_the_docstring_examples_are_found():
    files = docstring_examples()
    for where in ("dominocore", "dominocore.reference.round", "dominocore.reference.match", "dominocore.common.rules"):
        assert "def example_0() -> None" in files[where]


def test_mypy_strict_accepts_the_readme_tour_and_every_docstring_example(tmp_path):
    pytest.importorskip("mypy", reason="mypy is in the lint extra")
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    assert blocks
    files = []
    for k, code in enumerate(blocks):
        files.append(tmp_path / f"readme_{k}.py")
        files[-1].write_text(code)
    for name, code in docstring_examples().items():
        files.append(tmp_path / f"examples_{name.replace('.', '_')}.py")
        files[-1].write_text(code)
    # in a process of its own: mypy's global state stays out of this one
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache")]
    done = subprocess.run([*command, *map(str, files)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_extras_agree_with_the_test_extra_on_where_a_package_installs():
    """An extra naming a package the ``test`` extra limits to some platforms
    carries the same marker (``openspiel`` and ``bench`` lacked it), and the
    metadata names its authors."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((pathlib.Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]

    def parts(requirement: str):
        spec, _, marker = requirement.partition(";")
        return re.split(r"[<>=!~\[ ]", spec.strip())[0].lower().replace("-", "_"), " ".join(marker.split())

    limited = {name: marker for name, marker in map(parts, extras["test"]) if marker}
    assert "open_spiel" in limited and "ray" in limited
    for extra, requirements in extras.items():
        for name, marker in map(parts, requirements):
            if name in limited:
                assert marker == limited[name], (
                    f"[{extra}] {name}: marker {marker!r}, the test extra's {limited[name]!r}"
                )
    assert project["authors"] and project["maintainers"]
