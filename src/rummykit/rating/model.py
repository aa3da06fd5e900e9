"""OpenSkill's Plackett-Luce model (Weng and Lin, 2011) applied to finishing places.

One table's result is a list of finishing places (1 = best, equal places for a draw);
the model moves every player's ``mu`` towards the result and shrinks ``sigma``.  The
Plackett-Luce model ranks any number of players at once, so a four-player
Three-Thirteen table is one update, not six pairwise ones.

Ratings are kept in *pools*: one for each table size a game is played at (a place
among four is not the same feat as a place among two): ``burraco`` for two,
``burraco/4`` for four in two partnerships, ``three-thirteen/2`` to ``/4``.  Partners
are rated as one team: both gain or lose by their side's place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating

MU: Final = 25.0
"""A new player's ``mu`` (OpenSkill's default)."""
SIGMA: Final = MU / 3
"""A new player's ``sigma`` (OpenSkill's default)."""
BETA: Final = MU / 6
"""The spread of one game's performance around a player's skill (OpenSkill's default)."""


class RatingError(ValueError):
    """Places that cannot be rated.  ``code`` is stable; the message is English.

    >>> RatingError("bad_places", "one player").code
    'bad_places'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: a normal distribution of mean ``mu`` and deviation ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    def to_json(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma}


def pool_of(
    game: str, players: int, *, player_counts: tuple[int, ...], named_size: int | None = None
) -> str:
    """The pool a table's result is rated in: one per table size the game is played at
    (``player_counts``, from the game's descriptor), the game's name alone when it has
    one size, or for ``named_size``, the size it was rated at before others came (its
    ratings keep their pool's name).

    >>> pool_of("burraco", 2, player_counts=(2, 4), named_size=2)
    'burraco'
    >>> pool_of("burraco", 4, player_counts=(2, 4), named_size=2)
    'burraco/4'
    >>> pool_of("three-thirteen", 4, player_counts=(2, 3, 4))
    'three-thirteen/4'
    """
    if len(player_counts) == 1 or players == named_size:
        return game
    return f"{game}/{players}"


TURN_BASED_SUFFIX = "+days"
"""What a pool's name ends with when it rates turn-based games (games over days)."""


def turn_based_pool(pool: str) -> str:
    """The pool of turn-based games beside the live pool ``pool``: a player's skill
    over days is rated apart from their skill against a clock.

    >>> turn_based_pool("burraco/4")
    'burraco/4+days'
    """
    return pool + TURN_BASED_SUFFIX


def new_model(*, drift: bool = True) -> PlackettLuce:
    """The Plackett-Luce model with OpenSkill's defaults.

    ``drift`` adds OpenSkill's ``tau`` (``mu / 300``) to every ``sigma`` before each
    update, for people whose skill changes; a bot's skill does not, and its ladder is
    rated without it.
    """
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=MU / 300 if drift else 0.0)


def rate_table(
    model: PlackettLuce,
    ratings: Sequence[Rating],
    places: Sequence[int],
    *,
    sides: Sequence[int] | None = None,
) -> list[Rating]:
    """The ratings of a table's players after a result: ``places[i]`` is where player
    ``i`` finished (1 is first; a draw gives equal places).  ``sides[i]`` is the side
    player ``i`` played for: partners share a side, rated as one team of OpenSkill at
    the best place of its players (they share their team's place); left out, every
    player is a side of their own.

    >>> winner, loser = rate_table(new_model(drift=False), [Rating(), Rating()], [1, 2])
    >>> round(winner.mu, 3), round(loser.mu, 3), round(winner.sigma, 3)
    (27.635, 22.365, 8.066)
    >>> four = rate_table(new_model(drift=False), [Rating()] * 4, [1, 3, 1, 3], sides=[0, 1, 0, 1])
    >>> four[0] == four[2] and four[1] == four[3] and four[0].mu > 25 > four[1].mu
    True
    """
    if len(ratings) < 2 or len(places) != len(ratings):
        raise RatingError("bad_places", f"{len(places)} places for {len(ratings)} players")
    if any(place < 1 for place in places):
        raise RatingError("bad_places", "places start at 1")
    chosen = list(range(len(ratings))) if sides is None else list(sides)
    if len(chosen) != len(ratings):
        raise RatingError("bad_sides", f"{len(chosen)} sides for {len(ratings)} players")
    order = sorted(set(chosen))
    if len(order) < 2:
        raise RatingError("bad_sides", "a table needs two sides")
    members = [[i for i, side in enumerate(chosen) if side == each] for each in order]
    teams = [
        [model.rating(mu=ratings[i].mu, sigma=ratings[i].sigma) for i in team] for team in members
    ]
    ranks = [float(min(places[i] for i in team)) for team in members]
    rated: list[list[PlackettLuceRating]] = model.rate(teams, ranks=ranks)
    after = list(ratings)
    for team, new in zip(members, rated, strict=True):
        for i, rating in zip(team, new, strict=True):
            after[i] = Rating(mu=rating.mu, sigma=rating.sigma)
    return after


POINTS_PER_MU: Final = 400 / (math.sqrt(2) * BETA * math.log(10))
"""Display points per unit of ``mu`` (about 29.5), chosen so that, as on the Elo scale,
400 points between two settled ratings (small ``sigma``) mean odds of 10 to 1 in a
two-player game under the model's own likelihood: Plackett-Luce's
``P(win) = 1 / (1 + exp(-Δmu / c))`` with ``c = sqrt(2) * BETA`` when ``sigma`` is
small."""
