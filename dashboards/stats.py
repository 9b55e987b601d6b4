"""Small statistics the pages need: intervals for rates and a test of seat advantage."""

from __future__ import annotations

import math

import polars as pl

Z = 1.959964  # a 95% interval: the normal's quantile at 0.975


def wilson(wins: float, n: float, z: float = Z) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (sound at small n and at 0 or 1)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def with_wilson(
    frame: pl.DataFrame,
    hits: str,
    n: str,
    low: str = "interval_low",
    high: str = "interval_high",
    z: float = Z,
) -> pl.DataFrame:
    """The frame with the 95% Wilson interval of hits / n beside it (as `wilson`, a column at
    a time): none where n is 0 or missing, a rate of nothing."""
    k = pl.when(pl.col(n) > 0).then(pl.col(n).cast(pl.Float64))
    p = pl.col(hits) / k
    centre = (p + z * z / (2 * k)) / (1 + z * z / k)
    half = z * (p * (1 - p) / k + z * z / (4 * k * k)).sqrt() / (1 + z * z / k)
    return frame.with_columns(
        (centre - half).clip(lower_bound=0.0).alias(low),
        (centre + half).clip(upper_bound=1.0).alias(high),
    )


def with_error_bars(
    frame: pl.DataFrame, rate: str, low: str = "interval_low", high: str = "interval_high"
) -> pl.DataFrame:
    """The frame with how far the interval reaches above and below `rate` (`above`, `below`):
    a chart's error bars."""
    return frame.with_columns(
        (pl.col(high) - pl.col(rate)).alias("above"), (pl.col(rate) - pl.col(low)).alias("below")
    )


def chi_square_p(observed: list[float], expected: list[float]) -> tuple[float, float, int]:
    """Pearson's goodness-of-fit test: (statistic, p-value, degrees of freedom)."""
    pairs = [(o, e) for o, e in zip(observed, expected) if e > 0]
    stat = sum((o - e) ** 2 / e for o, e in pairs)
    dof = len(pairs) - 1
    if dof <= 0:
        return stat, 1.0, 0
    return stat, _upper_gamma_q(dof / 2, stat / 2), dof


def _upper_gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(a, x) (Numerical Recipes, 6.2)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 − P
        term = total = 1.0 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)  # continued fraction for Q
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
