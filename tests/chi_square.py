"""Chi-square checks for the determinization tests: a statistic and its limit.

The limit is the upper 0.1% point of the chi-square distribution, by the
Wilson-Hilferty approximation (within 3% of the exact point from one degree of freedom
up), so a sampler that places cards as chance would passes with probability 0.999 and
the seeds fixed in each test make the verdict the same on every run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TypeVar

K = TypeVar("K")

Z_999 = 3.0902  # the standard normal's 99.9% point


def limit(degrees: int) -> float:
    """The value a chi-square statistic with ``degrees`` degrees of freedom exceeds
    with probability 0.001."""
    h = 2 / (9 * degrees)
    return degrees * (1 - h + Z_999 * math.sqrt(h)) ** 3


def binomial_statistic(cells: Iterable[tuple[int, int, float]]) -> float:
    """Sum over ``(observed, trials, probability)`` of the squared standardized gaps:
    each term is a chi-square of one degree of freedom when ``observed`` is binomial."""
    total = 0.0
    for observed, trials, probability in cells:
        expected = trials * probability
        total += (observed - expected) ** 2 / (expected * (1 - probability))
    return total


def multinomial_statistic(observed: Mapping[K, int], probabilities: Mapping[K, float]) -> float:
    """Pearson's statistic of counts against cell probabilities (summing to 1); it has
    ``len(probabilities) - 1`` degrees of freedom."""
    trials = sum(observed.values())
    assert set(observed) <= set(probabilities), "a count falls outside every cell"
    return sum(
        (observed.get(cell, 0) - trials * p) ** 2 / (trials * p)
        for cell, p in probabilities.items()
    )
