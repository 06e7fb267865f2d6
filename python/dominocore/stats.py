"""The statistics of ``dominocore.tournament`` (docs/tournaments.md 4): Student's
t intervals and paired tests over per-deal margins, and Bradley-Terry
ratings from pairwise wins. Plain numpy and the standard library: the
incomplete beta function is computed here rather than taken from scipy.
"""

from __future__ import annotations

import math
from typing import Any, Tuple

import numpy as np

__all__ = ["BT_PRIOR", "bradley_terry", "paired_t_test", "t_interval", "t_quantile", "t_sf"]

#: The Elo scale of the ratings: 400 points for a factor 10 in the Bradley-Terry strength, mean 1500.
ELO_SCALE, ELO_MEAN = 400.0, 1500.0
#: Pseudo-wins added each way for every pair before the Bradley-Terry fit (keeps a clean sweep finite).
BT_PRIOR = 0.5


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for aa in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom.

    >>> round(t_sf(2.0, 10), 6), t_sf(0.0, 3)
    (0.036694, 0.5)
    """
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t with ``df`` degrees of freedom, by bisection."""
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > 1.0 - q:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_sf(mid, df) > 1.0 - q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2.0


def t_interval(values: Any, level: float = 0.95) -> Tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` and its Student-t
    confidence interval at ``level``, ``mean -/+ t * sd / sqrt(n)`` with
    the sample sd (n - 1). NaN bounds for fewer than 2 values.

    >>> [round(v, 4) for v in t_interval([1, 2, 3, 4])]
    [2.5, 0.4457, 4.5543]
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n < 2:
        return (mean, math.nan, math.nan)
    half = t_quantile(0.5 + level / 2.0, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def paired_t_test(differences: Any) -> float:
    """The one-sided paired t-test's p-value for "the mean of
    ``differences`` is above 0": ``P(T > mean / (sd / sqrt(n)))`` with n - 1
    degrees of freedom. With no spread at all: 0 if the mean is positive,
    1 if negative, 0.5 if 0; NaN for fewer than 2 values.

    >>> round(paired_t_test([1, 2, 3, 4]), 6), paired_t_test([2, 2, 2])
    (0.015233, 0.0)
    """
    x = np.asarray(differences, dtype=np.float64).ravel()
    n = len(x)
    if n < 2:
        return math.nan
    mean, sd = float(x.mean()), float(x.std(ddof=1))
    if sd == 0.0:
        return 0.0 if mean > 0 else 1.0 if mean < 0 else 0.5
    return t_sf(mean / (sd / math.sqrt(n)), n - 1)


def bradley_terry(wins: Any, prior: float = BT_PRIOR, iterations: int = 10_000) -> np.ndarray:
    """Elo-scale ratings (mean 1500, 400 per factor of 10 in strength) of a
    Bradley-Terry fit to ``wins[i][j]``, the times i beat j (ties counted a
    half each way), with ``prior`` pseudo-wins added each way for every pair;
    fitted by Hunter's MM iterations. For two bots the difference is exactly
    ``400 * log10((w + prior) / (l + prior))``.

    >>> bradley_terry([[0, 4.5], [0, 0]]).round(6).tolist()  # 5 to 0.5 with the prior: a factor 10
    [1700.0, 1300.0]
    """
    w = np.asarray(wins, dtype=np.float64) + prior
    k = len(w)
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    total = w.sum(axis=1)
    pi = np.ones(k)
    for _ in range(iterations):
        denominator = (n / (pi[:, None] + pi[None, :])).sum(axis=1)
        new = total / denominator
        new /= math.exp(float(np.log(new).mean()))
        done = float(np.abs(new - pi).max()) < 1e-13
        pi = new
        if done:
            break
    return ELO_MEAN + ELO_SCALE * np.log10(pi)
