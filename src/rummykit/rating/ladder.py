"""A ladder: ratings from a series of results, shown on a scale anchored at one entry.

The results are rated in the order given, so the same results give the same ladder.
The anchor (the random bot, at 1,000 points) fixes the scale's origin; every other
entry's interval is that of its difference from the anchor, ``± 1.96`` times the
combined ``sigma`` of the two, in display points.  Two entries are compared by their
*own* intervals (``± 1.96`` times each one's ``sigma`` alone): where the anchor sits is
uncertain by the same amount for both, so it widens neither's distance from the other.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.rating.book import RatingBook
from rummykit.rating.model import POINTS_PER_MU, Rating, RatingError

ANCHOR_POINTS: Final = 1000.0
"""Where the anchor entry sits on the display scale."""
Z_95: Final = 1.959963984540054
LADDER_POOL: Final = "ladder"


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """One table's result: the entries seated (by name) and where each finished."""

    names: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rung:
    """One entry of a ladder: its display rating with a 95% interval."""

    name: str
    points: float
    low: float
    high: float
    rating: Rating
    games: int

    @property
    def own_interval(self) -> tuple[float, float]:
        """The rating ``± 1.96`` times this rung's own ``sigma``, in display points."""
        half = Z_95 * self.rating.sigma * POINTS_PER_MU
        return self.points - half, self.points + half

    def to_json(self) -> dict[str, Any]:
        low, high = self.own_interval
        return {
            "name": self.name,
            "rating": round(self.points, 1),
            "interval": [round(self.low, 1), round(self.high, 1)],
            "own_interval": [round(low, 1), round(high, 1)],
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "games": self.games,
        }


def rate_outcomes(outcomes: Iterable[TableOutcome]) -> tuple[dict[str, Rating], dict[str, int]]:
    """Every entry's rating after rating ``outcomes`` in order from the default rating
    (without drift: the entries' skill is fixed), and how many games each played."""
    book = RatingBook(drift=False)
    for outcome in outcomes:
        book.rate(LADDER_POOL, outcome.names, outcome.places)
    ratings = book.players(LADDER_POOL)
    return ratings, {name: book.games(LADDER_POOL, name) for name in ratings}


def ladder_of(ratings: dict[str, Rating], games: dict[str, int], *, anchor: str) -> list[Rung]:
    """The entries from the strongest down, on the scale where ``anchor`` sits at 1,000.

    >>> rungs = ladder_of(
    ...     {"random": Rating(20, 1), "greedy": Rating(30, 1)}, {"random": 9, "greedy": 9},
    ...     anchor="random")
    >>> [(r.name, round(r.points), round(r.low), round(r.high)) for r in rungs]
    [('greedy', 1295, 1213, 1377), ('random', 1000, 1000, 1000)]
    """
    if anchor not in ratings:
        raise RatingError("no_anchor", f"the anchor {anchor!r} has no result to rate")
    base = ratings[anchor]
    rungs = []
    for name, rating in ratings.items():
        points = ANCHOR_POINTS + (rating.mu - base.mu) * POINTS_PER_MU
        spread = 0.0 if name == anchor else math.hypot(rating.sigma, base.sigma)
        half = Z_95 * spread * POINTS_PER_MU
        rungs.append(
            Rung(
                name=name,
                points=points,
                low=points - half,
                high=points + half,
                rating=rating,
                games=games.get(name, 0),
            )
        )
    return sorted(rungs, key=lambda rung: -rung.points)


def disagreements(first: Sequence[Rung], second: Sequence[Rung]) -> list[str]:
    """The names whose intervals in two ladders of the same entries do not overlap
    (empty when the ladders agree)."""
    by_name = {rung.name: rung for rung in second}
    return [
        rung.name
        for rung in first
        if rung.name in by_name
        and (rung.high < by_name[rung.name].low or by_name[rung.name].high < rung.low)
    ]


def unseparated(rungs: Sequence[Rung]) -> list[tuple[str, str]]:
    """Each two neighbours of a ladder (strongest first) whose own intervals overlap:
    the pairs the ladder does not yet put in a settled order (empty when every rung is
    clearly above the next).

    >>> rungs = ladder_of(
    ...     {"random": Rating(20, 1), "easy": Rating(23, 1), "greedy": Rating(30, 1)},
    ...     {"random": 9, "easy": 9, "greedy": 9}, anchor="random")
    >>> unseparated(rungs)
    [('easy', 'random')]
    """
    return [
        (upper.name, lower.name)
        for upper, lower in itertools.pairwise(rungs)
        if upper.own_interval[0] <= lower.own_interval[1]
    ]
