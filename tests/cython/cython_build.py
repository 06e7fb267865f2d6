"""Builds tests/cython/dominocore_playout.pyx against the installed dominocore
and imports it (tests/test_cython.py, bench/cython_playout.py).

The build runs tests/cython/setup.py (the setuptools example of
docs/cython.md) with Cython and the system's C++ compiler, and is cached in a
directory keyed by the package's version and everything the module depends on
(the .pyx, setup.py, the installed headers, declarations and library, Cython's
version, the interpreter), so only the first run compiles."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
from types import ModuleType
from typing import Iterator

import dominocore

SOURCE = pathlib.Path(__file__).parent
MODULE = "dominocore_playout"


class BuildUnavailable(Exception):
    """What this environment lacks to build the extension (Cython, setuptools, a compiler)."""


def missing() -> str:
    """Why the extension cannot be built here ('' when it can)."""
    for name in ("Cython", "setuptools"):
        if importlib.util.find_spec(name) is None:
            return f"{name} is not installed (pip install 'dominocore[test]')"
    if sys.platform == "win32":
        return ""  # setuptools finds MSVC itself; a failed build says so
    cxx = os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++"
    program = cxx.split()[0]
    if not shutil.which(program):
        return f"no C++ compiler: {program!r} (this Python's CXX; set CXX to another) is not on PATH"
    return ""


def build_key() -> str:
    """The cache key: a hash of what the built module depends on."""
    import Cython

    h = hashlib.sha256()
    parts = [SOURCE / f"{MODULE}.pyx", SOURCE / "setup.py"]
    parts += sorted(pathlib.Path(dominocore.get_include()).rglob("*"))
    for d in dominocore.get_library_dirs():
        parts += sorted(pathlib.Path(d).iterdir())
    for p in parts:
        if p.is_file():
            h.update(p.name.encode() + b"\0" + p.read_bytes())
    h.update(f"{dominocore.__version__} {Cython.__version__} {sys.version} {sys.executable}".encode())
    return h.hexdigest()[:20]


def build(cache: pathlib.Path) -> ModuleType:
    """The extension, built into ``cache`` once per key, imported. Raises
    BuildUnavailable when Cython, setuptools or a compiler is missing, and
    RuntimeError (with the build's output) when the build fails."""
    why = missing()
    if why:
        raise BuildUnavailable(why)
    key = build_key()
    target = cache / f"{dominocore.__version__}-{key}"
    with _lock(cache / f"{key}.lock"):  # parallel test workers: one builds, the others wait
        if not (target / "built").exists():
            _build_into(target, key, cache)
    if MODULE in sys.modules:
        return sys.modules[MODULE]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = target / f"{MODULE}{suffix}"
        if path.exists():
            break
    else:
        raise RuntimeError(f"the built extension is missing from {target}")
    spec = importlib.util.spec_from_file_location(MODULE, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[MODULE] = module
    return module


@contextlib.contextmanager
def _lock(path: pathlib.Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (POSIX; elsewhere none)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        try:
            import fcntl
        except ImportError:  # Windows: concurrent builds each use their own scratch directory
            yield
            return
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _build_into(target: pathlib.Path, key: str, cache: pathlib.Path) -> None:
    """Builds the extension in a scratch directory, then renames it to ``target``."""
    work = cache / f"building-{key}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in (f"{MODULE}.pyx", "setup.py"):
        shutil.copy(SOURCE / name, work / name)
    run = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise RuntimeError(f"building the Cython extension failed:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
    (work / "built").write_text(key)
    try:
        os.replace(work, target)
    except OSError:  # another process finished the same build first: use it
        shutil.rmtree(work, ignore_errors=True)
