"""Confidence intervals for match results.

Win rates use the Wilson score interval, a draw counting half a win; score differences
use a normal interval over independent units (a game, or a whole duplicate set of
seatings).  Pure arithmetic: no I/O, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

Z_95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a win rate of ``wins`` (draws as halves) in ``games``.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if games == 0:
        return (0.0, 1.0)
    if not 0 <= wins <= games:
        raise ValueError(f"{wins} wins is impossible in {games} games")
    rate = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(
    values: Sequence[float], z: float = Z_95
) -> tuple[float, tuple[float, float] | None]:
    """The mean of independent ``values`` and its normal 95% interval.

    The interval is ``None`` with fewer than two values (no spread to measure).

    >>> mean, (lo, hi) = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> mean, round(lo, 3), round(hi, 3)
    (2.5, 1.235, 3.765)
    """
    count = len(values)
    if count == 0:
        return (0.0, None)
    mean = math.fsum(values) / count
    if count < 2:
        return (mean, None)
    variance = math.fsum((v - mean) ** 2 for v in values) / (count - 1)
    half = z * math.sqrt(variance / count)
    return (mean, (mean - half, mean + half))
