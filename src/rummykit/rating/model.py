"""OpenSkill's Plackett-Luce model (Weng and Lin, 2011) applied to finishing places.

One table's result is a list of finishing places (1 = best, equal places for a draw);
the model moves every player's ``mu`` towards the result and shrinks ``sigma``.  The
Plackett-Luce model ranks any number of players at once, so a four-player
Three-Thirteen table is one update, not six pairwise ones.

Ratings are kept in *pools*: one for Burraco, one for each player count of
Three-Thirteen (a place among four is not the same feat as a place among two).
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


def pool_of(game: str, players: int, *, player_counts: tuple[int, ...]) -> str:
    """The pool a table's result is rated in: one per table size the game is played at
    (``player_counts``, from the game's descriptor), the game's name alone when it has one.

    >>> pool_of("burraco", 2, player_counts=(2,))
    'burraco'
    >>> pool_of("three-thirteen", 4, player_counts=(2, 3, 4))
    'three-thirteen/4'
    """
    return game if len(player_counts) == 1 else f"{game}/{players}"


def new_model(*, drift: bool = True) -> PlackettLuce:
    """The Plackett-Luce model with OpenSkill's defaults.

    ``drift`` adds OpenSkill's ``tau`` (``mu / 300``) to every ``sigma`` before each
    update, for people whose skill changes; a bot's skill does not, and its ladder is
    rated without it.
    """
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=MU / 300 if drift else 0.0)


def rate_table(
    model: PlackettLuce, ratings: Sequence[Rating], places: Sequence[int]
) -> list[Rating]:
    """The ratings of a table's players after a result: ``places[i]`` is where player
    ``i`` finished (1 is first; a draw gives equal places).

    >>> winner, loser = rate_table(new_model(drift=False), [Rating(), Rating()], [1, 2])
    >>> round(winner.mu, 3), round(loser.mu, 3), round(winner.sigma, 3)
    (27.635, 22.365, 8.066)
    """
    if len(ratings) < 2 or len(places) != len(ratings):
        raise RatingError("bad_places", f"{len(places)} places for {len(ratings)} players")
    if any(place < 1 for place in places):
        raise RatingError("bad_places", "places start at 1")
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    rated: list[list[PlackettLuceRating]] = model.rate(teams, ranks=[float(p) for p in places])
    return [Rating(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


POINTS_PER_MU: Final = 400 / (math.sqrt(2) * BETA * math.log(10))
"""Display points per unit of ``mu`` (about 29.5), chosen so that, as on the Elo scale,
400 points between two settled ratings (small ``sigma``) mean odds of 10 to 1 in a
two-player game under the model's own likelihood: Plackett-Luce's
``P(win) = 1 / (1 + exp(-Δmu / c))`` with ``c = sqrt(2) * BETA`` when ``sigma`` is
small."""
