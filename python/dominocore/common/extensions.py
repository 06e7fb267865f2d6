"""Extension points: where a higher layer plugs what it provides into a lower one.

The layers of dominocore import only downward (docs/architecture.md). Three
calls run the other way, and meet here instead of through an import:

- a ``Round`` prints itself with the renderers of ``dominocore.text`` and
  ``dominocore.svg`` (``render()``, ``_repr_svg_()``);
- ``simulate(..., backend="ray")`` (or ``chunks=``) hands its games to
  ``dominocore.distributed``;
- a policy named ``"ismcts"``, ``"pimc"`` or ``"cheat"`` is a bot of the
  compiled search, ``dominocore.search``, whichever engine plays it.

Each of those modules registers itself here when it is imported, and the
package root imports them all, so everything is in place once ``import
dominocore`` (or any ``dominocore.x``) has run.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional

from .errors import RulesError

__all__ = [
    "chunk_runner",
    "register_chunk_runner",
    "register_renderer",
    "register_search_policies",
    "renderer",
    "search_policies",
]

_renderers: Dict[str, Callable[..., str]] = {}
_search_policies: Dict[str, Callable[..., Any]] = {}
_chunk_runner: Optional[Callable[..., Any]] = None


def register_renderer(kind: str, render: Callable[..., str]) -> None:
    """Make ``render`` the renderer of ``kind`` ("text" or "svg")."""
    _renderers[kind] = render


def renderer(kind: str) -> Callable[..., str]:
    """The renderer registered for ``kind``."""
    try:
        return _renderers[kind]
    except KeyError:
        raise RuntimeError(f"no {kind} renderer is registered: import dominocore first") from None


def register_search_policies(policies: Mapping[str, Callable[..., Any]]) -> None:
    """The search bots' factories by policy name (``dominocore.search``)."""
    _search_policies.update(policies)


def search_policies() -> Dict[str, Callable[..., Any]]:
    """The search bots' factories by policy name; ``RulesError`` when there
    are none (an install without the compiled core)."""
    if not _search_policies:
        raise RulesError("the search policies (ismcts, pimc, cheat) need dominocore's compiled core")
    return dict(_search_policies)


def register_chunk_runner(run: Callable[..., Any]) -> None:
    """``run(implementation, rules, args, backend, chunks, address)`` plays
    a checked ``simulate`` call in chunks (``dominocore.distributed``)."""
    global _chunk_runner
    _chunk_runner = run


def chunk_runner() -> Callable[..., Any]:
    """The registered chunk runner."""
    if _chunk_runner is None:
        raise RuntimeError("no chunk runner is registered: import dominocore first")
    return _chunk_runner
