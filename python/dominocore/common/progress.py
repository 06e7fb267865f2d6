"""Progress bars for long calls (``simulate``, ``simulate_iter``, tournaments):
one place that decides how they look and when they stay quiet."""

from __future__ import annotations

import sys
from typing import Any, Callable

from tqdm import tqdm

__all__ = ["progress_bar", "progress_callback"]


def progress_bar(total: int, unit: str, description: str = "") -> Any:
    """A tqdm bar on stderr over ``total`` units. It turns itself off (prints
    nothing) when stderr is not a terminal, so pipes and logs get no ``\\r``
    frames, and it is gone from the screen once closed."""
    return tqdm(
        total=total,
        desc=description or None,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        disable=None,
        leave=False,
        dynamic_ncols=True,
    )


def progress_callback(total: int, unit: str) -> Callable[[int, int], None]:
    """``progress_bar`` as a ``progress(done, total)`` callable, the form
    ``simulate`` reports through; the bar closes when ``done`` reaches the total."""
    bar = progress_bar(total, unit)

    def report(done: int, _total: int) -> None:
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return report
