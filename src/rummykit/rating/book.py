"""Every player's rating in every pool, updated table by table.

A pool is a game, or a game at one player count (:func:`~rummykit.rating.model.pool_of`);
a player unknown to a pool starts at OpenSkill's default rating there.  The book is
plain data and round-trips through JSON, so a server can keep it in its database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.rating.model import Rating, RatingError, new_model, rate_table


class RatingBook:
    """Ratings by pool and player name.

    >>> book = RatingBook()
    >>> after = book.rate("three-thirteen/3", ["ann", "bob", "cy"], [2, 1, 3])
    >>> book.rating("three-thirteen/3", "bob").mu > 25 > book.rating("three-thirteen/3", "cy").mu
    True
    >>> book.rating("burraco", "bob")
    Rating(mu=25.0, sigma=8.333333333333334)
    """

    def __init__(self, *, drift: bool = True) -> None:
        self.drift = drift
        self._model = new_model(drift=drift)
        self._pools: dict[str, dict[str, Rating]] = {}
        self._games: dict[str, dict[str, int]] = {}

    def rating(self, pool: str, player: str) -> Rating:
        """``player``'s rating in ``pool`` (the default rating if never rated there)."""
        return self._pools.get(pool, {}).get(player, Rating())

    def games(self, pool: str, player: str) -> int:
        """How many rated tables ``player`` has played in ``pool``."""
        return self._games.get(pool, {}).get(player, 0)

    def players(self, pool: str) -> dict[str, Rating]:
        """Every player rated in ``pool`` and their ratings."""
        return dict(self._pools.get(pool, {}))

    def rate(self, pool: str, players: Sequence[str], places: Sequence[int]) -> list[Rating]:
        """Rate one table of ``pool``: ``places[i]`` is where ``players[i]`` finished
        (1 is first, equal places a draw); gives and keeps the new ratings."""
        if len(set(players)) != len(players):
            raise RatingError("bad_players", "a player sits twice at one table")
        ratings = self._pools.setdefault(pool, {})
        games = self._games.setdefault(pool, {})
        after = rate_table(self._model, [self.rating(pool, p) for p in players], places)
        for player, rating in zip(players, after, strict=True):
            ratings[player] = rating
            games[player] = games.get(player, 0) + 1
        return after

    def to_json(self) -> dict[str, Any]:
        return {
            "drift": self.drift,
            "pools": {
                pool: {
                    player: {**rating.to_json(), "games": self._games[pool][player]}
                    for player, rating in ratings.items()
                }
                for pool, ratings in self._pools.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RatingBook:
        """The book :meth:`to_json` wrote."""
        book = cls(drift=bool(data["drift"]))
        for pool, ratings in data["pools"].items():
            for player, entry in ratings.items():
                book._pools.setdefault(pool, {})[player] = Rating(
                    mu=float(entry["mu"]), sigma=float(entry["sigma"])
                )
                book._games.setdefault(pool, {})[player] = int(entry["games"])
        return book
